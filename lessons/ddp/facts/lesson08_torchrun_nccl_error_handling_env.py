# Fact: torchrun's local elastic agent exports TORCH_NCCL_ASYNC_ERROR_HANDLING=1 to every
# worker when the launching shell leaves it unset (ProcessGroupNCCL's own default would be 3),
# and passes a value you set through unchanged. Checked on CPU: the variable is plain
# environment, whatever the backend.
import os
import subprocess
import sys
import tempfile

WORKER = '''
import os
print(f"rank {os.environ['RANK']}: TORCH_NCCL_ASYNC_ERROR_HANDLING="
      f"{os.environ.get('TORCH_NCCL_ASYNC_ERROR_HANDLING', '<unset>')}", flush=True)
'''


def run(value):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("TORCH_NCCL_ASYNC_ERROR_HANDLING", None)
    env.pop("NCCL_ASYNC_ERROR_HANDLING", None)
    if value is not None:
        env["TORCH_NCCL_ASYNC_ERROR_HANDLING"] = value
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "show_env.py")
        with open(path, "w") as f:
            f.write(WORKER)
        out = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone",
                              "--nproc_per_node=2", path], env=env, capture_output=True,
                             text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


unset = run(None)
for rank in (0, 1):
    assert f"rank {rank}: TORCH_NCCL_ASYNC_ERROR_HANDLING=1" in unset, unset
mine = run("3")
for rank in (0, 1):
    assert f"rank {rank}: TORCH_NCCL_ASYNC_ERROR_HANDLING=3" in mine, mine
print("ok: with TORCH_NCCL_ASYNC_ERROR_HANDLING unset in the shell, torchrun gives every "
      "worker 1; a value you set (3) reaches the workers unchanged")

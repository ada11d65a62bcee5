# Fact: on 2 "nodes" (two torchrun launches, --nnodes=2, here both on localhost) with
# 2 processes each, `if LOCAL_RANK == 0: print(...)` prints every epoch once per node
# (2 lines per epoch), while `if dist.get_rank() == 0:` prints once per epoch.
# Standalone: it starts both torchrun launches itself.
import os
import subprocess
import sys
import tempfile
import textwrap

WORKER = textwrap.dedent("""
    import os
    import torch.distributed as dist
    dist.init_process_group("gloo")
    for epoch in range(3):
        if int(os.environ["LOCAL_RANK"]) == 0:
            print(f"LOCAL epoch {epoch} from global rank {dist.get_rank()}", flush=True)
        if dist.get_rank() == 0:
            print(f"GLOBAL epoch {epoch}", flush=True)
        dist.barrier()
    dist.destroy_process_group()
""")

torchrun = os.path.join(os.path.dirname(sys.executable), "torchrun")
worker = os.path.join(tempfile.mkdtemp(), "worker.py")
with open(worker, "w") as f:
    f.write(WORKER)
env = dict(os.environ, OMP_NUM_THREADS="1")
procs = [
    subprocess.Popen(
        [torchrun, "--nnodes=2", f"--node_rank={node}", "--nproc_per_node=2",
         "--master_addr=127.0.0.1", "--master_port=29544", worker],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    for node in (0, 1)
]
lines = []
for p in procs:
    out, _ = p.communicate(timeout=300)
    assert p.returncode == 0, p.returncode
    lines += out.splitlines()

local = sorted(l for l in lines if l.startswith("LOCAL"))
glob = [l for l in lines if l.startswith("GLOBAL")]
print("\n".join(local))
assert len(local) == 6, local                      # 3 epochs x 2 nodes
assert {l.split()[-1] for l in local} == {"0", "2"}  # global ranks 0 and 2 both print
assert len(glob) == 3, glob
print("ok: a LOCAL_RANK == 0 guard prints once per node per epoch (6 lines for 3 epochs on "
      "2 nodes); dist.get_rank() == 0 prints once per epoch (3 lines)")

# Facts: when rank 1 raises while rank 0 waits in all_reduce, torchrun exits 1 and its
# summary puts rank 1 under "Root Cause (first observed failure)". With @record the
# summary shows rank 1's traceback and an error_file path; without @record it shows
# "error_file: <N/A>" and "To enable traceback see: ...".
import os
import subprocess
import sys
import tempfile

WORKER = '''
import torch
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    t = torch.ones(1)
    for step in range(3):
        if rank == 1 and step == 1:
            raise ValueError(f"rank {rank}: corrupt batch at step {step}")
        dist.all_reduce(t)
    dist.destroy_process_group()

if __name__ == "__main__":
    (record(main) if USE_RECORD else main)()
'''


def run(use_record):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "crash.py")
        with open(path, "w") as f:
            f.write(WORKER.replace("USE_RECORD", str(use_record)))
        env = dict(os.environ, OMP_NUM_THREADS="1")
        out = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone",
                              "--nproc_per_node=2", path], env=env, capture_output=True,
                             text=True, timeout=300)
    return out.returncode, out.stderr


code, err = run(True)
assert code == 1, code
root = err.split("Root Cause (first observed failure):", 1)[1]
assert "rank      : 1 (local_rank: 1)" in root, root
assert "ValueError: rank 1: corrupt batch at step 1" in root, root
assert "error.json" in root, root

code, err = run(False)
assert code == 1, code
root = err.split("Root Cause (first observed failure):", 1)[1]
assert "error_file: <N/A>" in root, root
assert "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html" in root, root
print("ok: torchrun exits 1 and names rank 1 as Root Cause; @record adds its traceback "
      "and error_file, without it the summary says error_file: <N/A>")

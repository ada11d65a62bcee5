"""Lesson 5, Q3 (contrast): the deprecated python -m torch.distributed.launch appends --local-rank=<n>
to the script's arguments (and also sets LOCAL_RANK), and warns with a FutureWarning."""
import os
import subprocess
import sys
import tempfile

WORKER = r'''
import os, sys
print("ARGV", os.environ["LOCAL_RANK"], " ".join(sys.argv[1:]), flush=True)
'''
out = tempfile.mkdtemp()
worker = os.path.join(out, "worker.py")
with open(worker, "w") as f:
    f.write(WORKER)
env = {k: v for k, v in os.environ.items() if k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE")}
p = subprocess.run([sys.executable, "-m", "torch.distributed.launch", "--nproc_per_node=2",
                    "--master_port=0", worker, "--epochs", "1"],
                   env=env, capture_output=True, text=True, timeout=300)
assert p.returncode == 0, p.stderr
lines = sorted(l for l in p.stdout.splitlines() if l.startswith("ARGV"))
assert lines == ["ARGV 0 --local-rank=0 --epochs 1", "ARGV 1 --local-rank=1 --epochs 1"], lines
assert "FutureWarning" in p.stderr and "torchrun" in p.stderr
print("ok: torch.distributed.launch inserts --local-rank=<n> before the script's own arguments, sets LOCAL_RANK too, and emits a FutureWarning pointing to torchrun")

"""Fact (SPMD): every process runs the whole script, so on 2 nodes x 4 GPUs (world size 8) a print
outside `if rank == 0` appears 8 times in total (4 in each node's output) and one inside it appears once.
Simulated with one torchrun agent per "node" on localhost."""
import os
import socket
import subprocess
import sys
import tempfile

TORCHRUN = os.path.join(os.path.dirname(sys.executable), "torchrun")

HELLO = r'''
import os
rank = int(os.environ["RANK"])
local_rank = int(os.environ["LOCAL_RANK"])
world_size = int(os.environ["WORLD_SIZE"])
print(f"I am process {rank} of {world_size}; I will use GPU {local_rank} on my node", flush=True)
if rank == 0:
    print("Only one process prints this line.", flush=True)
'''

d = tempfile.mkdtemp()
script = os.path.join(d, "hello.py")
open(script, "w").write(HELLO)
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
env = dict(os.environ, OMP_NUM_THREADS="1")
agents = [
    subprocess.Popen([TORCHRUN, "--nnodes=2", "--nproc_per_node=4", "--rdzv_backend=c10d",
                      f"--rdzv_endpoint=127.0.0.1:{port}", "--rdzv_id=hello", script],
                     env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for _ in range(2)
]
outs = [a.communicate(timeout=300)[0] for a in agents]
assert all(a.returncode == 0 for a in agents)
# count occurrences, not lines: the four processes of a node share one pipe, so two lines can end up glued
per_node = [o.count("I am process") for o in outs]
only_one = sum(o.count("Only one process prints this line.") for o in outs)
assert per_node == [4, 4], (per_node, outs)
assert sum(per_node) == 8 and only_one == 1

print("ok: world size 8 on 2x4: unguarded print appears 8 times (4 per node), rank-0-guarded print once")

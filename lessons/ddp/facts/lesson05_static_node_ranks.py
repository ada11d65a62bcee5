"""Lesson 5, Q1: static form (--node_rank, --master_addr), 3 nodes x 4 processes, simulated as
three torchrun agents on localhost. The worker on node_rank 2 with LOCAL_RANK 3 has RANK 11,
WORLD_SIZE 12, LOCAL_WORLD_SIZE 4; node 1 of 2x8 would hold 8-15 by the same rule."""
import json
import os
import socket
import subprocess
import sys
import tempfile

TORCHRUN = os.path.join(os.path.dirname(sys.executable), "torchrun")
WORKER = r'''
import json, os, sys
keys = ["RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK", "MASTER_ADDR", "MASTER_PORT"]
with open(os.path.join(sys.argv[1], "rank" + os.environ["RANK"] + ".json"), "w") as f:
    json.dump({k: os.environ.get(k) for k in keys}, f)
'''

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
out = tempfile.mkdtemp()
worker = os.path.join(out, "worker.py")
with open(worker, "w") as f:
    f.write(WORKER)
env = {k: v for k, v in os.environ.items() if k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "OMP_NUM_THREADS")}
NNODES, NPROC = 3, 4
agents = [subprocess.Popen([TORCHRUN, f"--nnodes={NNODES}", f"--node_rank={n}", f"--nproc_per_node={NPROC}",
                            "--master_addr=127.0.0.1", f"--master_port={port}", worker, out],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
          for n in range(NNODES)]
for a in agents:
    assert a.wait(timeout=300) == 0
seen = {}
for name in os.listdir(out):
    if name.endswith(".json"):
        e = json.load(open(os.path.join(out, name)))
        seen[int(e["RANK"])] = e
assert sorted(seen) == list(range(NNODES * NPROC))
for r, e in seen.items():
    node, local = int(e["GROUP_RANK"]), int(e["LOCAL_RANK"])
    assert r == node * NPROC + local, e
    assert e["WORLD_SIZE"] == "12" and e["LOCAL_WORLD_SIZE"] == "4", e
    assert e["MASTER_ADDR"] == "127.0.0.1" and e["MASTER_PORT"] == str(port), e
e = seen[11]
assert (e["GROUP_RANK"], e["LOCAL_RANK"]) == ("2", "3")
print("ok: static form, 3 nodes x 4: node_rank 2 / LOCAL_RANK 3 is RANK 11, WORLD_SIZE 12, LOCAL_WORLD_SIZE 4 (RANK = node_rank * nproc_per_node + LOCAL_RANK)")

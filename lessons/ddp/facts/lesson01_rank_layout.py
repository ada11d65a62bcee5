"""Fact: with one process per GPU on identical nodes, global rank = node * nproc_per_node + local rank,
so on 2 nodes x 4 GPUs global rank 6 has LOCAL_RANK 2, and on 3 nodes x 2 GPUs the ranks with
LOCAL_RANK 1 are 1, 3 and 5. Simulated with one torchrun agent per "node" on localhost (c10d rendezvous)."""
import os
import socket
import subprocess
import sys
import tempfile

VENV_BIN = os.path.dirname(sys.executable)
TORCHRUN = os.path.join(VENV_BIN, "torchrun")

WORKER = r'''
import os, sys
keys = ["RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK"]
with open(os.path.join(sys.argv[1], "rank%s" % os.environ["RANK"]), "w") as f:
    f.write(" ".join(os.environ[k] for k in keys))
'''


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_layout(nnodes, nproc):
    out = tempfile.mkdtemp()
    worker = os.path.join(out, "worker.py")
    with open(worker, "w") as f:
        f.write(WORKER)
    port = free_port()
    env = dict(os.environ, OMP_NUM_THREADS="1")
    agents = [
        subprocess.Popen(
            [TORCHRUN, f"--nnodes={nnodes}", f"--nproc_per_node={nproc}",
             "--rdzv_backend=c10d", f"--rdzv_endpoint=127.0.0.1:{port}",
             "--rdzv_id=layout", worker, out],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(nnodes)
    ]
    for a in agents:
        assert a.wait(timeout=300) == 0
    table = {}
    for name in os.listdir(out):
        if name.startswith("rank"):
            rank, local, world, local_world, group = map(int, open(os.path.join(out, name)).read().split())
            table[rank] = (local, world, local_world, group)
    return table


t = run_layout(2, 4)
assert sorted(t) == list(range(8))
assert all(v[1] == 8 and v[2] == 4 for v in t.values())           # WORLD_SIZE 8, LOCAL_WORLD_SIZE 4
assert all(r == v[3] * 4 + v[0] for r, v in t.items())            # rank = node * 4 + local rank
assert t[6][0] == 2                                               # global rank 6 -> LOCAL_RANK 2

t = run_layout(3, 2)
assert sorted(t) == list(range(6))
assert all(v[1] == 6 and v[2] == 2 for v in t.values())
assert sorted(r for r, v in t.items() if v[0] == 1) == [1, 3, 5]
assert sorted(r for r, v in t.items() if v[3] == 1) == [2, 3]     # the second node holds ranks 2 and 3

print("ok: rank = node*nproc + local_rank; 2x4: rank 6 has LOCAL_RANK 2; 3x2: LOCAL_RANK 1 is ranks 1, 3, 5")

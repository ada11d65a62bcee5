"""Lesson 5, Q2: torchrun sets OMP_NUM_THREADS=1 only when nproc_per_node > 1 AND the variable is
not already set, and warns only then (an exported 1 or 8 is inherited silently); the rule is per
node (2 nodes x 1 process leaves it unset). torchrun never sets CUDA_VISIBLE_DEVICES for a worker."""
import json
import os
import socket
import subprocess
import sys
import tempfile

TORCHRUN = os.path.join(os.path.dirname(sys.executable), "torchrun")
WORKER = r'''
import json, os, sys
with open(os.path.join(sys.argv[1], "rank" + os.environ["RANK"] + ".json"), "w") as f:
    json.dump({k: os.environ.get(k) for k in ("OMP_NUM_THREADS", "CUDA_VISIBLE_DEVICES")}, f)
'''
base = {k: v for k, v in os.environ.items()
        if k not in ("OMP_NUM_THREADS", "CUDA_VISIBLE_DEVICES", "RANK", "LOCAL_RANK", "WORLD_SIZE")}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(nnodes, nproc, omp=None):
    out = tempfile.mkdtemp()
    worker = os.path.join(out, "worker.py")
    with open(worker, "w") as f:
        f.write(WORKER)
    env = dict(base)
    if omp is not None:
        env["OMP_NUM_THREADS"] = omp
    if nnodes == 1:
        cmds = [[TORCHRUN, "--standalone", f"--nproc_per_node={nproc}", worker, out]]
    else:
        port = free_port()
        cmds = [[TORCHRUN, f"--nnodes={nnodes}", f"--node_rank={n}", f"--nproc_per_node={nproc}",
                 "--master_addr=127.0.0.1", f"--master_port={port}", worker, out] for n in range(nnodes)]
    ps = [subprocess.Popen(c, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
          for c in cmds]
    logs = [p.communicate(timeout=300)[1] for p in ps]
    assert all(p.returncode == 0 for p in ps)
    res = [json.load(open(os.path.join(out, n))) for n in os.listdir(out) if n.endswith(".json")]
    assert len(res) == nnodes * nproc
    assert all(r["CUDA_VISIBLE_DEVICES"] is None for r in res)
    vals = {r["OMP_NUM_THREADS"] for r in res}
    assert len(vals) == 1
    warned = any("Setting OMP_NUM_THREADS environment variable" in log for log in logs)
    return vals.pop(), warned


assert launch(1, 4) == ("1", True)
assert launch(1, 1) == (None, False)
assert launch(1, 4, omp="8") == ("8", False)
assert launch(1, 4, omp="1") == ("1", False)
assert launch(2, 1) == (None, False)
print("ok: OMP_NUM_THREADS=1, with a warning, only for nproc_per_node>1 with the variable unset (4 procs -> 1, warned; 1 proc -> unset; exported 8 -> 8 and exported 1 -> 1, no warning; 2 nodes x 1 -> unset); CUDA_VISIBLE_DEVICES never set")

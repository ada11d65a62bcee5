# Facts (the NCCL-timeout picture, reproduced on CPU without NCCL):
# (a) a worker killed by SIGABRT leaves no error file, so torchrun's summary shows
#     "exitcode  : -6", "Signal 6 (SIGABRT) received by PID ..." and "error_file: <N/A>";
#     its timestamp is when torchrun noticed the exit. Here rank 0 aborts the way
#     ProcessGroupNCCL's watchdog does after a timeout, while rank 1 (the rank that never
#     reached the collective) is still busy elsewhere: torchrun names rank 0 as Root Cause
#     and lists rank 1 as terminated by SIGTERM (-15).
# (b) ChildFailedError.get_first_failure picks the smallest timestamp, not the smallest
#     rank: with error files stamped 200 (rank 0) and 100 (rank 3), rank 3 is the root cause.
import json
import os
import subprocess
import sys
import tempfile

from torch.distributed.elastic.multiprocessing.errors import ChildFailedError, ProcessFailure

WORKER = '''
import os, time
if os.environ["RANK"] == "0":
    time.sleep(1)
    os.abort()              # what the NCCL watchdog's uncaught exception ends in
time.sleep(120)             # rank 1: stuck in host code, no collective pending
'''

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "victim.py")
    with open(path, "w") as f:
        f.write(WORKER)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone",
                          "--nproc_per_node=2", path], env=env, capture_output=True,
                         text=True, timeout=150)
assert out.returncode == 1, (out.returncode, out.stderr)
others, root = out.stderr.split("Root Cause (first observed failure):", 1)
assert "rank      : 0 (local_rank: 0)" in root, root
assert "exitcode  : -6" in root and "(SIGABRT)" in root, root
assert "error_file: <N/A>" in root, root
assert "Signal 6 (SIGABRT) received by PID" in root, root
assert "rank      : 1 (local_rank: 1)" in others, others
assert "exitcode  : -15" in others and "(SIGTERM)" in others, others

with tempfile.TemporaryDirectory() as tmp:
    failures = {}
    for rank, stamp in ((0, 200), (3, 100)):
        error_file = os.path.join(tmp, f"error_{rank}.json")
        with open(error_file, "w") as f:
            json.dump({"message": {"message": f"rank {rank} failed",
                                   "extraInfo": {"py_callstack": "...",
                                                 "timestamp": str(stamp)}}}, f)
        failures[rank] = ProcessFailure(local_rank=rank, pid=1000 + rank, exitcode=1,
                                        error_file=error_file)
    first_rank, first = ChildFailedError("train.py", failures).get_first_failure()
    assert (first_rank, first.timestamp) == (3, 100), (first_rank, first.timestamp)

print("ok: a SIGABRT worker is torchrun's Root Cause (exitcode -6, Signal 6 (SIGABRT), "
      "error_file <N/A>) while the rank busy elsewhere is listed as SIGTERM (-15); "
      "the root cause is the smallest timestamp, not the smallest rank")

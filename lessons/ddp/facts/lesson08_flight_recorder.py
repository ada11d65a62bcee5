# Facts: the Flight Recorder is on by default in PyTorch 2.13 (no TORCH_FR_BUFFER_SIZE /
# TORCH_NCCL_TRACE_BUFFER_SIZE set) and, besides NCCL, records gloo collectives, so its
# dump can be read on CPU. Each entry has collective_seq_id, profiling_name, input_sizes,
# output_sizes, state, time_created_ns and the Python frames of the call. Two ranks run
# three matching all_reduces; then rank 0 calls a fourth that rank 1 never calls. The dumps
# show rank 0's last entry at collective_seq_id 4 and rank 1's at 3: the rank
# whose trace stops below the stuck sequence number is the one that never called it.
# The analyzer entry point (python -m torch.distributed.flight_recorder.fr_trace, the
# torchfrtrace command) exists and takes --allow-incomplete-ranks. (Gloo entries keep
# state "scheduled"; their completion marks are not checked here.)
import os
import pickle
import subprocess
import sys
import tempfile

WORKER = '''
import datetime, os, sys, time
import torch, torch.distributed as dist
dist.init_process_group("gloo")
rank = dist.get_rank()
for _ in range(3):
    dist.all_reduce(torch.ones(4))
if rank == 0:
    work = dist.all_reduce(torch.ones(8), async_op=True)     # rank 1 never calls this one
    try:
        work.wait(timeout=datetime.timedelta(seconds=3))
    except RuntimeError:
        pass
with open(os.path.join(sys.argv[1], f"rank_{rank}"), "wb") as f:
    f.write(torch._C._distributed_c10d._dump_fr_trace())
if rank == 1:
    time.sleep(6)                            # stay alive until rank 0 has timed out
os._exit(0)
'''

env = {k: v for k, v in os.environ.items()
       if k not in ("TORCH_FR_BUFFER_SIZE", "TORCH_NCCL_TRACE_BUFFER_SIZE")}
env["OMP_NUM_THREADS"] = "1"
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "skip_one.py")
    with open(path, "w") as f:
        f.write(WORKER)
    out = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone",
                          "--nproc_per_node=2", path, tmp], env=env, capture_output=True,
                         text=True, timeout=150)
    assert out.returncode == 0, out.stderr
    dumps = {}
    for rank in (0, 1):
        with open(os.path.join(tmp, f"rank_{rank}"), "rb") as f:
            dumps[rank] = pickle.load(f)

for rank, dump in dumps.items():
    for entry in dump["entries"]:
        for key in ("collective_seq_id", "profiling_name", "input_sizes", "output_sizes",
                    "state", "time_created_ns", "frames"):
            assert key in entry, (rank, key, entry)
seqs = {rank: [e["collective_seq_id"] for e in d["entries"]] for rank, d in dumps.items()}
assert seqs == {0: [1, 2, 3, 4], 1: [1, 2, 3]}, seqs
stuck = dumps[0]["entries"][-1]
assert stuck["profiling_name"] == "gloo:all_reduce" and stuck["input_sizes"] == [[8]], stuck
assert any(fr["filename"].endswith("skip_one.py") for fr in stuck["frames"]), stuck["frames"]
status = {rank: next(iter(d["pg_status"].values())) for rank, d in dumps.items()}
assert status[0]["last_enqueued_collective"] == 4, status
assert status[1]["last_enqueued_collective"] == 3, status

helptext = subprocess.run([sys.executable, "-m", "torch.distributed.flight_recorder.fr_trace",
                           "--help"], env=env, capture_output=True, text=True, timeout=120)
assert helptext.returncode == 0 and "--allow-incomplete-ranks" in helptext.stdout, helptext
print("ok: Flight Recorder is on by default and records gloo collectives too; rank 0's dump "
      "ends at collective_seq_id 4 (gloo:all_reduce, size [8]), rank 1's at 3, "
      "so rank 1 never called collective 4; fr_trace takes --allow-incomplete-ranks")

# Fact: when one worker fails, torchrun stops ALL workers of the group and starts
# fresh processes for every rank, up to --max-restarts times; each attempt sees
# TORCHELASTIC_RESTART_COUNT = 0, 1, 2, ... and the same TORCHELASTIC_RUN_ID. When
# the restarts are used up, torchrun exits non-zero. Defaults: --max-restarts 0,
# --monitor-interval 0.1 s. (Plain python; it launches torchrun itself.)
import os
import subprocess
import sys
import tempfile
import textwrap

from torch.distributed.run import get_args_parser

defaults = get_args_parser().parse_args(["train.py"])
assert defaults.max_restarts == 0, defaults.max_restarts
assert defaults.monitor_interval == 0.1, defaults.monitor_interval

work = tempfile.mkdtemp(prefix="lesson09_restarts_")
worker = os.path.join(work, "worker.py")
with open(worker, "w") as f:
    f.write(textwrap.dedent("""
        import os, sys, time
        log = sys.argv[1]
        rank = os.environ["RANK"]
        count = os.environ["TORCHELASTIC_RESTART_COUNT"]
        with open(os.path.join(log, f"start-{rank}-{count}"), "w") as f:
            f.write(f"{os.getpid()} {os.environ['TORCHELASTIC_RUN_ID']} "
                    f"{os.environ['TORCHELASTIC_MAX_RESTARTS']}")
        if rank == "1":
            # wait until rank 0 of this attempt has recorded itself, then fail
            while not os.path.exists(os.path.join(log, f"start-0-{count}")):
                time.sleep(0.05)
            sys.exit(1)
        time.sleep(120)   # rank 0 never fails on its own
    """))

torchrun = os.path.join(os.path.dirname(sys.executable), "torchrun")
proc = subprocess.run(
    [torchrun, "--standalone", "--nproc_per_node=2", "--max-restarts=2", worker, work],
    capture_output=True, text=True, timeout=300,
)
starts = sorted(n for n in os.listdir(work) if n.startswith("start-"))
print("torchrun exit code:", proc.returncode, "starts:", starts)
assert proc.returncode != 0
assert starts == ["start-0-0", "start-0-1", "start-0-2",
                  "start-1-0", "start-1-1", "start-1-2"], starts
records = {n: open(os.path.join(work, n)).read().split() for n in starts}
pids0 = {records[f"start-0-{c}"][0] for c in range(3)}
assert len(pids0) == 3, "rank 0 must be a new process in every attempt"
assert len({r[1] for r in records.values()}) == 1, "same run id in every attempt"
assert all(r[2] == "2" for r in records.values())
assert "closing signal SIGTERM" in proc.stderr
print("ok: a failing rank makes torchrun SIGTERM the others and restart all ranks; "
      "--max-restarts=2 gives 3 starts per rank with TORCHELASTIC_RESTART_COUNT 0,1,2, "
      "then a non-zero exit; defaults max_restarts=0, monitor_interval=0.1")

# torchrun: 2
"""Lesson 5, Q3: torchrun passes no --local-rank argument, so an old parser with default=0 gives
every worker local_rank 0 (and set_device(0) for all) while LOCAL_RANK in the environment differs."""
import argparse
import os
import sys

assert not any(a.startswith("--local") for a in sys.argv[1:]), sys.argv
parser = argparse.ArgumentParser()
parser.add_argument("--local-rank", "--local_rank", type=int, default=0)
args = parser.parse_args()
assert args.local_rank == 0
assert os.environ["LOCAL_RANK"] in ("0", "1") and os.environ["LOCAL_WORLD_SIZE"] == "2"
if os.environ["LOCAL_RANK"] == "1":
    print("ok: under torchrun no --local-rank argument is passed; argparse default 0 for every worker while LOCAL_RANK=1 on the second")

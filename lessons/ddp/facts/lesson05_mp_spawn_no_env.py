"""Lesson 5, Q5: mp.spawn calls fn(i, *args) with i = 0..nprocs-1 and sets none of RANK,
LOCAL_RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: os.environ["LOCAL_RANK"] raises KeyError."""
import os

import torch.multiprocessing as mp

KEYS = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")


def worker(i, nprocs):
    assert 0 <= i < nprocs
    assert not any(k in os.environ for k in KEYS), {k: os.environ.get(k) for k in KEYS}
    try:
        int(os.environ["LOCAL_RANK"])
    except KeyError:
        pass
    else:
        raise AssertionError("LOCAL_RANK present")


if __name__ == "__main__":
    for k in KEYS:
        os.environ.pop(k, None)
    mp.spawn(worker, args=(2,), nprocs=2, join=True)
    print("ok: mp.spawn passes the process index as the first argument and sets no RANK/LOCAL_RANK/WORLD_SIZE/MASTER_* variables (os.environ['LOCAL_RANK'] -> KeyError)")

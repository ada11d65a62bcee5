"""Lesson 4, Q1: len 7, 3 replicas, shuffle=False: what each rank gets."""
import torch
from torch.utils.data.distributed import DistributedSampler

ds = list(range(7))  # only len() matters
got = {dl: [list(DistributedSampler(ds, num_replicas=3, rank=r, shuffle=False, drop_last=dl))
            for r in range(3)] for dl in (False, True)}
assert got[False] == [[0, 3, 6], [1, 4, 0], [2, 5, 1]], got[False]
assert got[True] == [[0, 3], [1, 4], [2, 5]], got[True]
# the distractor "[6, 0, 1]" would be a contiguous block of the padded list
padded = list(range(7)) + [0, 1]
assert padded[6:9] == [6, 0, 1]
print("ok: len 7, 3 replicas, shuffle=False: rank 2 gets [2, 5, 1] (drop_last=False) and [2, 5] (drop_last=True); index 6 unseen with drop_last=True")

"""Lesson 4, Q6: 10,001 validation samples on 8 ranks, default sampler: how many predictions in total."""
from torch.utils.data.distributed import DistributedSampler

n, R = 10_001, 8
ss = [DistributedSampler(range(n), num_replicas=R, rank=r, shuffle=False) for r in range(R)]
allidx = [i for s in ss for i in s]
assert len(ss[0]) == 1251 and len(allidx) == 10_008
assert len(set(allidx)) == n and len(allidx) - n == 7
assert allidx.count(0) == 2 and allidx.count(7) == 1 and allidx.count(6) == 2
dl = [DistributedSampler(range(n), num_replicas=R, rank=r, shuffle=False, drop_last=True) for r in range(R)]
assert sum(len(s) for s in dl) == 10_000
print("ok: 10,001 samples on 8 ranks: 1251 per rank, 10,008 predictions, indices 0-6 counted twice; drop_last=True gives 10,000")

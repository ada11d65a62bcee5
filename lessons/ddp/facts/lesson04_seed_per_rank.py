"""Lesson 4, Q5: seed=rank on each rank -> shards overlap, some samples are seen by no rank."""
from torch.utils.data.distributed import DistributedSampler

n, R = 1000, 4
same = [set(DistributedSampler(range(n), num_replicas=R, rank=r, seed=0)) for r in range(R)]
diff = [set(DistributedSampler(range(n), num_replicas=R, rank=r, seed=r)) for r in range(R)]
assert set().union(*same) == set(range(n)) and sum(map(len, same)) == n
covered = set().union(*diff)
overlap = sum(map(len, diff)) - len(covered)
assert len(covered) < n and overlap > 0
assert all(len(d) == n // R for d in diff)  # same length on every rank: no hang
print(f"ok: seed=rank with 1000 samples on 4 ranks: {n - len(covered)} samples seen by no rank, {overlap} extra repeats; with a shared seed all 1000 covered once")

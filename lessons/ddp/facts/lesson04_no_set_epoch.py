"""Lesson 4, Q3: without set_epoch every epoch repeats epoch 0's (shuffled) order; ranks stay disjoint."""
from torch.utils.data.distributed import DistributedSampler

ds = list(range(12))
samplers = [DistributedSampler(ds, num_replicas=2, rank=r, shuffle=True) for r in range(2)]
epochs = [[list(s) for s in samplers] for _ in range(3)]  # no set_epoch
assert epochs[0] == epochs[1] == epochs[2]
assert epochs[0][0] != sorted(epochs[0][0]) or epochs[0][1] != sorted(epochs[0][1])  # it is shuffled
assert set(epochs[0][0]).isdisjoint(epochs[0][1])  # shards still disjoint
assert sorted(epochs[0][0] + epochs[0][1]) == ds
for s in samplers:
    s.set_epoch(1)
assert [list(s) for s in samplers] != epochs[0]
print("ok: without set_epoch each epoch repeats epoch 0's shuffled order, shards stay disjoint; set_epoch(1) changes it")

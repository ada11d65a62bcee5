# Fact: DistributedSampler's order depends only on (seed, epoch, rank, num_replicas):
# a brand-new sampler in a restarted process, given set_epoch(resumed_epoch), yields
# exactly the indices the uninterrupted run's sampler yielded in that epoch; without
# set_epoch it replays epoch 0's order instead.
import torch
from torch.utils.data import TensorDataset
from torch.utils.data.distributed import DistributedSampler

dataset = TensorDataset(torch.arange(100))

for rank in range(2):
    uninterrupted = DistributedSampler(dataset, num_replicas=2, rank=rank, seed=0)
    orders = []
    for epoch in range(4):
        uninterrupted.set_epoch(epoch)
        orders.append(list(uninterrupted))

    resumed = DistributedSampler(dataset, num_replicas=2, rank=rank, seed=0)  # new process
    resumed.set_epoch(2)
    assert list(resumed) == orders[2]

    forgot = DistributedSampler(dataset, num_replicas=2, rank=rank, seed=0)
    assert list(forgot) == orders[0] != orders[2]

    shifted = DistributedSampler(dataset, num_replicas=2, rank=rank, seed=0)
    shifted.set_epoch(2 - 2)            # epoch counted from the resume point
    assert list(shifted) == orders[0] != orders[2]

print("ok: a fresh sampler with set_epoch(resumed epoch) matches the uninterrupted "
      "order; skipping set_epoch or counting epochs from the resume point replays epoch 0")

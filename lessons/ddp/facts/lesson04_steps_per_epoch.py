"""Lesson 4, Q2: 130 samples, 4 ranks, batch_size=16 -> steps per epoch per rank."""
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

ds = TensorDataset(torch.arange(130))
for rank in range(4):
    s = DistributedSampler(ds, num_replicas=4, rank=rank, shuffle=True, seed=0)
    assert len(s) == 33, len(s)
    loader = DataLoader(ds, batch_size=16, sampler=s)  # DataLoader drop_last=False
    assert len(loader) == 3, len(loader)
    assert [len(b[0]) for b in loader] == [16, 16, 1]
    # distractors
    s_drop = DistributedSampler(ds, num_replicas=4, rank=rank, drop_last=True)
    assert len(s_drop) == 32 and len(DataLoader(ds, batch_size=16, sampler=s_drop)) == 2
    assert len(DataLoader(ds, batch_size=16, sampler=s, drop_last=True)) == 2
assert len(DataLoader(ds, batch_size=16)) == 9  # single-process count
print("ok: 130 samples, 4 ranks, batch 16: len(sampler)=33, 3 steps per epoch (batches 16, 16, 1); 2 with either drop_last; 9 without a sampler")

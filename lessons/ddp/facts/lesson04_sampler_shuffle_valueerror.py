"""Lesson 4, Q4: DataLoader(sampler=..., shuffle=True) raises ValueError at construction."""
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

ds = TensorDataset(torch.arange(10))
s = DistributedSampler(ds, num_replicas=2, rank=0)
try:
    DataLoader(ds, batch_size=2, sampler=s, shuffle=True)
except ValueError as e:
    assert "sampler option is mutually exclusive with shuffle" in str(e), e
else:
    raise AssertionError("no ValueError")
DataLoader(ds, batch_size=2, sampler=s, shuffle=False)  # allowed
print("ok: DataLoader(sampler=..., shuffle=True) raises ValueError 'sampler option is mutually exclusive with shuffle' when constructed")

# 50,000 samples, 8 ranks, micro-batch 32, 4 accumulation steps:
# 6,250 samples per rank -> 196 micro-batches -> 49 optimizer steps per epoch.
import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

ds = TensorDataset(torch.zeros(50_000, 1))
sampler = DistributedSampler(ds, num_replicas=8, rank=0)
loader = DataLoader(ds, batch_size=32, sampler=sampler)
assert len(sampler) == 6250 and len(loader) == 196
K = 4
assert len(loader) // K == 49 and len(loader) % K == 0
assert 32 * K * 8 == 1024
print("ok: 50000 samples / 8 ranks / micro 32 -> 196 micro-batches, K=4 -> 49 optimizer steps, global batch 1024")

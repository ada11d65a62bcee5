# Fact: linear scaling rule. A recipe with lr 0.1 at batch 256 on one GPU, moved to
# 8 processes with DataLoader batch_size=256 each: the global batch is 2048, k = 8,
# lr = 0.8; each rank runs 1/8 of the steps per epoch.
import math

import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

base_lr, base_batch = 0.1, 256
per_rank_batch, world_size = 256, 8
global_batch = per_rank_batch * world_size
new_lr = base_lr * global_batch / base_batch
assert global_batch == 2048
assert math.isclose(new_lr, 0.8), new_lr

# steps per epoch on one rank, with the sampler given num_replicas/rank explicitly
data = TensorDataset(torch.zeros(51_200, 1))
single = len(DataLoader(data, batch_size=base_batch))
sampler = DistributedSampler(data, num_replicas=world_size, rank=3, shuffle=True)
per_rank = len(DataLoader(data, batch_size=per_rank_batch, sampler=sampler))
assert (single, per_rank) == (200, 25), (single, per_rank)
print(f"ok: lr 0.1 at batch 256 -> 8 x 256 = {global_batch} -> lr {new_lr:.1f}; "
      f"steps per epoch {single} -> {per_rank}")

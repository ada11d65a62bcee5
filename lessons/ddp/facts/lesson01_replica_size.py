# ranks: 2
"""Fact: data parallelism does not shrink the model on each worker. After wrapping in DDP, every rank
holds all of the model's parameters (same count and bytes as the unwrapped model), each rank runs
forward on its own local batch (shape unchanged), and one step covers world_size * local_batch samples."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()

def build():
    return nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10))

full = sum(p.numel() for p in build().parameters())
model = DDP(build())
local = sum(p.numel() for p in model.parameters())
assert local == full == 64 * 256 + 256 + 256 * 10 + 10

local_batch = 32
x = torch.randn(local_batch, 64)
out = model(x)
assert out.shape == (local_batch, 10)              # forward sees only the local batch

counts = [torch.zeros(2, dtype=torch.long) for _ in range(world)]
dist.all_gather(counts, torch.tensor([local, out.shape[0]]))
assert all(c[0].item() == full for c in counts)     # every rank: the full parameter count
assert sum(c[1].item() for c in counts) == world * local_batch

if rank == 0:
    print(f"ok: every DDP rank holds all {full} parameters; one step covers world_size*{local_batch} samples")
dist.destroy_process_group()

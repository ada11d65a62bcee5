# ranks: 2
"""Fact: after backward under DDP, every rank's .grad is the average of the ranks' local gradients.
Rank 0's local gradient is 2.0 and rank 1's is 6.0; both end up with 4.0 (not the sum 8.0)."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
assert dist.get_world_size() == 2

lin = nn.Linear(1, 1, bias=False)
model = DDP(lin)
x = torch.tensor([[2.0]]) if rank == 0 else torch.tensor([[6.0]])
model(x).sum().backward()                      # local d(loss)/dw = x: 2.0 on rank 0, 6.0 on rank 1
assert lin.weight.grad.item() == 4.0, lin.weight.grad

if rank == 0:
    print("ok: DDP grads are the mean over ranks: local 2.0 and 6.0 -> 4.0 on both ranks")
dist.destroy_process_group()

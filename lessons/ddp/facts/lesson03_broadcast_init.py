# ranks: 2
"""Fact: ranks initialised with different seeds hold different weights; constructing DDP raises no
error (it only checks shapes) and broadcasts rank 0's parameters and buffers, so afterwards every rank
holds rank 0's initial values, not its own and not an average."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()

torch.manual_seed(rank)
model = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3))
with torch.no_grad():
    model[1].running_mean.fill_(float(rank + 1))     # a buffer that differs too
before = [t.detach().clone() for t in model.state_dict().values()]

gathered = [[torch.empty_like(t) for _ in range(2)] for t in before]
for g, t in zip(gathered, before):
    dist.all_gather(g, t)
assert not torch.equal(gathered[0][0], gathered[0][1])  # weights differ before wrapping

ddp = DDP(model)                                         # no error despite different values
after = [t.detach() for t in model.state_dict().values()]
for g, t in zip(gathered, after):
    assert torch.equal(t, g[0])                          # everyone now holds rank 0's values
if rank == 1:
    assert not torch.equal(after[0], before[0])          # rank 1 lost its own weights
    assert not torch.allclose(after[0], (gathered[0][0] + gathered[0][1]) / 2)

if rank == 0:
    print("ok: DDP constructor broadcasts rank 0's parameters and buffers; differently seeded ranks end with rank 0's values")
dist.destroy_process_group()

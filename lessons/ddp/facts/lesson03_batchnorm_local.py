# ranks: 2
"""Fact: a plain BatchNorm inside DDP normalises each rank's batch with that rank's own batch
statistics (local batch of 16 here), not with statistics over all ranks' samples; DDP does not
synchronise BatchNorm batch statistics (SyncBatchNorm does that, but it needs GPU modules, so it is not
checked here). Running statistics are never averaged: by default DDP broadcasts rank 0's buffers at the
start of every forward."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()

bn = nn.BatchNorm1d(3)                                       # weight 1, bias 0 at init
model = DDP(bn)
model.train()
torch.manual_seed(100 + rank)
x = torch.randn(16, 3) * (rank + 1) + 5 * rank            # ranks see very different data

out = model(x)
local = (x - x.mean(0)) / torch.sqrt(x.var(0, unbiased=False) + bn.eps)
assert torch.allclose(out, local, atol=1e-5)                 # local statistics over 16 samples

xs = [torch.empty_like(x) for _ in range(world)]
dist.all_gather(xs, x)
allx = torch.cat(xs)
global_norm = (x - allx.mean(0)) / torch.sqrt(allx.var(0, unbiased=False) + bn.eps)
assert not torch.allclose(out, global_norm, atol=1e-3)     # not the statistics over 32 samples

# Running statistics are not averaged: after forward 1 each rank updated its own from its own batch;
# with the default broadcast_buffers=True, the next forward first overwrites them with rank 0's.
rm1 = bn.running_mean.clone()
rms = [torch.empty_like(rm1) for _ in range(world)]
dist.all_gather(rms, rm1)
assert not torch.allclose(rms[0], rms[1])                   # different after forward 1
assert not torch.allclose(rm1, (rms[0] + rms[1]) / 2)       # and not averaged
x2 = torch.randn(16, 3) + rank
model(x2)
expected = (1 - bn.momentum) * rms[0] + bn.momentum * x2.mean(0)   # rank 0's buffer, then a local update
assert torch.allclose(bn.running_mean, expected, atol=1e-6)

if rank == 0:
    print("ok: plain BatchNorm under DDP normalises with each rank's local batch statistics (16 of 32 samples); running stats are not averaged but re-broadcast from rank 0 at each forward")
dist.destroy_process_group()

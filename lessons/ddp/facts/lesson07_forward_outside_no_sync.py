# ranks: 2
# What no_sync() really switches off depends on where the FORWARD runs.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.nn.parallel import DistributedDataParallel as DDP


def hook(state, bucket):
    state["calls"] += 1
    return allreduce_hook(None, bucket)


def equal_across_ranks(t):
    copies = [torch.empty_like(t) for _ in range(dist.get_world_size())]
    dist.all_gather(copies, t)
    return all(torch.equal(copies[0], c) for c in copies)


dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = nn.Linear(4, 1)
torch.manual_seed(100 + rank)
x = torch.randn(8, 4)                          # different data per rank

# forward OUTSIDE no_sync, backward inside -> still synchronized
ddp = DDP(nn.Linear(4, 1)); ddp.module.load_state_dict(model.state_dict())
c = {"calls": 0}; ddp.register_comm_hook(c, hook)
loss = ddp(x).pow(2).mean()
with ddp.no_sync():
    loss.backward()
assert c["calls"] == 1, c
assert equal_across_ranks(ddp.module.weight.grad)
if rank == 0:
    print("ok: forward outside no_sync, backward inside -> grads still all-reduced (1 call)")

# forward INSIDE no_sync, backward outside -> not synchronized
ddp2 = DDP(nn.Linear(4, 1)); ddp2.module.load_state_dict(model.state_dict())
c2 = {"calls": 0}; ddp2.register_comm_hook(c2, hook)
with ddp2.no_sync():
    loss2 = ddp2(x).pow(2).mean()
loss2.backward()
assert c2["calls"] == 0, c2
assert not equal_across_ranks(ddp2.module.weight.grad)
if rank == 0:
    print("ok: forward inside no_sync, backward outside -> no all-reduce (0 calls), grads differ")
dist.destroy_process_group()

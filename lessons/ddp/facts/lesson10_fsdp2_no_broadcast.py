# ranks: 2
# Fact: fully_shard does not broadcast rank 0's weights (unlike DDP's constructor): each
# rank keeps the dim-0 chunk of ITS OWN local tensor. Initialize with the same seed on
# every rank, or load a checkpoint, before sharding.

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import FSDPModule, fully_shard
from torch.distributed.tensor import DTensor, Shard

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(rank)                       # different init on each rank, on purpose
model = nn.Linear(4, 6)
mine = model.weight.detach().clone()
fully_shard(model, mesh=init_device_mesh("cpu", (2,)))
assert isinstance(model, FSDPModule)
w = model.weight
assert isinstance(w, DTensor) and w.placements == (Shard(0),)
assert w.to_local().shape == (3, 4)
assert torch.equal(w.to_local(), mine.chunk(2, dim=0)[rank])   # my own rows
full = w.full_tensor()
others = [torch.empty_like(mine) for _ in range(2)]
dist.all_gather(others, mine)
assert torch.equal(full[:3], others[0][:3]) and torch.equal(full[3:], others[1][3:])
assert not torch.equal(full, others[0])        # not rank 0's full weight
# Every rank has passed its asserts once the barrier returns.
dist.barrier()
if rank == 0:
    print("ok: fully_shard keeps each rank's own dim-0 chunk (Shard(0)); no broadcast from rank 0", flush=True)
dist.destroy_process_group()

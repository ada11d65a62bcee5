# torchrun: 2
# Fact: loading the snapshot on rank 0 only is not enough. DDP's constructor
# broadcasts rank 0's parameters, so the weights agree right after wrapping, but the
# optimizer state (here SGD momentum) stays empty on rank 1; after the next step the
# replicas differ. Loading on every rank keeps them identical.
import io

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()

# a "snapshot" made by a few momentum steps on one model (identical on both ranks)
torch.manual_seed(0)
src = nn.Linear(4, 1)
src_opt = torch.optim.SGD(src.parameters(), lr=0.1, momentum=0.9)
for _ in range(3):
    src_opt.zero_grad()
    src(torch.randn(8, 4)).pow(2).mean().backward()
    src_opt.step()
buf = io.BytesIO()
torch.save({"model": src.state_dict(), "optimizer": src_opt.state_dict()}, buf)


def gathered(t):
    out = [torch.empty_like(t) for _ in range(2)]
    dist.all_gather(out, t)
    return out


def run(load_on_every_rank):
    torch.manual_seed(100 + rank)              # different fresh weights per rank
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    if rank == 0 or load_on_every_rank:
        buf.seek(0)
        snap = torch.load(buf)
        model.load_state_dict(snap["model"])
        opt.load_state_dict(snap["optimizer"])
    ddp = DDP(model)                           # broadcasts rank 0's parameters
    w0, w1 = gathered(model.weight.detach().clone())
    after_wrap = torch.equal(w0, w1)
    torch.manual_seed(rank)
    opt.zero_grad()
    ddp(torch.randn(8, 4)).pow(2).mean().backward()   # gradients averaged: identical
    opt.step()
    w0, w1 = gathered(model.weight.detach().clone())
    return after_wrap, torch.equal(w0, w1)


only0 = run(load_on_every_rank=False)
every = run(load_on_every_rank=True)
if rank == 0:
    print("rank 0 only: equal after wrap, equal after one step =", only0)
    print("every rank:  equal after wrap, equal after one step =", every)
assert only0 == (True, False)
assert every == (True, True)
if rank == 0:
    print("ok: loading on rank 0 only leaves rank 1 without optimizer state, so the "
          "replicas differ after the first step; loading on every rank keeps them equal")
dist.destroy_process_group()

# ranks: 2
# Fact: loading the snapshot on rank 0 only is not enough. DDP's constructor
# broadcasts rank 0's parameters (init_sync=True, the default), so weights rank 0
# loaded BEFORE wrapping agree right after wrapping, but the optimizer state (here SGD
# with momentum 0.9) stays empty on rank 1; after the next step the replicas differ.
# Weights rank 0 loads AFTER wrapping are not broadcast at all. Loading on every rank
# (after wrapping, as the lesson's demo does) keeps the replicas identical.
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


def run(load_on_every_rank, after_wrap=False):
    torch.manual_seed(100 + rank)              # different fresh weights per rank
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    def load():
        if rank == 0 or load_on_every_rank:
            buf.seek(0)
            snap = torch.load(buf)
            model.load_state_dict(snap["model"])
            opt.load_state_dict(snap["optimizer"])

    if not after_wrap:
        load()
    ddp = DDP(model)                           # broadcasts rank 0's parameters, once
    if after_wrap:
        load()
    w0, w1 = gathered(model.weight.detach().clone())
    equal_now = torch.equal(w0, w1)
    torch.manual_seed(rank)
    opt.zero_grad()
    ddp(torch.randn(8, 4)).pow(2).mean().backward()   # gradients averaged: identical
    opt.step()
    w0, w1 = gathered(model.weight.detach().clone())
    return equal_now, torch.equal(w0, w1)


only0 = run(load_on_every_rank=False)
only0_after = run(load_on_every_rank=False, after_wrap=True)
every = run(load_on_every_rank=True, after_wrap=True)
if rank == 0:
    print("rank 0 only, before wrap: equal after load+wrap, after one step =", only0)
    print("rank 0 only, after wrap:  equal after load+wrap, after one step =", only0_after)
    print("every rank, after wrap:   equal after load+wrap, after one step =", every)
assert only0 == (True, False)
assert only0_after == (False, False)
assert every == (True, True)
if rank == 0:
    print("ok: loaded on rank 0 before wrapping, DDP's broadcast equalizes the weights but "
          "rank 1 has no momentum buffers, so the replicas differ after one step (SGD, "
          "momentum 0.9); loaded on rank 0 after wrapping, the weights differ at once; "
          "loading on every rank keeps them equal")
dist.destroy_process_group()

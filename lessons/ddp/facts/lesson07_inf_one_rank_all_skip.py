# ranks: 2
# An inf/NaN gradient on ONE rank reaches every rank through DDP's all-reduce,
# so every rank's GradScaler finds it: all ranks skip the step and back off
# the scale identically, without any extra communication by the scaler.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
ddp = DDP(nn.Linear(4, 1))
opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu")
x = torch.randn(8, 4)
if rank == 1:
    x[0, 0] = float("inf")                        # only rank 1 overflows
with torch.autocast("cpu", dtype=torch.bfloat16):
    loss = ddp(x).pow(2).mean()
scaler.scale(loss).backward()
assert not torch.isfinite(ddp.module.weight.grad).all()   # true on rank 0 as well
before = ddp.module.weight.detach().clone()
scaler.step(opt)
scaler.update()
skipped = torch.equal(before, ddp.module.weight)
flags = torch.tensor([float(skipped), scaler.get_scale()])
out = [torch.empty_like(flags) for _ in range(2)]
dist.all_gather(out, flags)
assert all(t[0] == 1.0 and t[1] == 32768.0 for t in out), out
if rank == 0:
    print("ok: inf on rank 1 only -> non-finite grads on every rank, every rank skips, scale 65536 -> 32768 on both")
dist.destroy_process_group()

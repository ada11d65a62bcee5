# ranks: 2
# With fp16_compress_hook, scaled gradients larger than 65504 (the hook casts
# to float16 BEFORE dividing by the world size) overflow to inf; GradScaler treats that as an
# ordinary overflow: the step is skipped on every rank and the scale halves.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import fp16_compress_hook
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
ref = DDP(nn.Linear(4, 1))                            # same weights, no hook
ddp = DDP(nn.Linear(4, 1)); ddp.module.load_state_dict(ref.module.state_dict())
ddp.register_comm_hook(None, fp16_compress_hook)
opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu")                 # scale 65536
x = torch.full((8, 4), 10.0)                          # true grads around 10..100
with torch.autocast("cpu", dtype=torch.bfloat16):
    loss = ddp(x).pow(2).mean()
scaler.scale(loss).backward()
with torch.autocast("cpu", dtype=torch.bfloat16):
    ref_loss = ref(x).pow(2).mean()
(ref_loss * 65536).backward()
assert torch.isfinite(ref.module.weight.grad).all()   # fine in float32
assert not torch.isfinite(ddp.module.weight.grad).all()
w0 = ddp.module.weight.detach().clone()
scaler.step(opt); scaler.update()
assert torch.equal(w0, ddp.module.weight) and scaler.get_scale() == 32768.0
if rank == 0:
    print("ok: scaled grads overflow float16 inside fp16_compress_hook -> inf -> step skipped, scale halved")
dist.destroy_process_group()

# ranks: 2
# fp16_compress_hook: DDP all-reduces the bucket as float16 (half the bytes)
# and copies the result back into the fp32 gradients.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import fp16_compress_hook
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
ref = DDP(nn.Linear(64, 1))
ddp = DDP(nn.Linear(64, 1)); ddp.module.load_state_dict(ref.module.state_dict())
ddp.register_comm_hook(state=None, hook=fp16_compress_hook)
torch.manual_seed(1 + rank)
x = torch.randn(32, 64)
ref(x).pow(2).mean().backward()
ddp(x).pow(2).mean().backward()
g, r = ddp.module.weight.grad, ref.module.weight.grad
assert g.dtype == torch.float32
assert torch.allclose(g, r, rtol=1e-2, atol=1e-3)
assert not torch.equal(g, r)          # rounded through float16
assert torch.equal(g, g.half().float())   # values are exactly fp16-representable
if rank == 0:
    print("ok: fp16_compress_hook keeps .grad float32 but its values went through float16 (close, not equal)")

# A registered hook cannot be replaced.
try:
    ddp.register_comm_hook(state=None, hook=fp16_compress_hook)
    raise AssertionError("no error")
except RuntimeError as e:
    if rank == 0:
        print("ok: registering a second comm hook raises RuntimeError:", str(e).splitlines()[0][:80])
dist.destroy_process_group()

# Fact: under torch.autocast the parameters, their gradients and Adam's state stay
# float32 (4 + 4 + 8 bytes/param) and the op outputs (activations) are bfloat16. The
# bfloat16 weight copies autocast adds on top are lesson10_autocast_weight_copy.py.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.Adam(m.parameters())
with torch.autocast("cpu", dtype=torch.bfloat16):
    h = m[0](torch.randn(8, 16))
    out = m[2](m[1](h))
assert h.dtype == torch.bfloat16 and out.dtype == torch.bfloat16
out.float().sum().backward()
opt.step()
assert all(p.dtype == torch.float32 and p.grad.dtype == torch.float32 for p in m.parameters())
assert all(st["exp_avg"].dtype == torch.float32 for st in opt.state.values())
print("ok: autocast keeps params, grads and Adam state in float32; activations are bfloat16")

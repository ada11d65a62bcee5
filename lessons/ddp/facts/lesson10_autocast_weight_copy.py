# Fact: autocast is not "still 16 bytes per parameter". The fp32 parameters, grads and
# Adam state stay (16 bytes/param), and on top a Linear's forward under autocast casts its
# fp32 weight to bfloat16 and saves that copy (2 bytes per parameter) for backward, to
# compute the gradient of its input (so every layer whose input requires grad, i.e. all
# but the first). The cast is cached for the autocast region (cache_enabled=True): a
# second use of the same weight saves the same copy.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 24))
w = model[2].weight
saved = []


def pack(t):
    saved.append((t.dtype, tuple(t.shape), t.untyped_storage().data_ptr()))
    return t


with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = model(torch.randn(8, 16)) + model(torch.randn(8, 16))
assert w.dtype == torch.float32 and out.dtype == torch.bfloat16
# addmm saves weight.t(), a transposed view (32 x 24) of the bfloat16 copy
copies = [s for s in saved if s[0] == torch.bfloat16 and s[1] == (32, 24)]
assert len(copies) == 2, saved                 # saved by each of the two forwards ...
assert copies[0][2] == copies[1][2], copies    # ... and it is one cached copy
assert copies[0][2] != w.untyped_storage().data_ptr()
out.float().sum().backward()
assert w.grad.dtype == torch.float32
print("ok: under autocast a Linear saves a bfloat16 copy of its fp32 weight for backward "
      "(2 more bytes/param), one cached copy per autocast region")

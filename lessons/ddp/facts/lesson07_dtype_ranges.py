# Why float16 needs a GradScaler and bfloat16 does not.
import torch

f16, bf16, f32 = torch.finfo(torch.float16), torch.finfo(torch.bfloat16), torch.finfo(torch.float32)
assert f16.max == 65504.0
assert bf16.max > 3e38 and abs(bf16.max - f32.max) / f32.max < 0.01
assert bf16.smallest_normal == f32.smallest_normal
g = torch.tensor(1e-8)
assert g.half().item() == 0.0                  # underflows in float16
assert g.bfloat16().item() != 0.0              # survives in bfloat16
assert (g * 65536).half().item() != 0.0        # survives after loss scaling by 2**16
print("ok: float16 max 65504; a 1e-8 gradient underflows to 0 in float16, not in bfloat16 or after scaling by 65536")
print("ok: bfloat16 has float32's exponent range; eps bf16 =", bf16.eps, "fp16 =", f16.eps)

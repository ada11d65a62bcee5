# GradScaler facts used in the lesson (torch 2.x, CPU only machine).
import warnings

import torch

# 1. GradScaler("cpu") is enabled and usable on CPU.
assert torch.amp.GradScaler("cpu").is_enabled()
print("ok: torch.amp.GradScaler('cpu') is enabled on a CPU-only machine")

# 2. The default device is "cuda"; without CUDA it warns and disables itself.
if not torch.cuda.is_available():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        s = torch.amp.GradScaler()
    assert not s.is_enabled()
    assert any("CUDA is not available" in str(x.message) for x in w)
    print("ok: torch.amp.GradScaler() without CUDA warns and disables itself")

# 3. unscale_ twice before step raises RuntimeError.
m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
s = torch.amp.GradScaler("cpu")
s.scale(m(torch.randn(3, 2)).sum()).backward()
s.unscale_(opt)
try:
    s.unscale_(opt)
    raise AssertionError("no error")
except RuntimeError as e:
    assert "unscale_() has already been called" in str(e)
print("ok: a second unscale_ before update raises RuntimeError")

# 4. Default init_scale is 2**16 and update() halves it after an inf step.
opt.zero_grad()
s = torch.amp.GradScaler("cpu")
(s.scale(m(torch.tensor([[float("inf"), 1.0]])).sum())).backward()
w0 = m.weight.detach().clone()
s.step(opt); s.update()
assert torch.equal(w0, m.weight) and s.get_scale() == 32768.0
print("ok: init scale 65536; an inf gradient skips optimizer.step() and halves the scale")

# 5. autocast on CPU: parameters stay fp32, matmul output bfloat16, grads fp32,
#    mse_loss autocasts to float32; default CPU autocast dtype is bfloat16.
m = torch.nn.Linear(4, 2)
with torch.autocast("cpu"):
    out = m(torch.randn(3, 4))
    loss = torch.nn.functional.mse_loss(out, torch.zeros_like(out))
assert out.dtype == torch.bfloat16 and loss.dtype == torch.float32
loss.backward()
assert m.weight.dtype == torch.float32 and m.weight.grad.dtype == torch.float32
print("ok: CPU autocast default bfloat16; Linear out bf16, mse_loss fp32, params and grads fp32")

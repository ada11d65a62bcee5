# Clipping BEFORE scaler.unscale_ measures the norm of the SCALED gradients
# (scale x true norm), so it clips to max_norm in scaled units: after
# unscaling, the true gradient norm is max_norm / scale.
import torch
import torch.nn as nn

torch.manual_seed(0)
x, y = torch.randn(16, 8), torch.randn(16, 1)


def run(clip_first):
    torch.manual_seed(1)
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")          # init_scale 65536
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    if clip_first:
        measured = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.unscale_(opt)
    else:
        scaler.unscale_(opt)
        measured = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    true_norm = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()]))
    return measured.item(), true_norm.item(), scaler.get_scale()


m_ok, n_ok, scale = run(clip_first=False)
m_bad, n_bad, _ = run(clip_first=True)
assert scale == 65536.0
assert abs(m_bad / m_ok - scale) / scale < 1e-3, (m_bad, m_ok)
assert abs(n_bad - 1.0 / scale) < 1e-9, n_bad
assert abs(n_ok - min(1.0, m_ok)) < 1e-5
print(f"ok: clip before unscale_ measured norm {m_bad:.0f} (= 65536 x {m_ok:.4f}); "
      f"true grad norm after clipping {n_bad:.3g} = 1/65536 instead of {n_ok:.4f}")

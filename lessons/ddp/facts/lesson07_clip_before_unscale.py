# Clipping BEFORE scaler.unscale_ measures the SCALED norm S*|g|. Whenever
# S*|g| > max_norm it clips to max_norm in scaled units, so after unscaling the
# gradient norm is max_norm / S instead of min(|g|, max_norm). Only when even
# S*|g| <= max_norm is nothing clipped, and then both orders agree.
import torch
import torch.nn as nn

torch.manual_seed(0)
x, y = torch.randn(16, 8), torch.randn(16, 1)


def grad_norm(model):
    return torch.norm(torch.stack([p.grad.norm() for p in model.parameters()])).item()


def run(clip_first, max_norm):
    torch.manual_seed(1)
    model = nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")          # init_scale 65536
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    if clip_first:
        measured = nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        scaler.unscale_(opt)
    else:
        scaler.unscale_(opt)
        measured = nn.utils.clip_grad_norm_(model.parameters(), max_norm)
    return measured.item(), grad_norm(model), scaler.get_scale(), model


_, g, S, _ = run(clip_first=False, max_norm=float("inf"))   # the true norm |g|
assert S == 65536.0 and g > 1.0, (S, g)


def close(a, b, rel=1e-3):
    return abs(a - b) <= rel * abs(b)


# (a) |g| > max_norm, and (b) |g| < max_norm < S*|g|: clip-first leaves max_norm / S.
for case, max_norm in (("a", 1.0), ("b", 2.0 * g)):
    m_bad, n_bad, _, _ = run(clip_first=True, max_norm=max_norm)
    m_ok, n_ok, _, _ = run(clip_first=False, max_norm=max_norm)
    assert close(m_bad, S * m_ok), (m_bad, m_ok)            # measured the scaled norm
    assert close(n_bad, max_norm / S), (n_bad, max_norm)
    assert close(n_ok, min(g, max_norm)), (n_ok, g, max_norm)
    print(f"ok: ({case}) |g| {g:.4f}, max_norm {max_norm:.4f}: clip before unscale_ measures "
          f"{m_bad:.0f} = 65536 x |g| and leaves norm {n_bad:.3g} = max_norm/65536; "
          f"unscale_ first leaves {n_ok:.4f} = min(|g|, max_norm)")

# (c) S*|g| <= max_norm: nothing is clipped in either order, identical gradients.
max_norm = 2.0 * S * g
_, n_bad, _, m1 = run(clip_first=True, max_norm=max_norm)
_, n_ok, _, m2 = run(clip_first=False, max_norm=max_norm)
assert close(n_bad, g) and close(n_ok, g)
assert all(torch.equal(p.grad, q.grad) for p, q in zip(m1.parameters(), m2.parameters()))
print(f"ok: (c) max_norm {max_norm:.0f} >= 65536 x |g|: no clipping in either order, same gradients (norm {n_bad:.4f})")

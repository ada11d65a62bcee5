# Fact: after one step on CPU, Adam keeps exp_avg and exp_avg_sq (each the size of the
# parameter) plus a 0-d float32 `step` tensor per parameter: 8 bytes/param for fp32
# (12 with amsgrad); SGD with momentum keeps one momentum_buffer (4 bytes/param);
# plain SGD keeps no tensors at all.
import torch
import torch.nn as nn


def state_bytes(opt):
    total, keys = 0, set()
    for st in opt.state.values():
        for k, v in st.items():
            keys.add(k)
            if torch.is_tensor(v) and k != "step":
                total += v.numel() * v.element_size()
    return total, keys


def run(make_opt):
    torch.manual_seed(0)
    m = nn.Linear(10, 7)
    opt = make_opt(m.parameters())
    m(torch.randn(3, 10)).sum().backward()
    opt.step()
    psi = sum(p.numel() for p in m.parameters())
    return psi, opt, *state_bytes(opt)


psi, opt, b, keys = run(lambda p: torch.optim.Adam(p, lr=1e-3))
assert keys == {"step", "exp_avg", "exp_avg_sq"}, keys
assert b == 8 * psi
for st in opt.state.values():
    assert st["step"].dim() == 0 and st["step"].dtype == torch.float32 and st["step"].device.type == "cpu"
print("ok: Adam state = exp_avg + exp_avg_sq = 8 bytes/param (fp32) + a 0-d float32 step tensor per parameter")

psi, opt, b, keys = run(lambda p: torch.optim.Adam(p, lr=1e-3, amsgrad=True))
assert keys == {"step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"} and b == 12 * psi
print("ok: Adam(amsgrad=True) keeps 12 bytes/param")

psi, opt, b, keys = run(lambda p: torch.optim.AdamW(p, lr=1e-3))
assert keys == {"step", "exp_avg", "exp_avg_sq"} and b == 8 * psi
print("ok: AdamW keeps the same 8 bytes/param")

psi, opt, b, keys = run(lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9))
assert keys == {"momentum_buffer"} and b == 4 * psi, (keys, b)
print("ok: SGD(momentum=0.9) keeps one momentum_buffer = 4 bytes/param")

psi, opt, b, keys = run(lambda p: torch.optim.SGD(p, lr=0.1))
assert b == 0, (keys, b)
print(f"ok: plain SGD keeps no state tensors (state keys: {sorted(keys)})")

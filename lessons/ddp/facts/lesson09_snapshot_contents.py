# Fact: everything a resume snapshot needs loads with torch.load's default
# (weights_only=True in PyTorch 2.6+): state_dicts of model, optimizer, StepLR and
# GradScaler, torch's RNG state (a CPU uint8 tensor) and Python's random.getstate().
# A disabled GradScaler's state_dict() is {}; a fresh one starts at scale 65536.
# torch.set_rng_state rejects a uint8 tensor that is not on the CPU (checked with a
# meta tensor: a CUDA one is refused the same way), hence the .cpu() after
# map_location moved it.
import inspect
import io
import random
import warnings

import torch
import torch.nn as nn

assert inspect.signature(torch.load).parameters["weights_only"].default is None  # None -> True
model = nn.Linear(4, 1)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
model(torch.randn(2, 4)).sum().backward()
opt.step()
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    scaler_off = torch.amp.GradScaler("cuda", enabled=False)
assert scaler_off.state_dict() == {}
scaler_cpu = torch.amp.GradScaler("cpu")
assert set(scaler_cpu.state_dict()) == {"scale", "growth_factor", "backoff_factor",
                                        "growth_interval", "_growth_tracker"}
assert scaler_cpu.state_dict()["scale"] == 65536.0         # a fresh scaler's initial scale

rng = torch.get_rng_state()
assert rng.dtype == torch.uint8 and rng.device.type == "cpu"
snap = {"model": model.state_dict(), "optimizer": opt.state_dict(),
        "scheduler": sched.state_dict(), "scaler": scaler_cpu.state_dict(),
        "rng": {"cpu": rng, "python": random.getstate()}, "epoch": 7, "step": 0}
buf = io.BytesIO()
torch.save(snap, buf)
buf.seek(0)
back = torch.load(buf)                     # default: weights_only=True
assert back["epoch"] == 7 and torch.equal(back["rng"]["cpu"], rng)
random.setstate(back["rng"]["python"])
assert random.getstate() == snap["rng"]["python"]

try:
    torch.set_rng_state(torch.empty_like(rng, device="meta"))
except TypeError as exc:
    assert "ByteTensor" in str(exc)
else:
    raise AssertionError("non-CPU RNG state should be rejected")
print("ok: model/optimizer/scheduler/GradScaler state, torch and Python RNG state all "
      "load with the default weights_only=True; disabled GradScaler -> {}, fresh one "
      "at scale 65536; "
      "set_rng_state needs a CPU ByteTensor")

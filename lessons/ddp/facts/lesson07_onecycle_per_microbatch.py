# OneCycleLR sized in optimizer steps but stepped once per MICRO-batch runs the
# whole schedule K times too fast and then raises ValueError.
import torch

K, OPT_STEPS = 4, 10
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=OPT_STEPS)
err = None
for micro in range(K * OPT_STEPS):
    opt.step()
    try:
        sched.step()                              # BUG: once per micro-batch
    except ValueError as e:
        err = (micro, str(e))
        break
assert err is not None and err[0] == OPT_STEPS, err
assert "Tried to step 11 times. The specified number of total steps is 10" in err[1], err
print(f"ok: OneCycleLR(total_steps=10) stepped per micro-batch raises ValueError at micro-batch {err[0] + 1}: {err[1]}")

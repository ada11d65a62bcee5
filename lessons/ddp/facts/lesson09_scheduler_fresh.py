# Fact: restoring the optimizer but building a *fresh* StepLR after a resume shifts
# the schedule. StepLR(step_size=10, gamma=0.1) from lr 0.1: an uninterrupted run
# uses 0.1 for epochs 0-9, 0.01 for 10-19, 0.001 for 20-29. Resumed at epoch 15 with
# the optimizer restored (lr 0.01) and a fresh scheduler, epoch 20 still uses 0.01:
# the fresh scheduler counts from 0 and decays only after 10 more epochs (epoch 25).
# Loading the scheduler's state_dict restores the right lr.
import torch
import torch.nn as nn


def lrs_by_epoch(opt, sched, start, stop):
    out = {}
    for epoch in range(start, stop):
        out[epoch] = opt.param_groups[0]["lr"]
        opt.step()
        sched.step()
    return out


model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.1)
full = lrs_by_epoch(opt, sched, 0, 15)
opt_state, sched_state = opt.state_dict(), sched.state_dict()   # snapshot after epoch 14
full.update(lrs_by_epoch(opt, sched, 15, 30))
assert abs(full[20] - 0.001) < 1e-12 and abs(full[15] - 0.01) < 1e-12

# resumed, fresh scheduler
model2 = nn.Linear(2, 1)
opt2 = torch.optim.SGD(model2.parameters(), lr=0.1)
opt2.load_state_dict(opt_state)
sched2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=10, gamma=0.1)
fresh = lrs_by_epoch(opt2, sched2, 15, 30)
assert abs(fresh[20] - 0.01) < 1e-12, fresh[20]
assert abs(fresh[24] - 0.01) < 1e-12 and abs(fresh[25] - 0.001) < 1e-12, (fresh[24], fresh[25])

# resumed, scheduler restored
model3 = nn.Linear(2, 1)
opt3 = torch.optim.SGD(model3.parameters(), lr=0.1)
opt3.load_state_dict(opt_state)
sched3 = torch.optim.lr_scheduler.StepLR(opt3, step_size=10, gamma=0.1)
sched3.load_state_dict(sched_state)
restored = lrs_by_epoch(opt3, sched3, 15, 30)
assert all(abs(restored[e] - full[e]) < 1e-12 for e in range(15, 30))
print("ok: a fresh StepLR after resuming at epoch 15 keeps lr 0.01 at epoch 20 and "
      "decays only at epoch 25; loading the scheduler state gives 0.001 at epoch 20")

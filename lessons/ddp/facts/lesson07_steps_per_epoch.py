# 50,000 samples, 8 ranks, micro-batch 32, 4 accumulation steps:
# 6,250 samples per rank -> 196 micro-batches -> 49 optimizer steps per epoch.
# With a partial last window (196 % 3 != 0): dropping it gives len(loader) // k
# optimizer steps per epoch, stepping on it too gives ceil(len(loader) / k), and
# OneCycleLR sized with the floor raises ValueError in the last epoch.
import math

import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

ds = TensorDataset(torch.zeros(50_000, 1))
sampler = DistributedSampler(ds, num_replicas=8, rank=0)
loader = DataLoader(ds, batch_size=32, sampler=sampler)
assert len(sampler) == 6250 and len(loader) == 196
K = 4
assert len(loader) // K == 49 and len(loader) % K == 0
assert 32 * K * 8 == 1024
print("ok: 50000 samples / 8 ranks / micro 32 -> 196 micro-batches, K=4 -> 49 optimizer steps, global batch 1024")


def optimizer_steps(n, k, step_on_partial):
    """Count the syncs of the lesson's loop over one epoch of n micro-batches."""
    steps = 0
    for i in range(n):
        sync = (i + 1) % k == 0 or (step_on_partial and i + 1 == n)
        steps += sync
    return steps


def run_onecycle(epochs, steps_per_epoch, total_steps):
    opt = torch.optim.SGD(torch.nn.Linear(1, 1).parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=total_steps)
    done = 0
    try:
        for _ in range(epochs):
            for _ in range(steps_per_epoch):
                opt.step()
                sched.step()
                done += 1
    except ValueError:
        return done + 1                      # the call that raised
    return None


K, EPOCHS, n = 3, 2, len(loader)            # 196 = 65 * 3 + 1: a partial window
drop = optimizer_steps(n, K, step_on_partial=False)
keep = optimizer_steps(n, K, step_on_partial=True)
assert drop == n // K == 65 and keep == math.ceil(n / K) == 66
assert run_onecycle(EPOCHS, drop, EPOCHS * (n // K)) is None
assert run_onecycle(EPOCHS, keep, EPOCHS * math.ceil(n / K)) is None
raised_at = run_onecycle(EPOCHS, keep, EPOCHS * (n // K))
assert raised_at == EPOCHS * (n // K) + 1 and raised_at > (EPOCHS - 1) * keep
print(f"ok: 196 micro-batches, k=3: dropping the partial window -> {drop} = 196 // 3 steps per epoch, "
      f"stepping on it -> {keep} = ceil(196 / 3)")
print(f"ok: OneCycleLR sized epochs * (len(loader) // k) but stepped {keep} times per epoch "
      f"raises ValueError at step {raised_at}, in the last of {EPOCHS} epochs; math.ceil fits exactly")

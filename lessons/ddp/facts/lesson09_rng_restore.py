# Fact: to resume bit-for-bit you must restore the RNG state too. Even with
# num_workers=0, every `for batch in loader` draws one number from the global CPU
# generator (the loader's base seed), and dropout draws from it on every forward.
# A resume that restores model, optimizer and scheduler but not the RNG state ends
# with different parameters than an uninterrupted run; restoring it gives equal bits.
import io

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

# 1. iterating a DataLoader advances the global generator, even with num_workers=0
torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.arange(8.0)), batch_size=4, shuffle=False)
before = torch.get_rng_state()
for _ in loader:
    pass
assert not torch.equal(before, torch.get_rng_state())


def build():
    torch.manual_seed(0)
    x = torch.randn(128, 8)
    y = x.sum(dim=1, keepdim=True)
    loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=False)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return loader, model, opt, sched


def train(loader, model, opt, sched, epochs):
    for _ in epochs:
        for xb, yb in loader:
            opt.zero_grad()
            nn.functional.mse_loss(model(xb), yb).backward()
            opt.step()
        sched.step()


def params(model):
    return torch.cat([p.detach().flatten() for p in model.parameters()])


loader, model, opt, sched = build()
train(loader, model, opt, sched, range(4))
uninterrupted = params(model)

loader, model, opt, sched = build()
train(loader, model, opt, sched, range(2))
buf = io.BytesIO()
torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(),
            "scheduler": sched.state_dict(), "rng": torch.get_rng_state()}, buf)


def resume(restore_rng):
    buf.seek(0)
    snap = torch.load(buf)                   # default weights_only=True is enough
    loader, model, opt, sched = build()      # the restarted process starts over
    model.load_state_dict(snap["model"])
    opt.load_state_dict(snap["optimizer"])
    sched.load_state_dict(snap["scheduler"])
    if restore_rng:
        torch.set_rng_state(snap["rng"])
    train(loader, model, opt, sched, range(2, 4))
    return params(model)


assert torch.equal(resume(restore_rng=True), uninterrupted)
assert not torch.equal(resume(restore_rng=False), uninterrupted)
print("ok: iterating a DataLoader (num_workers=0) advances the global RNG; resume "
      "is bitwise identical only when the RNG state is restored as well")

# ranks: 2
# Facts: (a) find_unused_parameters=True and static_graph=True both let a model with a
# never-used head train, with replicas identical; (b) static_graph=True fails when the
# set of used parameters changes between iterations, while find_unused_parameters=True
# handles it; (c) find_unused_parameters=True on a model that used every parameter
# warns that it costs an extra autograd-graph traversal every iteration.
import os
import tempfile

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 1)
        self.aux = nn.Linear(8, 1)

    def forward(self, x, use_aux):
        h = torch.relu(self.body(x))
        return self.head(h) + self.aux(h) if use_aux else self.head(h)


def train(use_aux_fn, **ddp_kwargs):
    model = DDP(Model(), **ddp_kwargs)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(4):
        opt.zero_grad()
        model(torch.randn(8, 4), use_aux_fn(step)).sum().backward()
        opt.step()
    w = torch.cat([p.detach().flatten() for p in model.module.parameters()])
    gathered = [torch.empty_like(w) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, w)
    return all(torch.equal(gathered[0], g) for g in gathered)


dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(rank)

# The warning comes from C++ (reducer.cpp) on stderr, not through Python's warnings
# module, so capture file descriptor 2 while the all-parameters-used model trains.
with tempfile.TemporaryFile(mode="w+") as tmp:
    saved = os.dup(2)
    os.dup2(tmp.fileno(), 2)
    try:
        train(lambda step: True, find_unused_parameters=True)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    tmp.seek(0)
    stderr_text = tmp.read()
assert "extra traversal of the autograd graph every iteration" in stderr_text, stderr_text

never = lambda step: False          # aux never used
alternating = lambda step: step % 2 == 0

assert train(never, find_unused_parameters=True)
assert train(never, static_graph=True)
assert train(alternating, find_unused_parameters=True)

try:
    train(alternating, static_graph=True)
    raise AssertionError("static_graph with a changing graph should fail")
except RuntimeError as exc:
    assert "not compatible with static_graph set to True" in str(exc), str(exc)

if rank == 0:
    print("ok: find_unused_parameters=True and static_graph=True both fix a never-used head; "
          "only find_unused_parameters handles a head used every other step; "
          "find_unused_parameters with no unused params warns about an extra graph traversal")
dist.destroy_process_group()

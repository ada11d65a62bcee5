# ranks: 2
"""Fact: with gradient accumulation over 4 micro-batches, the first 3 backward passes inside
`ddp_model.no_sync()`, DDP communicates gradients only during the 4th backward; the .grad it leaves
is the cross-rank average of each rank's gradients accumulated over all 4 micro-batches."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()

lin = nn.Linear(8, 1)
model = DDP(lin)
reference = nn.Linear(8, 1)
reference.load_state_dict(lin.state_dict())

calls = []
def counting_hook(state, bucket):
    calls.append(current_micro_batch)
    return allreduce_hook(state, bucket)
model.register_comm_hook(dist.group.WORLD, counting_hook)

torch.manual_seed(rank)
batches = [torch.randn(4, 8) for _ in range(4)]
for i, x in enumerate(batches):
    current_micro_batch = i
    reference(x).pow(2).mean().backward()          # purely local, accumulates
    if i < 3:
        with model.no_sync():
            model(x).pow(2).mean().backward()
    else:
        model(x).pow(2).mean().backward()

assert calls and set(calls) == {3}, calls            # communication only in the 4th backward
expected = reference.weight.grad.clone()
dist.all_reduce(expected)
expected /= world
assert torch.allclose(lin.weight.grad, expected, atol=1e-6)

if rank == 0:
    print("ok: with the first 3 of 4 micro-batches under no_sync, DDP all-reduces only in the 4th backward; grad = mean over ranks of accumulated local grads")
dist.destroy_process_group()

# ranks: 2
# Fact: training steps that call ddp_model.module(x) raise no error and no warning, but
# the gradients are not averaged, so the replicas' parameters differ after one step.
# The same steps through ddp_model(x) leave both ranks with identical parameters.
import warnings

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

warnings.simplefilter("error")      # any warning would become an exception
dist.init_process_group("gloo")
rank = dist.get_rank()


def max_gap_across_ranks(model):
    flat = torch.cat([p.detach().flatten() for p in model.parameters()])
    others = [torch.empty_like(flat) for _ in range(dist.get_world_size())]
    dist.all_gather(others, flat)
    return (others[0] - others[1]).abs().max().item()


def train(call_module):
    torch.manual_seed(rank)                        # different init: DDP broadcasts rank 0's
    model = DDP(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    assert max_gap_across_ranks(model) == 0.0      # identical after wrapping
    torch.manual_seed(100 + rank)                  # each rank its own data, as with a sampler
    for _ in range(5):
        x, y = torch.randn(32, 20), torch.randint(0, 3, (32,))
        opt.zero_grad()
        net = model.module if call_module else model
        nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
    return max_gap_across_ranks(model)


gap_wrapper = train(call_module=False)
gap_module = train(call_module=True)
assert gap_wrapper == 0.0, gap_wrapper
assert gap_module > 1e-3, gap_module
dist.barrier()
dist.destroy_process_group()
if rank == 0:
    print(f"max parameter gap between ranks: through the wrapper {gap_wrapper}, "
          f"through .module {gap_module:.4f}")
    print("ok: calling model.module(x) in training raises nothing but lets the replicas drift apart")

# ranks: 2
# Fact: by default (gradient_as_bucket_view=False) DDP's all-reduce buckets are separate
# tensors, so each .grad has its own storage and the buckets are an extra copy of the
# gradients' size; with gradient_as_bucket_view=True, after the first iteration every
# .grad is a view into a bucket (several grads share one storage), saving that copy.
import inspect

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

assert inspect.signature(DDP).parameters["gradient_as_bucket_view"].default is False
dist.init_process_group("gloo")
rank = dist.get_rank()


def grad_storages(as_view):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 8)),
                gradient_as_bucket_view=as_view)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(2):
        opt.zero_grad()
        model(torch.randn(4, 64)).sum().backward()
        opt.step()
    params = list(model.parameters())
    ptrs = {p.grad.untyped_storage().data_ptr() for p in params}
    return len(params), len(ptrs)


n, n_storages = grad_storages(False)
assert n == 4 and n_storages == 4, (n, n_storages)
n, n_storages = grad_storages(True)
assert n == 4 and n_storages == 1, (n, n_storages)     # all in one (small) bucket
if rank == 0:
    print("ok: gradient_as_bucket_view=False -> 4 grads in 4 storages; True -> 4 grads share 1 bucket storage")
dist.destroy_process_group()

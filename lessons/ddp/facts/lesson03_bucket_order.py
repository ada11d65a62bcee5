# ranks: 2
"""Fact: in steady state (from the second iteration on), the first bucket DDP all-reduces during backward
holds the parameters of the LAST layer (the output layer), because backward produces its gradients first;
the first layer's bucket is all-reduced last. In the very first iteration (PyTorch 2.x defaults) all
parameters sit in a single bucket, and DDP rebuilds the buckets from the observed gradient order."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()

# 4 layers of 512x512 fp32 = 1 MiB of weights each; with bucket_cap_mb=1 they land in separate buckets
layers = [nn.Linear(512, 512) for _ in range(4)]
model = DDP(nn.Sequential(*layers), bucket_cap_mb=1)

order = []
def recording_hook(state, bucket):
    order.append((bucket.index(), [id(p) for p in bucket.parameters()]))
    return allreduce_hook(state, bucket)
model.register_comm_hook(dist.group.WORLD, recording_hook)

model(torch.randn(2, 512)).sum().backward()
# PyTorch 2.x, default find_unused_parameters=False: the first iteration uses ONE bucket holding every
# parameter (all-reduced once backward is done); after it DDP rebuilds buckets in the order the
# gradients actually became ready.
assert len(order) == 1, len(order)
order.clear()
model(torch.randn(2, 512)).sum().backward()

assert len(order) >= 3, len(order)
first_ids, last_ids = order[0][1], order[-1][1]
assert id(layers[-1].weight) in first_ids          # output layer's gradient is synced first
assert id(layers[0].weight) not in first_ids
assert id(layers[0].weight) in last_ids            # input layer's gradient is synced last
assert order[0][0] == 0                            # bucket 0 holds the last layers

if rank == 0:
    print(f"ok: iteration 1 uses one bucket; from iteration 2, {len(order)} buckets and the first all-reduced (index 0) holds the last layer, the last one the first layer")
dist.destroy_process_group()

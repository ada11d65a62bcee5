# ranks: 2
# With B buckets and K accumulation steps: K*B bucket all-reduces per optimizer
# step without no_sync, B with it. Checked over 2 optimizer steps (buckets are
# rebuilt after the first iteration, which uses a single bucket).
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.algorithms.ddp_comm_hooks.default_hooks import allreduce_hook
from torch.nn.parallel import DistributedDataParallel as DDP

K = 4


def hook(state, bucket):
    state["calls"] += 1
    return allreduce_hook(None, bucket)


dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
# three 512x512 layers: each weight is exactly 1 MiB of fp32
model = nn.Sequential(nn.Linear(512, 512), nn.Linear(512, 512), nn.Linear(512, 512))

results = {}
for use_no_sync in (True, False):
    ddp = DDP(nn.Sequential(*[nn.Linear(512, 512) for _ in range(3)]), bucket_cap_mb=1)
    ddp.module.load_state_dict(model.state_dict())
    c = {"calls": 0}
    ddp.register_comm_hook(c, hook)
    # iteration 1 uses ONE bucket for everything; buckets are rebuilt after it
    ddp(torch.randn(2, 512)).sum().backward()
    assert c["calls"] == 1, c
    c["calls"] = 0
    ddp(torch.randn(2, 512)).sum().backward()   # iteration 2: rebuilt buckets
    buckets = c["calls"]
    per_step = []
    for step in range(2):
        c["calls"] = 0
        for i in range(K):
            x = torch.randn(2, 512)
            if use_no_sync and i < K - 1:
                with ddp.no_sync():
                    (ddp(x).sum() / K).backward()
            else:
                (ddp(x).sum() / K).backward()
        per_step.append(c["calls"])
    results[use_no_sync] = (buckets, per_step)

b, with_ns = results[True]
b2, without = results[False]
assert b == b2 == 3, (b, b2)
assert with_ns == [3, 3], with_ns
assert without == [12, 12], without
if rank == 0:
    print("ok: first iteration all-reduces all gradients as a single bucket")
    print(f"ok: 3 buckets (bucket_cap_mb=1), K=4 -> {with_ns[0]} all-reduces per optimizer step with no_sync, {without[0]} without")
dist.destroy_process_group()

# ranks: 2
# Fact: ZeroRedundancyOptimizer (PyTorch's ZeRO-1) adds communication on top of DDP's
# all-reduce: after the local step, step() broadcasts every parameter from the rank that
# owns it (one dist.broadcast per parameter, or one per rank's bucket with
# parameters_as_bucket_view=True). Every rank takes part in broadcasts totalling the full
# parameter bytes (4*psi in fp32), and the ranks' own shards add up to exactly that:
# about psi elements on top of DDP's 2*psi, 1.5x DDP.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
calls = []
real_broadcast = dist.broadcast


def counting_broadcast(tensor, src=None, *args, **kwargs):
    calls.append((tensor.numel() * tensor.element_size(), kwargs.get("src", src)))
    return real_broadcast(tensor, src, *args, **kwargs)


def step_broadcasts(as_bucket_view):
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256)))
    psi = sum(p.numel() for p in model.parameters())
    opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.Adam,
                                  lr=1e-3, parameters_as_bucket_view=as_bucket_view)
    torch.manual_seed(100 + rank)
    model(torch.randn(32, 256)).pow(2).mean().backward()
    calls.clear()
    dist.broadcast = counting_broadcast
    try:
        opt.step()
    finally:
        dist.broadcast = real_broadcast
    total = sum(b for b, _ in calls)
    mine = sum(b for b, src in calls if src == rank)
    return psi, len(calls), total, mine


psi, n, total, mine = step_broadcasts(False)
assert n == 4, n                               # one broadcast per parameter tensor
assert total == 4 * psi, (total, psi)          # all the parameters' bytes
shares = [torch.zeros(1, dtype=torch.int64) for _ in range(world)]
dist.all_gather(shares, torch.tensor([mine]))
assert sum(int(s) for s in shares) == 4 * psi and all(int(s) > 0 for s in shares), shares
psi_b, n_b, total_b, _ = step_broadcasts(True)
assert n_b == world and total_b == 4 * psi_b, (n_b, total_b)   # one bucket per rank
dist.barrier()
if rank == 0:
    sent = ", ".join(f"{int(s):,}" for s in shares)
    print(f"ok: ZeroRedundancyOptimizer.step() broadcasts {n} tensors = {total:,} bytes = all "
          f"parameters (4*psi), {world} buckets with parameters_as_bucket_view=True; "
          f"bytes each rank sends from its shard: {sent}", flush=True)
dist.destroy_process_group()

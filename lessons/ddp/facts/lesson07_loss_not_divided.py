# ranks: 2
# Accumulating K micro-batches WITHOUT dividing each loss by K gives K times
# the gradient of the same samples processed as one batch (mean-reduced loss).
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

K = 4
dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = nn.Linear(8, 1)
torch.manual_seed(10 + rank)
x, y = torch.randn(K * 8, 8), torch.randn(K * 8, 1)
loss_fn = nn.MSELoss()

big = DDP(nn.Linear(8, 1)); big.module.load_state_dict(model.state_dict())
loss_fn(big(x), y).backward()

for divide in (True, False):
    acc = DDP(nn.Linear(8, 1)); acc.module.load_state_dict(model.state_dict())
    for i, (xb, yb) in enumerate(zip(x.chunk(K), y.chunk(K))):
        if i < K - 1:
            with acc.no_sync():
                loss = loss_fn(acc(xb), yb)
                (loss / K if divide else loss).backward()
        else:
            loss = loss_fn(acc(xb), yb)
            (loss / K if divide else loss).backward()
    factor = 1 if divide else K
    assert torch.allclose(acc.module.weight.grad, factor * big.module.weight.grad, atol=1e-5)
if rank == 0:
    print("ok: loss/K -> same grad as the big batch; without /K -> K times the big-batch grad")
dist.destroy_process_group()

# ranks: 2
# Fact: torch.distributed.optim.ZeroRedundancyOptimizer (ZeRO-1) works with gloo on CPU;
# each rank keeps Adam state only for its own partition of the parameters (about half of
# the 8*psi bytes: it assigns whole parameter tensors to ranks), while parameters and gradients stay whole on every rank and
# the updated parameters end up identical on all ranks.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256)))
psi = sum(p.numel() for p in model.parameters())
opt = ZeroRedundancyOptimizer(model.parameters(), optimizer_class=torch.optim.Adam, lr=1e-3)
torch.manual_seed(100 + rank)
model(torch.randn(32, 256)).pow(2).mean().backward()
opt.step()
state = sum(v.numel() * v.element_size() for st in opt.optim.state.values()
            for k, v in st.items() if k != "step")
sizes = [torch.zeros(1, dtype=torch.int64) for _ in range(2)]
dist.all_gather(sizes, torch.tensor([state]))
assert sum(int(s) for s in sizes) == 8 * psi, sizes
assert all(int(s) < 8 * psi for s in sizes)
grad_bytes = sum(p.grad.numel() * 4 for p in model.parameters())
assert grad_bytes == 4 * psi                  # gradients are not sharded by ZeRO-1
w = [torch.empty_like(model.module[0].weight) for _ in range(2)]
dist.all_gather(w, model.module[0].weight.detach())
assert torch.equal(w[0], w[1])
print(f"ok: rank {rank} ZeroRedundancyOptimizer Adam state {state:,} bytes "
      f"(unsharded Adam: {8 * psi:,}); grads still {grad_bytes:,} = 4*psi")
dist.destroy_process_group()

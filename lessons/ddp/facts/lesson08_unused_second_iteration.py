# ranks: 2
# Facts: with a parameter that gets no gradient and find_unused_parameters=False,
# (a) the first iteration raises nothing, (b) its gradients are NOT averaged (all
# parameters start in one bucket, which never becomes ready), (c) the error comes from
# the SECOND forward, and (d) with debug level INFO it names the parameters.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head_a = nn.Linear(8, 1)
        self.head_b = nn.Linear(8, 1)

    def forward(self, x):
        return self.head_a(torch.relu(self.body(x)))


dist.init_process_group("gloo")
dist.set_debug_level(dist.DebugLevel.INFO)      # same effect as TORCH_DISTRIBUTED_DEBUG=INFO
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
model = DDP(TwoHeads())
reference = TwoHeads()
reference.load_state_dict(model.module.state_dict())

torch.manual_seed(100 + rank)                   # different data per rank
x = torch.randn(8, 4)
model(x).pow(2).mean().backward()               # iteration 1: no error
reference(x).pow(2).mean().backward()
local = reference.body.weight.grad.clone()
mean = local.clone()
dist.all_reduce(mean)
mean /= world
assert torch.allclose(model.module.body.weight.grad, local), "iteration-1 grad should be local"
assert not torch.allclose(model.module.body.weight.grad, mean), "iteration-1 grad should not be averaged"

try:
    model(torch.randn(8, 4))                    # iteration 2: the forward raises
    raise AssertionError("expected a RuntimeError in the second forward")
except RuntimeError as exc:
    msg = str(exc)
assert "Expected to have finished reduction in the prior iteration" in msg, msg
assert f"Parameters which did not receive grad for rank {rank}: head_b.bias, head_b.weight" in msg, msg
assert f"Parameter indices which did not receive grad for rank {rank}: 4 5" in msg, msg
if rank == 0:
    print("ok: unused head -> iteration 1 passes with un-averaged grads; iteration 2's forward "
          "raises 'Expected to have finished reduction...'; INFO names head_b.bias, head_b.weight")
dist.destroy_process_group()

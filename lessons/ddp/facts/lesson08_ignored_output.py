# ranks: 2
# Facts: forward returns (out_a, out_b) and the loss uses only out_a. Without a flag the
# second forward raises "Expected to have finished reduction..."; find_unused_parameters=True
# trains (DDP marks parameters behind ignored outputs ready); static_graph=True does NOT
# rescue this case in PyTorch 2.13: the third forward raises the static-graph variant.
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP


class TwoOutputs(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 1)
        self.b = nn.Linear(4, 1)

    def forward(self, x):
        return self.a(x), self.b(x)


def failing_step(**kwargs):
    model = DDP(TwoOutputs(), **kwargs)
    for step in range(4):
        try:
            out_a, _out_b = model(torch.randn(8, 4))
        except RuntimeError as exc:
            return step, str(exc)
        out_a.sum().backward()
    return None, ""


dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(rank)

step, msg = failing_step()
assert step == 1 and "Expected to have finished reduction in the prior iteration" in msg, (step, msg)
step, msg = failing_step(find_unused_parameters=True)
assert step is None, (step, msg)
step, msg = failing_step(static_graph=True)
assert step == 2 and "not compatible with static_graph set to True" in msg, (step, msg)
if rank == 0:
    print("ok: an output ignored by the loss breaks DDP at the 2nd forward; "
          "find_unused_parameters=True fixes it; static_graph=True fails at the 3rd forward")
dist.destroy_process_group()

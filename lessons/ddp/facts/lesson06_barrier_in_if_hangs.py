# ranks: 2
# Fact: a dist.barrier() inside `if rank == 0:` does not raise at that line; rank 0
# blocks until the process group's timeout (shortened to 5 s here) while rank 1 has
# gone on to the next training step's collectives. Also checks the default timeouts.
import datetime
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed import constants
from torch.nn.parallel import DistributedDataParallel as DDP

assert constants.default_pg_timeout == datetime.timedelta(minutes=30)
assert constants.default_pg_nccl_timeout == datetime.timedelta(minutes=10)

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=5))
rank = dist.get_rank()
torch.manual_seed(0)
model = DDP(nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)

start = time.monotonic()
outcome = "completed"
try:
    for step in range(3):
        opt.zero_grad()
        model(torch.randn(8, 4)).sum().backward()
        opt.step()
        if rank == 0:
            torch.save(model.module.state_dict(), "/tmp/quizfacts_hang.pt")
            dist.barrier()          # BUG: only rank 0 calls it
except Exception as exc:            # the timeout surfaces as an exception
    outcome = f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"
elapsed = time.monotonic() - start
print(f"rank {rank}: {outcome} after {elapsed:.1f}s", flush=True)
assert outcome != "completed", "expected a stall ending in a timeout error"
assert elapsed >= 4.5, "the error should only come at the timeout"
if rank == 0:
    print("ok: barrier inside `if rank == 0` stalls the job until the timeout "
          "(defaults 30 min gloo / 10 min nccl)")

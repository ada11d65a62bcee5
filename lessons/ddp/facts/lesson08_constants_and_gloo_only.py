# Facts: default process-group timeouts are 30 min (gloo and other non-NCCL backends)
# and 10 min (NCCL); monitored_barrier refuses any backend but gloo; with the gloo
# backend, TORCH_DISTRIBUTED_DEBUG=DETAIL wraps the process group (_ProcessGroupWrapper).
import datetime
import inspect
import os
import subprocess
import sys

import torch.distributed as dist
from torch.distributed import constants

assert constants.default_pg_timeout == datetime.timedelta(minutes=30)
assert constants.default_pg_nccl_timeout == datetime.timedelta(minutes=10)
src = inspect.getsource(dist.monitored_barrier)
assert "monitored_barrier is only implemented for GLOO backend." in src
assert "get_backend(group) != Backend.GLOO" in src

child = r'''
import torch, torch.distributed as dist
dist.init_process_group("gloo", rank=0, world_size=1, init_method="tcp://127.0.0.1:29656")
print(type(dist.group.WORLD._get_backend(torch.device("cpu"))).__name__)
dist.destroy_process_group()
'''
for level, expected in (("OFF", "ProcessGroupGloo"), ("DETAIL", "_ProcessGroupWrapper")):
    env = dict(os.environ, TORCH_DISTRIBUTED_DEBUG=level)
    out = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == expected, (level, out.stdout, out.stderr)
print("ok: defaults 30 min (gloo) / 10 min (nccl); monitored_barrier is gloo-only; "
      "DETAIL wraps the gloo process group in _ProcessGroupWrapper")

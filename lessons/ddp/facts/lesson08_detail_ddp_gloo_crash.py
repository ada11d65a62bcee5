# Fact (PyTorch 2.13, CPU): with the gloo backend and TORCH_DISTRIBUTED_DEBUG=DETAIL,
# constructing DDP kills the process with SIGSEGV (return code -11), while INFO works.
# (The DDP logger casts the gloo backend to ProcessGroupGloo to read its thread count,
# but under DETAIL the backend is the _ProcessGroupWrapper.)
import os
import subprocess
import sys

child = r'''
import torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group("gloo", rank=0, world_size=1, init_method="tcp://127.0.0.1:29657")
DDP(nn.Linear(2, 2))
print("constructed")
dist.destroy_process_group()
'''
results = {}
for level in ("INFO", "DETAIL"):
    env = dict(os.environ, TORCH_DISTRIBUTED_DEBUG=level)
    out = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True,
                         text=True, timeout=120)
    results[level] = (out.returncode, "constructed" in out.stdout)
assert results["INFO"] == (0, True), results
assert results["DETAIL"] == (-11, False), results
print("ok: DDP on gloo constructs under TORCH_DISTRIBUTED_DEBUG=INFO but segfaults (-11) "
      "under DETAIL in this PyTorch build")

"""Lesson 5, Q6: init_process_group("gloo") with no init_method uses env://; started with plain
python (no torchrun), it raises ValueError because RANK is not set. Under torchrun-like env it works."""
import os
import socket

import torch.distributed as dist

for k in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
    os.environ.pop(k, None)
try:
    dist.init_process_group("gloo")
except ValueError as e:
    msg = str(e)
    assert "env://" in msg and "RANK" in msg and "not set" in msg, msg
else:
    raise AssertionError("init_process_group did not fail")
assert not dist.is_initialized()

# the same call succeeds once the variables torchrun would set are present
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
os.environ.update(RANK="0", WORLD_SIZE="1", MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
dist.init_process_group("gloo")
assert dist.get_rank() == 0 and dist.get_world_size() == 1
dist.destroy_process_group()
print(f"ok: plain python + init_process_group('gloo') -> ValueError: {msg}")

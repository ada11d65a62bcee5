# Fact: ddp_model.state_dict() keys carry "module."; loading them into a plain model
# raises RuntimeError listing missing keys (0.weight ...) and unexpected keys
# (module.0.weight ...); ddp_model.module.state_dict() loads cleanly, and
# consume_prefix_in_state_dict_if_present repairs an old file.
import os
import tempfile

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present
from torch.nn.parallel import DistributedDataParallel as DDP

os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29533")
dist.init_process_group("gloo", rank=0, world_size=1)


def make():
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))


ddp_model = DDP(make())
path = os.path.join(tempfile.mkdtemp(), "wrapped.pt")
torch.save(ddp_model.state_dict(), path)
sd = torch.load(path)
assert list(sd) == ["module.0.weight", "module.0.bias", "module.2.weight", "module.2.bias"], list(sd)

plain = make()
try:
    plain.load_state_dict(sd)
    raise AssertionError("load_state_dict should have failed")
except RuntimeError as exc:
    msg = str(exc)
    assert 'Missing key(s) in state_dict: "0.weight"' in msg, msg
    assert 'Unexpected key(s) in state_dict: "module.0.weight"' in msg, msg
    print("error starts:", msg.splitlines()[0])
    print("             ", msg.splitlines()[1][:100])

assert list(ddp_model.module.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]
plain.load_state_dict(ddp_model.module.state_dict())
consume_prefix_in_state_dict_if_present(sd, "module.")
plain.load_state_dict(sd)
dist.destroy_process_group()
print("ok: ddp_model.state_dict() has module.-prefixed keys; a plain model's load_state_dict "
      "raises RuntimeError with missing 0.weight and unexpected module.0.weight")

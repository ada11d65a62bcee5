# Fact: with "torch.save to a temp file, then os.replace", a writer killed mid-save
# leaves the previous snapshot intact and loadable; writing the final path directly
# leaves a truncated file that torch.load refuses. os.replace overwrites an existing
# destination.
import os
import tempfile

import torch

d = tempfile.mkdtemp(prefix="lesson09_atomic_")
path = os.path.join(d, "snapshot.pt")


def save_atomic(obj, path):
    tmp = path + ".tmp"
    torch.save(obj, tmp)
    os.replace(tmp, path)


save_atomic({"epoch": 3, "w": torch.ones(1000)}, path)
save_atomic({"epoch": 4, "w": torch.ones(1000)}, path)      # replaces the old one
assert torch.load(path)["epoch"] == 4

# simulate a crash while writing epoch 5: the temp file is half written, never renamed
full = os.path.join(d, "full.pt")
torch.save({"epoch": 5, "w": torch.ones(1000)}, full)
data = open(full, "rb").read()
with open(path + ".tmp", "wb") as f:
    f.write(data[: len(data) // 2])
assert torch.load(path)["epoch"] == 4                          # old snapshot survives

# the same crash when writing the final path directly
with open(path, "wb") as f:
    f.write(data[: len(data) // 2])
try:
    torch.load(path)
except Exception as exc:
    print("direct write, truncated file:", type(exc).__name__, str(exc).splitlines()[0][:80])
else:
    raise AssertionError("a truncated snapshot should not load")
print("ok: temp file + os.replace leaves the last complete snapshot after a crash "
      "mid-write; a truncated snapshot written in place fails to load")

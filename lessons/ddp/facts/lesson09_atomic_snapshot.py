# Fact: with the lesson's save_atomic (torch.save to an open temp file, flush, fsync,
# os.replace, fsync of the folder), a writer killed mid-save leaves the previous
# snapshot intact and loadable; writing the final path directly leaves a truncated file
# that torch.load refuses ("PytorchStreamReader failed reading zip archive").
# os.replace overwrites an existing destination. save_atomic fsyncs the file before the
# rename and the folder after it (checked by recording os.fsync's calls).
import os
import stat
import tempfile

import torch


def save_atomic(obj, path):
    tmp = path + ".tmp"                 # same directory, so the same file system
    with open(tmp, "wb") as f:
        torch.save(obj, f)
        f.flush()
        os.fsync(f.fileno())            # the new file's bytes are on disk
    os.replace(tmp, path)               # atomic: the old snapshot or the new one, never half
    fd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
    os.fsync(fd)                        # the rename is on disk too
    os.close(fd)


d = tempfile.mkdtemp(prefix="lesson09_atomic_")
path = os.path.join(d, "snapshot.pt")

# record what os.fsync is called on, and when (relative to the rename)
events = []
real_fsync, real_replace = os.fsync, os.replace


def fsync(fd):
    mode = os.fstat(fd).st_mode
    events.append("fsync dir" if stat.S_ISDIR(mode) else "fsync file")
    real_fsync(fd)


def replace(src, dst):
    events.append("replace")
    real_replace(src, dst)


os.fsync, os.replace = fsync, replace
save_atomic({"epoch": 3, "w": torch.ones(1000)}, path)
os.fsync, os.replace = real_fsync, real_replace
assert events == ["fsync file", "replace", "fsync dir"], events
assert not os.path.exists(path + ".tmp")

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
    assert "PytorchStreamReader failed reading zip archive" in str(exc), exc
else:
    raise AssertionError("a truncated snapshot should not load")
print("ok: save_atomic fsyncs the file, os.replaces it, then fsyncs the folder; it leaves "
      "the last complete snapshot after a crash mid-write, while a truncated snapshot "
      "written in place fails to load")

import os, sys
import glob
# The host's home (apart from the read-only Python installation), other jobs and the
# platform's database live outside the sandbox; the test leaves a secret in the host's /tmp.
probes = ["/root/.bashrc", "/root/.cargo", "/home", "/etc/shadow", "/work", "/var/lib/postgresql"]
probes += glob.glob("/tmp/lockstep-secret-*") or ["/tmp/lockstep-secret-*"]
for path in probes:
    try:
        if os.path.isdir(path):
            print(f"VISIBLE {path}: {sorted(os.listdir(path))[:5]}")
        else:
            print(f"VISIBLE {path}: {open(path).read(20)!r}")
    except OSError as e:
        print(f"hidden {path}: {type(e).__name__}")
for path in ["/usr/lib/lockstep-test", "/etc/lockstep-test"]:
    try:
        open(path, "w").write("x")
        print(f"WROTE {path}")
    except OSError as e:
        print(f"read-only {path}: {type(e).__name__}")
open("/job/ok.txt", "w").write("fine")
print("job dir writable")

"""Runs plain-Python scripts as `python run_and_exit.py SCRIPT` would, each in a child forked
from this process once it has imported torch.

Why: importing torch is some 2.4 s of a core (the CUDA build from PyPI maps 3 GB of libraries,
then runs torch's module code), and most plain fact scripts do little else. A child of a fork
has what a fresh interpreter would have at the script's first line: the same interpreter,
torch, environment and working folder (and multiprocessing's record of it, set in `child`);
torch's state is as `import torch` leaves it (this process does nothing with it, and no thread
runs here, so the fork is clean). What the script changes stays in its child.

Reads one job a line on stdin, `DIR<tab>NAME<tab>SECONDS`, runs NAME in DIR with its output
in DIR/output.log, and answers one line: the exit code, or `killed` when a signal ended it or
it was killed at the limit (with its process group, as the tests' own runner does).
"""

import multiprocessing.process
import os
import signal
import sys
import time

import torch  # noqa: F401  imported once, before any fork

# Beside this file, as sys.path[0] says; the script's run then puts its own folder there.
import run_and_exit  # noqa: E402


def child(folder, script):
    os.setpgid(0, 0)
    os.chdir(folder)
    # What torch's import kept of the folder it ran in: multiprocessing keeps the folder it was
    # imported in, and a process it spawns starts there to find the main script by its relative
    # name (four facts' `mp.spawn` failed without this). A fresh interpreter imports it here.
    multiprocessing.process.ORIGINAL_DIR = os.getcwd()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    log = os.open("output.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    sys.stdin = open(0, closefd=False)
    sys.argv = [run_and_exit.__file__, script]
    code = run_and_exit.main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def run(folder, script, limit):
    # Nothing buffered here may be written twice, once by the child.
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            child(folder, script)
        finally:
            os._exit(1)
    deadline = time.monotonic() + limit
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        if time.monotonic() > deadline:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            return None
        time.sleep(0.05)


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        folder, script, limit = line.rstrip("\n").split("\t")
        code = run(folder, script, float(limit))
        print("killed" if code is None else code, flush=True)


if __name__ == "__main__":
    main()

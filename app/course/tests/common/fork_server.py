"""Runs plain-Python scripts as `python run_and_exit.py SCRIPT` would, each in a child forked
from this process once it has imported torch.

Why: importing torch is some 2.4 s of a core (the CUDA build from PyPI maps 3 GB of libraries,
then runs torch's module code), and most plain fact scripts do little else. A child of a fork
has what a fresh interpreter would have at the script's first line: the same interpreter,
torch, environment and working folder (and multiprocessing's record of it, set in `child`);
torch's state is as `import torch` leaves it (this process does nothing with it, and no thread
runs here, so the fork is clean). What the script changes stays in its child.

A script whose first line is `# ranks: N` runs in N children at once, the ranks of one job, with
the environment `torchrun --standalone --nproc_per_node=N` gives its workers (rank, local rank,
world sizes, the master's address and a free port; rank 0 then holds the rendezvous store, as
`init_process_group`'s env:// does without an agent). The workers are what torchrun would start,
without the launcher: a torchrun is three Pythons that each import torch (some 7 s of a core a
script) and an agent that polls them. As torchrun does, the job fails when one rank fails, and
the others are then ended. What is about torchrun itself stays under torchrun (`# torchrun: N`).

Reads one job a line on stdin, `DIR<tab>NAME<tab>SECONDS<tab>RANKS`, runs NAME in DIR in RANKS
children (their output together in DIR/output.log), and answers one line: the exit code (with
ranks, 0 when every rank exited with 0, else 1, as torchrun), or `killed` when a signal ended a
plain script or the job was killed at the limit (with its process groups, as the tests' own
runner does).
"""

import multiprocessing.process
import os
import signal
import socket
import sys
import time
import uuid

import torch  # noqa: F401  imported once, before any fork

# Beside this file, as sys.path[0] says; the script's run then puts its own folder there.
import run_and_exit  # noqa: E402


def child(folder, script, env):
    os.setpgid(0, 0)
    os.chdir(folder)
    os.environ.update(env)
    # What torch's import kept of the folder it ran in: multiprocessing keeps the folder it was
    # imported in, and a process it spawns starts there to find the main script by its relative
    # name (four facts' `mp.spawn` failed without this). A fresh interpreter imports it here.
    multiprocessing.process.ORIGINAL_DIR = os.getcwd()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    # Appended to by every rank, as their shared stdout under torchrun.
    log = os.open("output.log", os.O_WRONLY | os.O_APPEND)
    os.dup2(log, 1)
    os.dup2(log, 2)
    sys.stdin = open(0, closefd=False)
    sys.argv = [run_and_exit.__file__, script]
    code = run_and_exit.main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rank_envs(ranks):
    """What torchrun --standalone sets for each of its `ranks` workers on one node."""
    if ranks == 1:
        return [{}]
    shared = {
        "WORLD_SIZE": str(ranks),
        "LOCAL_WORLD_SIZE": str(ranks),
        "ROLE_WORLD_SIZE": str(ranks),
        "GROUP_RANK": "0",
        "GROUP_WORLD_SIZE": "1",
        "ROLE_NAME": "default",
        "MASTER_ADDR": "127.0.0.1",
        "MASTER_PORT": str(free_port()),
        "TORCHELASTIC_RESTART_COUNT": "0",
        "TORCHELASTIC_MAX_RESTARTS": "0",
        "TORCHELASTIC_RUN_ID": str(uuid.uuid4()),
        "OMP_NUM_THREADS": "1",
    }
    return [
        dict(shared, RANK=str(r), LOCAL_RANK=str(r), ROLE_RANK=str(r)) for r in range(ranks)
    ]


def kill(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run(folder, script, limit, ranks):
    # Nothing buffered here may be written twice, once by a child.
    sys.stdout.flush()
    sys.stderr.flush()
    open(os.path.join(folder, "output.log"), "w").close()
    pids = []
    for env in rank_envs(ranks):
        pid = os.fork()
        if pid == 0:
            try:
                child(folder, script, env)
            finally:
                os._exit(1)
        pids.append(pid)
    deadline = time.monotonic() + limit
    codes = {}
    while len(codes) < len(pids):
        for pid in pids:
            if pid not in codes:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    codes[pid] = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        failed = any(code != 0 for code in codes.values())
        if time.monotonic() > deadline or (failed and len(codes) < len(pids)):
            # At the limit, or a rank failed while others run on: torchrun ends them too.
            for pid in pids:
                if pid not in codes:
                    kill(pid)
                    os.waitpid(pid, 0)
                    codes[pid] = None
            if not failed:
                return None
        time.sleep(0.05)
    if ranks == 1:
        return codes[pids[0]]
    return 0 if all(code == 0 for code in codes.values()) else 1


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        folder, script, limit, ranks = line.rstrip("\n").split("\t")
        code = run(folder, script, float(limit), int(ranks))
        print("killed" if code is None else code, flush=True)


if __name__ == "__main__":
    main()

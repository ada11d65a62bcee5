"""Runs `SCRIPT [ARGS...]` as `python SCRIPT [ARGS...]` would, then leaves with os._exit: the
script's output and exit status are kept, the interpreter's teardown is skipped.

Why: in torch 2.13 every backward stashes a Python object (a contextvars.Context) in
thread-local state, and each all-reduce DDP starts during backward captures that state. gloo's
worker thread drops the finished work a moment after the main thread has moved on; if it is
the last reference, freeing the object needs the GIL. When the main thread has reached the
interpreter's teardown by then, CPython ends the worker thread as it takes the GIL, inside a
C++ destructor, and the process aborts: SIGABRT, "terminate called without an active
exception", after the script has done everything it was run for (seen in core dumps of the
fact scripts: ProcessGroupGloo::runLoop -> ~AsyncAllreduceWork -> ~ThreadLocalState ->
take_gil -> PyThread_exit_thread). gpu-runner's harness leaves the same way, for the same reason.
"""

import os
import runpy
import sys
import traceback


def main():
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)

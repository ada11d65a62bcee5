# Fact (2 gloo processes via mp.spawn): monitored_barrier's own timeout is enforced by
# rank 0. If rank 0 is the rank that never arrives, rank 1 waits for the PROCESS GROUP's
# timeout (6 s here), not the 1 s passed to monitored_barrier, and its error only says
# "Rank 1 successfully reached monitoredBarrier, but received errors while waiting for
# send/recv from rank 0".
import datetime
import os
import time

import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, port, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=2,
                            timeout=datetime.timedelta(seconds=6))
    if rank == 0:
        time.sleep(10)                    # rank 0 never reaches the barrier
        return
    start = time.monotonic()
    try:
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=1))
        queue.put(("passed", 0.0))
    except RuntimeError as exc:
        queue.put((str(exc).splitlines()[0], time.monotonic() - start))


if __name__ == "__main__":
    queue = mp.get_context("spawn").SimpleQueue()
    mp.spawn(worker, args=(29653, queue), nprocs=2, join=True)
    msg, elapsed = queue.get()
    assert "Rank 1 successfully reached monitoredBarrier, but received errors while " \
           "waiting for send/recv from rank 0" in msg, msg
    assert elapsed >= 5.5, f"rank 1 gave up after {elapsed:.1f}s, expected the 6 s group timeout"
    print(f"ok: with rank 0 missing, rank 1 waited {elapsed:.0f}s (the process group's timeout, "
          "not monitored_barrier's 1 s) and blamed rank 0 without naming a culprit")

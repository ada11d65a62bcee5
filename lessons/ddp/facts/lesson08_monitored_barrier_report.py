# Facts (3 gloo processes started with mp.spawn, no torchrun needed):
# (a) only rank 0 calls monitored_barrier; by default (wait_all_ranks=False) rank 0's
#     error names only the FIRST missing rank: "Rank 1 failed to pass monitoredBarrier";
# (b) with wait_all_ranks=True it names all of them: "Ranks 1, 2 failed to pass ...";
# (c) the error arrives after the monitored_barrier timeout (2 s), not the process
#     group's (60 s).
import datetime
import os
import time

import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world_size, port, wait_all, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size,
                            timeout=datetime.timedelta(seconds=60))
    if rank == 0:
        start = time.monotonic()
        try:
            dist.monitored_barrier(timeout=datetime.timedelta(seconds=2),
                                   wait_all_ranks=wait_all)
            queue.put(("passed", 0.0))
        except RuntimeError as exc:
            queue.put((str(exc).splitlines()[0], time.monotonic() - start))
    else:
        time.sleep(4)                     # never calls monitored_barrier
    # no destroy_process_group: rank 0's barrier state is broken on purpose


def run(wait_all, port):
    ctx = mp.get_context("spawn")
    queue = ctx.SimpleQueue()
    mp.spawn(worker, args=(3, port, wait_all, queue), nprocs=3, join=True)
    return queue.get()


if __name__ == "__main__":
    msg, elapsed = run(False, 29651)
    assert "Rank 1 failed to pass monitoredBarrier in 2000 ms" in msg, msg
    assert "Rank 2" not in msg, msg
    assert 1.5 <= elapsed < 10, elapsed
    msg, elapsed = run(True, 29652)
    assert "Ranks 1, 2 failed to pass monitoredBarrier in 2000 ms" in msg, msg
    print("ok: monitored_barrier on rank 0 names the first missing rank by default "
          "and every missing rank with wait_all_ranks=True, after its own timeout")

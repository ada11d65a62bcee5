# Facts (2 gloo processes via mp.spawn, TORCH_DISTRIBUTED_DEBUG=DETAIL):
# (a) rank 0 all_reduces 10 elements, rank 1 all_reduces 20: DETAIL's wrapper compares
#     the collectives' fingerprints first and raises at once, on both ranks, with
#     "Detected mismatch between collectives on ranks" and the two shapes;
# (b) rank 0 calls all_reduce while rank 1 calls broadcast: the error names both op types.
import datetime
import os
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, port, case, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=2,
                            timeout=datetime.timedelta(seconds=30))
    start = time.monotonic()
    try:
        if case == "shape":
            dist.all_reduce(torch.ones(10 if rank == 0 else 20))
        elif rank == 0:
            dist.all_reduce(torch.ones(4))
        else:
            dist.broadcast(torch.ones(4), src=0)
        queue.put((rank, "completed", 0.0))
    except RuntimeError as exc:
        queue.put((rank, str(exc), time.monotonic() - start))


def run(case, port):
    queue = mp.get_context("spawn").SimpleQueue()
    mp.spawn(worker, args=(port, case, queue), nprocs=2, join=True)
    return dict((r, (m, t)) for r, m, t in (queue.get(), queue.get()))


if __name__ == "__main__":
    os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"     # inherited by the spawned workers
    res = run("shape", 29654)
    for rank in (0, 1):
        msg, elapsed = res[rank]
        assert "Detected mismatch between collectives on ranks" in msg, msg
        assert "OpType=ALLREDUCE, TensorShape=[10]" in msg and "TensorShape=[20]" in msg, msg
        assert elapsed < 10, elapsed                      # far below the 30 s timeout
    assert "Tensor shapes: 10vs 20" in res[0][0], res[0][0]
    res = run("op", 29655)
    assert "Op type: ALLREDUCEvs BROADCAST" in res[0][0], res[0][0]
    assert "Op type: BROADCASTvs ALLREDUCE" in res[1][0], res[1][0]
    print("ok: TORCH_DISTRIBUTED_DEBUG=DETAIL turns mismatched collectives (shape or op type) "
          "into an immediate 'Detected mismatch between collectives on ranks' error on every rank")

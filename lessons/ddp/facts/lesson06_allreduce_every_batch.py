# ranks: 2
# Fact: 2 ranks, 3 batches each, every batch adds 1.0 to a running total. Calling
# all_reduce(SUM) on the running total after every batch ends at 14 on every rank;
# calling it once after the epoch gives the true total, 6.
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
assert world == 2

wrong = torch.tensor(0.0)
right = torch.tensor(0.0)
for batch in range(3):
    wrong += 1.0
    dist.all_reduce(wrong)          # BUG: re-adds the other rank's already-summed total
    right += 1.0
dist.all_reduce(right)              # once, after the epoch

assert wrong.item() == 14.0, wrong.item()
assert right.item() == 6.0, right.item()
dist.barrier()
dist.destroy_process_group()
if rank == 0:
    print(f"ok: all_reduce of a running total every batch gives {wrong.item():.0f} "
          f"instead of {right.item():.0f} (2 ranks x 3 batches of 1.0)")

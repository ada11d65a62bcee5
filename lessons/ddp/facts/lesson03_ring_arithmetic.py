"""Fact (arithmetic, checked by simulation): ring all-reduce on N ranks takes 2(N-1) steps and each rank
sends 2(N-1)/N * S. N=4, S=100 MB: 6 steps, 150 MB per rank. A central master on N=8 ranks with
S=1 GB receives (N-1)*S = 7 GB and sends 7 GB; a ring rank on 8 ranks sends 1.75 GB."""
import torch


def ring_allreduce(tensors):
    """Simulate ring all-reduce; return results, number of steps, elements sent per rank."""
    n = len(tensors)
    chunks = [list(t.chunk(n)) for t in tensors]
    chunks = [[c.clone() for c in cs] for cs in chunks]
    sent = [0] * n
    steps = 0
    # reduce-scatter: at step s, rank r sends chunk (r - s) % n to rank r+1, which adds it
    for s in range(n - 1):
        msgs = [(r, (r - s) % n, chunks[r][(r - s) % n].clone()) for r in range(n)]
        for r, c, data in msgs:
            chunks[(r + 1) % n][c] += data
            sent[r] += data.numel()
        steps += 1
    # now rank r owns the finished chunk (r + 1) % n; all-gather: receiver overwrites
    for s in range(n - 1):
        msgs = [(r, (r + 1 - s) % n, chunks[r][(r + 1 - s) % n].clone()) for r in range(n)]
        for r, c, data in msgs:
            chunks[(r + 1) % n][c] = data
            sent[r] += data.numel()
        steps += 1
    return [torch.cat(cs) for cs in chunks], steps, sent


for n in (3, 4, 8):
    S = 24 * n                                        # elements, divisible by n
    ts = [torch.arange(S, dtype=torch.float64) * (r + 1) for r in range(n)]
    out, steps, sent = ring_allreduce(ts)
    total = sum(ts)
    assert all(torch.equal(o, total) for o in out)
    assert steps == 2 * (n - 1)
    assert all(x == 2 * (n - 1) * S // n for x in sent)

# lesson 3's worked example: [1,2,3], [4,5,6], [7,8,9] -> [12,15,18] in 4 steps, 4 elements sent each
out, steps, sent = ring_allreduce([torch.tensor([1., 2, 3]), torch.tensor([4., 5, 6]), torch.tensor([7., 8, 9])])
assert all(o.tolist() == [12, 15, 18] for o in out) and steps == 4 and sent == [4, 4, 4]

# the quiz's numbers
N, S_MB = 4, 100
assert 2 * (N - 1) == 6 and 2 * (N - 1) * S_MB / N == 150
N, S_GB = 8, 1
assert (N - 1) * S_GB == 7 and 2 * (N - 1) * S_GB / N == 1.75

print("ok: ring all-reduce = 2(N-1) steps, 2(N-1)/N*S sent per rank (N=4,S=100MB: 6 steps, 150 MB); master on 8 ranks, 1 GB: 7 GB in")

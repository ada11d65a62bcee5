"""The reference solution to lesson 6's exercise: single_gpu_train.py converted to DDP."""

import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def make_dataset(n_samples=32_768, n_features=64):
    torch.manual_seed(0)                          # same data on every rank
    x = torch.randn(n_samples, n_features)
    true_w = torch.randn(n_features, 1)
    y = x @ true_w + 0.1 * torch.randn(n_samples, 1)
    return TensorDataset(x, y)


def main():
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend)
    rank = dist.get_rank()
    local_rank = int(os.environ["LOCAL_RANK"])
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
    else:
        device = torch.device("cpu")

    dataset = make_dataset()
    sampler = DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset, batch_size=512, sampler=sampler)

    model = nn.Sequential(
        nn.Linear(64, 512), nn.ReLU(),
        nn.Linear(512, 512), nn.ReLU(),
        nn.Linear(512, 1),
    ).to(device)
    model = DDP(model, device_ids=[local_rank] if device.type == "cuda" else None)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.MSELoss()

    for epoch in range(5):
        sampler.set_epoch(epoch)
        start = time.perf_counter()
        total = torch.zeros(2, device=device)      # sum of losses, samples
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            total += torch.stack([loss.detach() * x.size(0), torch.tensor(float(x.size(0)), device=device)])
        dist.all_reduce(total)
        elapsed = time.perf_counter() - start
        if rank == 0:
            print(f"epoch {epoch}: loss {(total[0] / total[1]).item():.4f} ({elapsed:.2f}s)")

    if rank == 0:
        torch.save(model.module.state_dict(), "model.pt")
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

"""Training that survives a crash: a snapshot after every epoch, and a resume from it."""

import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

EPOCHS = 4
SNAPSHOT = "snapshot.pt"


def make_dataset(n=4096, features=32, classes=4):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, features, generator=g)
    y = (x @ torch.randn(features, classes, generator=g)).argmax(dim=1)
    return TensorDataset(x, y)


def main():
    use_cuda = torch.cuda.is_available()
    local_rank = int(os.environ["LOCAL_RANK"])
    if use_cuda:
        torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl" if use_cuda else "gloo")
    rank = dist.get_rank()
    device = torch.device("cuda", local_rank) if use_cuda else torch.device("cpu")

    dataset = make_dataset()
    sampler = DistributedSampler(dataset, shuffle=True, seed=0)
    loader = DataLoader(dataset, batch_size=64, sampler=sampler)

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 4)).to(device)
    model = DDP(model, device_ids=[local_rank] if use_cuda else None)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.8)
    loss_fn = nn.CrossEntropyLoss()

    start_epoch = 0
    if os.path.exists(SNAPSHOT):
        snapshot = torch.load(SNAPSHOT, map_location=device)
        model.module.load_state_dict(snapshot["model"])
        optimizer.load_state_dict(snapshot["optimizer"])
        scheduler.load_state_dict(snapshot["scheduler"])
        torch.set_rng_state(snapshot["rng"])
        start_epoch = snapshot["epoch"] + 1
        if rank == 0:
            print(f"resumed after epoch {snapshot['epoch']} (restart {os.environ.get('TORCHELASTIC_RESTART_COUNT')})")

    for epoch in range(start_epoch, EPOCHS):
        sampler.set_epoch(epoch)
        total, seen = 0.0, 0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            total += loss.item() * x.size(0)
            seen += x.size(0)
        scheduler.step()
        stats = torch.tensor([total, seen], dtype=torch.float64, device=device)
        dist.all_reduce(stats)
        if rank == 0:
            print(f"epoch {epoch}: loss {(stats[0] / stats[1]).item():.4f}")
            tmp = SNAPSHOT + ".tmp"
            torch.save(
                {
                    "model": model.module.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(),
                    "rng": torch.get_rng_state(),
                    "epoch": epoch,
                },
                tmp,
            )
            os.replace(tmp, SNAPSHOT)
        dist.barrier()

    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

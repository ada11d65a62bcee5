# Fact: FSDP2 shards every parameter with torch.chunk(dim=0) across the ranks, so for the
# lesson's model (Linear(256, 512) + Linear(512, 256), psi = 262,912) on 4 ranks each
# rank holds 65,728 parameter elements and, after an Adam step, 2 * 4 * 65,728 = 525,824
# bytes of exp_avg + exp_avg_sq. (The lesson's memory_shards.py run with
# --nproc_per_node=4 prints exactly these numbers; lesson10_fsdp2_no_broadcast.py checks
# the chunk(dim=0) layout against a real fully_shard on 2 ranks.)
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256))
psi = sum(p.numel() for p in model.parameters())
assert psi == 262_912
world = 4
for rank in range(world):
    local = sum(p.detach().chunk(world, dim=0)[rank].numel() for p in model.parameters())
    assert local == 65_728 and local * world == psi
    assert 2 * 4 * local == 525_824
print("ok: on 4 ranks every rank holds 65,728 params and 525,824 bytes of Adam moments")

# ranks: 2
# Fact: with fully_shard(..., mp_policy=MixedPrecisionPolicy(param_dtype=torch.bfloat16,
# reduce_dtype=torch.float32)) the sharded parameters (what the optimizer updates) and
# their sharded gradients stay float32; only the all-gathered, unsharded parameters used
# inside forward/backward are bfloat16. Also: after forward, a non-root unit's
# registered parameters are the sharded DTensors again (reshard_after_forward defaults to
# True for non-root units).

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from torch.distributed.tensor import DTensor

seen = []


class Probe(nn.Linear):
    def forward(self, x):
        seen.append((type(self.weight).__name__, self.weight.dtype, tuple(self.weight.shape)))
        return super().forward(x)


dist.init_process_group("gloo")
torch.manual_seed(0)
model = nn.Sequential(Probe(8, 16), nn.ReLU(), Probe(16, 4))
mesh = init_device_mesh("cpu", (2,))
mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
for layer in (model[0], model[2]):
    fully_shard(layer, mesh=mesh, mp_policy=mp)
fully_shard(model, mesh=mesh, mp_policy=mp)
out = model(torch.randn(4, 8))
assert out.dtype == torch.bfloat16
# inside forward: plain (non-DTensor) full-size bfloat16 Parameters
assert seen == [("Parameter", torch.bfloat16, (16, 8)), ("Parameter", torch.bfloat16, (4, 16))], seen
# after forward: the non-root unit is resharded
assert isinstance(model[0].weight, DTensor) and model[0].weight.to_local().shape == (8, 8)
out.float().sum().backward()
for p in model.parameters():
    assert isinstance(p, DTensor) and p.dtype == torch.float32
    assert p.grad.dtype == torch.float32 and p.grad.to_local().shape == p.to_local().shape
# Every rank has passed its asserts once the barrier returns.
dist.barrier()
if dist.get_rank() == 0:
    print("ok: FSDP2 mixed precision computes with full bf16 weights, keeps sharded fp32 params and grads", flush=True)
dist.destroy_process_group()

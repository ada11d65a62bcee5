# torch.cuda.is_bf16_supported() counts emulated bfloat16 as supported by
# default: including_emulation defaults to True, and below compute capability
# 8 the function then only checks that a bfloat16 tensor can be created.
import inspect

import torch

fn = torch.cuda.is_bf16_supported
assert inspect.signature(fn).parameters["including_emulation"].default is True
print("ok: torch.cuda.is_bf16_supported(including_emulation=True) is the default")

# The order of the checks in the pinned source (CUDA branch).
src = inspect.getsource(fn)
major = src.index(".major >= 8")
no_emulation = src.index("if not including_emulation")
tensor_check = src.index("_check_bf16_tensor_supported(")
assert major < no_emulation < tensor_check, (major, no_emulation, tensor_check)
print("ok: capability >= 8 -> True; else False if not including_emulation; else 'can a bf16 tensor be created'")

if not torch.cuda.is_available():
    assert fn() is False and fn(including_emulation=False) is False
    print("ok: without CUDA it returns False either way")

# Fact: per-GPU model-state memory of DDP and the ZeRO stages (GB = 1e9 bytes, as in the
# ZeRO paper), with p/g/o = bytes per parameter for parameters, gradients and optimizer
# state: DDP (p+g+o)Ψ, ZeRO-1 (p+g)Ψ + oΨ/N, ZeRO-2 pΨ + (g+o)Ψ/N, ZeRO-3 (p+g+o)Ψ/N.
# Checks the paper's Figure 1 example and every number used in the lesson and its quiz.
BYTES = {  # (params, grads, optimizer state) per parameter
    ("fp32", "adam"): (4, 4, 8), ("fp32", "sgd-momentum"): (4, 4, 4), ("fp32", "sgd"): (4, 4, 0),
    ("mixed", "adam"): (2, 2, 12), ("mixed", "sgd-momentum"): (2, 2, 8), ("mixed", "sgd"): (2, 2, 4),
}


def per_gpu(psi, n, precision="mixed", optimizer="adam"):
    p, g, o = BYTES[(precision, optimizer)]
    return {
        "ddp": (p + g + o) * psi,
        "zero1": (p + g) * psi + o * psi / n,
        "zero2": p * psi + (g + o) * psi / n,
        "zero3": (p + g + o) * psi / n,
    }


GB = 1e9
for prec in ("fp32", "mixed"):
    totals = {opt: sum(BYTES[(prec, opt)]) for opt in ("adam", "sgd-momentum", "sgd")}
    assert totals == {"adam": 16, "sgd-momentum": 12, "sgd": 8}, totals
print("ok: totals per parameter: Adam 16, SGD+momentum 12, SGD 8 bytes (fp32 and mixed alike)")

m = per_gpu(7.5e9, 64)
assert [round(v / GB, 1) for v in m.values()] == [120.0, 31.4, 16.6, 1.9], m
assert m["zero3"] / GB == 1.875 and abs(m["zero1"] / GB - 31.40625) < 1e-9
assert abs(m["zero2"] / GB - 16.640625) < 1e-9
print("ok: 7.5B params, N=64, mixed Adam: 120 / 31.4 / 16.6 / 1.9 GB (exactly 120, 31.40625, 16.640625, 1.875)")

# ZeRO-1 can never go below (p+g)Ψ; ZeRO-2 never below pΨ.
m = per_gpu(20e9, 1024)
assert m["zero1"] / GB > 80 and abs(m["zero1"] / GB - 80.234375) < 1e-9
assert abs(m["zero2"] / GB - 40.2734375) < 1e-9 and m["zero2"] / GB + 20 <= 80
assert abs(m["zero3"] / GB - 0.3125) < 1e-9
# With the 20 GB of activations the quiz asks for: ZeRO-1 needs more than the GPU even if
# its "80 GB" is 80 GiB (85.9e9 bytes); ZeRO-2 fits even in 80e9 bytes.
GPU_GIB = 80 * 2**30
assert m["zero1"] + 20 * GB > GPU_GIB and m["zero2"] + 20 * GB < 80 * GB
print("ok: 20B params, N=1024: ZeRO-1 80.23 GB (+20 GB > 80 GiB), ZeRO-2 40.27 GB (+20 GB < 80 GB), ZeRO-3 0.31 GB")

m = per_gpu(1.5e9, 8)
assert m["ddp"] / GB == 24.0 and m["zero3"] / GB == 3.0
print("ok: 1.5B params mixed Adam: 24 GB per GPU under DDP on any N; 3 GB with ZeRO-3 on 8")

# fp32 Adam, 1B params under DDP: 16 GB of model states + 4 GB of buckets by default.
m = per_gpu(1e9, 8, "fp32", "adam")
assert m["ddp"] / GB == 16.0 and 4 * 1e9 / GB == 4.0
print("ok: 1B params fp32 Adam DDP: 16 GB model states, +4 GB gradient buckets unless gradient_as_bucket_view=True")

# Communication per GPU per step, in units of Ψ elements (ZeRO paper, section 7), and
# PyTorch's ZeroRedundancyOptimizer: DDP's all-reduce plus a broadcast of all parameters
# from their owners (counted in lesson10_zero1_broadcast.py).
ddp, zero2, zero3 = 1 + 1, 1 + 1, 1 + 1 + 1   # RS+AG ; RS grads + AG params ; AG fwd + AG bwd + RS
zro = 2 + 1                                   # DDP all-reduce + parameter broadcasts
assert zero2 / ddp == 1.0 and zero3 / ddp == 1.5 and zro / ddp == 1.5
print("ok: communication: paper's ZeRO-1/2 and SHARD_GRAD_OP = DDP (2Ψ); "
      "ZeroRedundancyOptimizer + DDP and ZeRO-3 = 3Ψ = 1.5x")

# The lesson's snippet: Ψ = 262,912 for Linear(256,512)+Linear(512,256).
psi = 256 * 512 + 512 + 512 * 256 + 256
assert psi == 262_912 and 4 * psi == 1_051_648 and 8 * psi == 2_103_296
assert psi // 2 == 131_456 and 8 * psi // 4 == 525_824 and psi % 4 == 0
print("ok: snippet numbers: psi 262,912; 4psi 1,051,648; 8psi 2,103,296; psi/2 131,456; Adam/4 ranks 525,824")

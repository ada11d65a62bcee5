#!/usr/bin/env bash
# sim-engine's sampler against torch.randperm on this machine, side by side, with the ratio.
#   bash sim-engine/benches/sampler_vs_torch.sh
# Uses the Python environment the README set-up creates (LOCKSTEP_VENV to override).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${LOCKSTEP_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/lockstep/venv}/bin/python
ours=$(cargo bench -q -p sim-engine --bench perf 2>/dev/null)
echo "$ours"
torch_ms=$("$PY" -W ignore - <<'PY'
import statistics, time, torch
torch.set_num_threads(1)
times = []
for _ in range(7):
    g = torch.Generator().manual_seed(1)
    t = time.perf_counter()
    torch.randperm(10_000_000, generator=g)
    times.append((time.perf_counter() - t) * 1e3)
print(f"{statistics.median(times):.1f}")
PY
)
echo "torch_randperm_10m_ms $torch_ms"
sampler_ms=$(echo "$ours" | awk '/^sampler_10m_ms/ {print $2}')
awk -v t="$torch_ms" -v s="$sampler_ms" 'BEGIN { printf "ratio torch.randperm / sim-engine sampler: %.2f (above 1: the sampler is faster)\n", t / s }'

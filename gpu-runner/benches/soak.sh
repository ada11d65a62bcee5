#!/usr/bin/env bash
# Grades the reference solution N times (default 20) and prints how many passed: a correct
# script must pass every time, gloo's occasional teardown abort included. Each line gives the
# measured speedup and how busy the machine was; the verdicts are kept in target/soak/.
# Usage: bash gpu-runner/benches/soak.sh [N]   (after `cargo xtask test` has set up the machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-20}
venv=${LOCKSTEP_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/lockstep/venv}
export VIRTUAL_ENV=$venv PATH=$venv/bin:$PATH LIBTORCH_USE_PYTORCH=1
# The debug build: grading time is torch's, and the tests' build is reused.
cargo build -q -p gpu-runner
mkdir -p target/soak
passed=0
for i in $(seq 1 "$n"); do
  target/debug/gpu-runner grade lessons/ddp/exercises/ddp-conversion/solution.py --json >"target/soak/$i.json" || true
  line=$(python3 - "target/soak/$i.json" <<'PY'
import json, re, sys
v = json.load(open(sys.argv[1]))
speedup = next((c["message"] for c in v["checks"] if c["id"] == "speedup"), "")
ratio = re.search(r"= ([0-9.]+)×", speedup)
again = re.search(r"measured again (\d+)", speedup)
retried = sum(1 for r in v["runs"] if r["retried_because"])
others = max((r["cpu"]["others_s"] / r["wall_s"] for r in v["runs"] if r.get("cpu")), default=float("nan"))
print(v["status"], ratio.group(1) if ratio else "-", again.group(1) if again else 0, retried, f"{others:.2f}", round(sum(r["wall_s"] for r in v["runs"])))
PY
)
  read -r status ratio again retried others wall <<<"$line"
  [ "$status" = pass ] && passed=$((passed + 1))
  echo "run $i: $status, speedup ${ratio}x, measured again $again, runs repeated for a teardown abort $retried, other work up to $others cores, ${wall} s of runs"
done
echo "soak: $passed of $n passed"

#!/usr/bin/env bash
# Grades the reference solution N times (default 20) and prints how many passed: a correct
# script must pass every time, gloo's occasional teardown abort included.
# Usage: bash gpu-runner/benches/soak.sh [N]   (after `cargo xtask test` has set up the machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-20}
venv=${LOCKSTEP_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/lockstep/venv}
export VIRTUAL_ENV=$venv PATH=$venv/bin:$PATH LIBTORCH_USE_PYTORCH=1
cargo build -q --release -p gpu-runner
passed=0 retried=0
for i in $(seq 1 "$n"); do
  out=$(target/release/gpu-runner grade gpu-runner/exercise/solution.py --json || true)
  status=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])' <<<"$out")
  r=$(python3 -c 'import json,sys; print(sum(1 for r in json.load(sys.stdin)["runs"] if r["retried_because"]))' <<<"$out")
  retried=$((retried + r))
  [ "$status" = pass ] && passed=$((passed + 1))
  echo "run $i: $status (runs repeated for a teardown abort: $r)"
done
echo "soak: $passed of $n passed; $retried run(s) repeated for a runtime teardown abort"

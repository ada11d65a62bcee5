#!/usr/bin/env bash
# The runner's overhead: wall time of one sandboxed, instrumented 2-process run against a bare
# `torchrun` of the same script, median of K (default 5) each, alternating.
# Usage: bash gpu-runner/benches/overhead.sh [K]
set -euo pipefail
cd "$(dirname "$0")/../.."
k=${1:-5}
venv=${LOCKSTEP_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/lockstep/venv}
export VIRTUAL_ENV=$venv PATH=$venv/bin:$PATH LIBTORCH_USE_PYTORCH=1
# The debug build: grading time is torch's, and the tests' build is reused.
cargo build -q -p gpu-runner
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bare=() graded=()
for i in $(seq 1 "$k"); do
  t0=$(date +%s.%N)
  (cd "$work" && OMP_NUM_THREADS=1 "$venv/bin/torchrun" --standalone --nproc_per_node=2 --max-restarts=0 \
     "$OLDPWD/lessons/ddp/exercises/ddp-conversion/solution.py" >/dev/null 2>&1)
  t1=$(date +%s.%N)
  out=$(target/debug/gpu-runner grade lessons/ddp/exercises/ddp-conversion/solution.py --json --repeats 1 || true)
  # The graded 2-process run alone (the grade also makes a 1-process run for the speedup).
  ddp=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["runs"][0]["wall_s"])' <<<"$out")
  bare+=("$(echo "$t1 - $t0" | bc -l)") graded+=("$ddp")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
b=$(median "${bare[@]}") g=$(median "${graded[@]}")
printf 'bare torchrun: %.2f s; sandboxed and instrumented: %.2f s; overhead %.2f s (%.0f%%)\n' \
  "$b" "$g" "$(echo "$g - $b" | bc -l)" "$(echo "100 * ($g - $b) / $b" | bc -l)"

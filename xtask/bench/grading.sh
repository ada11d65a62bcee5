#!/usr/bin/env bash
# Grading through the platform against grading alone, for the reference solution:
#   platform: `lockstep submit --wait` to a release server with one local worker: submit,
#             queue, claim, the grade, every event over HTTP, the verdict, until the client has
#             it;
#   bare:     `gpu-runner grade` of the same script on the same machine.
# Also, for every event of the platform's grading: how long after the worker read it from the
# grade the server had stored it (the worker's log), and how long after the server stored it a
# client following the server-sent events had it.
#
#   bash xtask/bench/grading.sh [RUNS]     (default 2: each side RUNS times, alternating)
#
# Needs `cargo xtask build` done (the set-up's Python environment, bubblewrap), sqlite3 and curl.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-2}
PORT=3183
WORK=$(mktemp -d)
export LIBTORCH_USE_PYTORCH=1 VIRTUAL_ENV="${LOCKSTEP_VENV:-$HOME/.cache/lockstep/venv}"
export PATH="$VIRTUAL_ENV/bin:$PATH"
command -v sqlite3 >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends sqlite3; }
cargo build --quiet --release -p lockstep-server --bin lockstep -p gpu-runner --bin gpu-runner
BIN=target/release
DB="sqlite://$WORK/db.sqlite3?mode=rwc"
SOLUTION=lessons/ddp/exercises/ddp-conversion/solution.py

cleanup() {
  kill ${WORKER_PID:-} ${APP_PID:-} 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

DATABASE_URL=$DB LOCKSTEP_ADDR=127.0.0.1:$PORT LOCKSTEP_SITE_ROOT=target/site RUST_LOG=warn \
  LOCKSTEP_SUBMISSIONS_PER_HOUR=1000 "$BIN/lockstep" &
APP_PID=$!
for _ in $(seq 1 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.1; done
WORKER_TOKEN=$(DATABASE_URL=$DB "$BIN/lockstep" admin worker-token create bench)
LOCKSTEP_WORKER_TOKEN=$WORKER_TOKEN "$BIN/gpu-runner" worker --server "http://127.0.0.1:$PORT" \
  --name bench --poll=0.2 2>"$WORK/worker.log" &
WORKER_PID=$!

# A learner with a terminal token, made the way a learner makes one: sign up, account page.
. xtask/bench/learner.sh
TOKEN=$(learner_token "http://127.0.0.1:$PORT" "$WORK")

now() { date +%s.%N; }
for i in $(seq 1 "$RUNS"); do
  t0=$(now)
  LOCKSTEP_TOKEN=$TOKEN "$BIN/lockstep" submit --server "http://127.0.0.1:$PORT" --wait --json \
    "$SOLUTION" 2>"$WORK/submit$i.log" >"$WORK/verdict$i.json" || true
  t1=$(now)
  "$BIN/gpu-runner" grade --json "$SOLUTION" >"$WORK/bare$i.json" || true
  t2=$(now)
  status() { grep -o '"status": "[a-z]*"' "$1" | head -1 | cut -d'"' -f4; }
  python3 -c "print(f'run $i: platform {$t1 - $t0:.1f} s ($(status "$WORK/verdict$i.json")), bare grade {$t2 - $t1:.1f} s ($(status "$WORK/bare$i.json")), difference {($t1 - $t0) - ($t2 - $t1):+.1f} s')"
done

# Server to browser: follow one more grading's events with curl and note when each arrived.
ID=$(curl -fs -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \
  --data "$(python3 -c 'import json,sys; print(json.dumps({"exercise": "ddp-conversion", "script": open(sys.argv[1]).read()}))' "$SOLUTION")" \
  "http://127.0.0.1:$PORT/api/submissions" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
curl -fsN -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/submissions/$ID/events" \
  | while IFS= read -r line; do
      case "$line" in id:*) echo "${line#id:} $(date +%s%3N)";; esac
    done >"$WORK/arrivals"
sqlite3 "$WORK/db.sqlite3" "SELECT id, at_ms FROM submission_events WHERE submission_id = $ID ORDER BY id" \
  | tr '|' ' ' >"$WORK/stored"
join <(sort "$WORK/stored") <(sed 's/^ *//' "$WORK/arrivals" | sort) | awk '{ print $3 - $2 }' \
  | sort -n >"$WORK/delays"
n=$(wc -l <"$WORK/delays")
echo "server-sent events: $n events; from stored to received by the client: median $(sed -n "$(( (n + 1) / 2 ))p" "$WORK/delays") ms, max $(tail -1 "$WORK/delays") ms"
grep -o 'reported in [0-9.]* ms' "$WORK/worker.log" | awk '{ print $3 }' | sort -n >"$WORK/reported"
r=$(wc -l <"$WORK/reported")
echo "worker to server: $r events; from read off the grade to stored by the server: median $(sed -n "$(( (r + 1) / 2 ))p" "$WORK/reported") ms, max $(tail -1 "$WORK/reported") ms"

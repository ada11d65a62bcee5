#!/usr/bin/env bash
# Grading through Slurm pilots against a local worker, on a release server (SQLite):
#   latency:    the reference solution, speedup timed, submit to verdict (`lockstep submit
#               --wait`): once with a local `gpu-runner worker`, once through `lockstep-pilots`
#               with no pilot running (sbatch, Slurm's start, the worker's start, the grade),
#               and once more while that pilot is still up and idle; RUNS rounds, alternating;
#   throughput: JOBS submissions of a tiny DDP script at once, graded by up to 4 pilots of 2
#               CPUs each (no speedup timed): submissions per minute from the first submission to
#               the last verdict, and where the time went.
#
#   cargo xtask with-services -- bash xtask/bench/slurm.sh [RUNS] [JOBS]    (default 2, 40)
#
# Needs a Slurm cluster (SLURM_CONF; `cargo xtask with-services` starts a single-node one),
# `cargo xtask build` done, sqlite3 and curl.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-2}
JOBS=${2:-40}
PORT=3184
WORK=$(mktemp -d)
export LIBTORCH_USE_PYTORCH=1 VIRTUAL_ENV="${LOCKSTEP_VENV:-$HOME/.cache/lockstep/venv}"
export PATH="$VIRTUAL_ENV/bin:$PATH"
PARTITION=${LOCKSTEP_TEST_SLURM_PARTITION:?run it under cargo xtask with-services, or set SLURM_CONF and LOCKSTEP_TEST_SLURM_PARTITION}
command -v sqlite3 >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends sqlite3; }
cargo build --quiet --release -p lockstep-server --bin lockstep -p gpu-runner --bin gpu-runner \
  -p slurm-pilots --bin lockstep-pilots
BIN=$PWD/target/release
DB="sqlite://$WORK/db.sqlite3?mode=rwc"
SERVER="http://127.0.0.1:$PORT"
SOLUTION=lessons/ddp/exercises/ddp-conversion/solution.py
JOB_NAME=lockstep-bench-$$

cleanup() {
  kill ${SUPERVISOR_PID:-} ${APP_PID:-} 2>/dev/null || true
  scancel --name="$JOB_NAME" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

DATABASE_URL=$DB LOCKSTEP_ADDR=127.0.0.1:$PORT LOCKSTEP_SITE_ROOT=target/site RUST_LOG=warn \
  LOCKSTEP_SUBMISSIONS_PER_HOUR=10000 "$BIN/lockstep" &
APP_PID=$!
for _ in $(seq 1 100); do curl -fs -o /dev/null "$SERVER/healthz" && break; sleep 0.1; done
export LOCKSTEP_WORKER_TOKEN=$(DATABASE_URL=$DB "$BIN/lockstep" admin worker-token create bench)

. xtask/bench/learner.sh
LOCKSTEP_TOKEN=$(learner_token "$SERVER" "$WORK")
export LOCKSTEP_TOKEN

# The pilots' configuration: $1 pilots at most, $2 extra worker options (a TOML list's inside).
pilots_config() {
  cat >"$WORK/pilots.toml" <<EOF
server = "$SERVER"
runner = "$BIN/gpu-runner"
max_pilots = $1
poll_seconds = 0.5
[slurm]
partition = "$PARTITION"
cpus_per_job = 2
time_limit = "30"
job_name = "$JOB_NAME"
log_dir = "$WORK"
[worker]
idle_exit_seconds = 20
args = ["--poll=0.2"$2]
EOF
}
now() { date +%s.%N; }
status() { grep -o '"status": "[a-z]*"' "$1" | head -1 | cut -d'"' -f4; }
submit_wait() { "$BIN/lockstep" submit --server "$SERVER" --wait --json "$1" 2>>"$WORK/submit.log" >"$2" || true; }

echo "latency, reference solution, speedup timed: $RUNS round(s)"
pilots_config 1 ""
for i in $(seq 1 "$RUNS"); do
  t0=$(now)
  "$BIN/gpu-runner" worker --server "$SERVER" --name local --poll=0.2 --max-jobs=1 2>>"$WORK/local.log" &
  submit_wait "$SOLUTION" "$WORK/local$i.json"
  wait $!
  t1=$(now)
  "$BIN/lockstep-pilots" --config="$WORK/pilots.toml" 2>>"$WORK/supervisor.log" &
  SUPERVISOR_PID=$!
  submit_wait "$SOLUTION" "$WORK/cold$i.json"
  t2=$(now)
  submit_wait "$SOLUTION" "$WORK/warm$i.json"
  t3=$(now)
  kill $SUPERVISOR_PID; wait $SUPERVISOR_PID || true
  scancel --name="$JOB_NAME"
  while [ -n "$(squeue --noheader --name="$JOB_NAME")" ]; do sleep 0.2; done
  python3 -c "
local, cold, warm = $t1 - $t0, $t2 - $t1, $t3 - $t2
print(f'round $i: local worker {local:.1f} s ($(status "$WORK/local$i.json")); '
      f'Slurm, no pilot up {cold:.1f} s ($(status "$WORK/cold$i.json"), {cold - local:+.1f} s); '
      f'Slurm, pilot idle {warm:.1f} s ($(status "$WORK/warm$i.json"), {warm - local:+.1f} s)')"
done
# Where each of those waited: queued to claimed (for the cold pilot: sbatch, Slurm's start, the
# worker's start and first claim), and claimed to the grade's first run.
sqlite3 "$WORK/db.sqlite3" "SELECT s.id, MIN(CASE WHEN e.kind = 'queued' THEN e.at_ms END), MIN(CASE WHEN e.kind = 'started' THEN e.at_ms END), MIN(CASE WHEN e.kind = 'run_started' THEN e.at_ms END), MIN(CASE WHEN e.kind = 'verdict' THEN e.at_ms END) FROM submissions s JOIN submission_events e ON e.submission_id = s.id GROUP BY s.id ORDER BY s.id" \
  | awk -F'|' '{ path = (NR % 3 == 1) ? "local worker    " : (NR % 3 == 2) ? "Slurm, no pilot " : "Slurm, idle pilot"
                 printf "  %s #%s: queued to claimed %5.2f s, claimed to first run %4.2f s, first run to verdict %5.1f s\n", path, $1, ($3 - $2) / 1000, ($4 - $3) / 1000, ($5 - $4) / 1000 }'

# A tiny DDP job: the least a grade can run (2 processes, a few steps).
cat >"$WORK/tiny.py" <<'EOF'
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

def main():
    dist.init_process_group("gloo")
    model = DDP(torch.nn.Linear(4, 1))
    data = TensorDataset(torch.randn(16, 4), torch.randn(16, 1))
    sampler = DistributedSampler(data)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        sampler.set_epoch(epoch)
        for x, y in DataLoader(data, batch_size=4, sampler=sampler):
            opt.zero_grad()
            torch.nn.functional.mse_loss(model(x), y).backward()
            opt.step()
        if dist.get_rank() == 0:
            print(f"epoch {epoch} done")
    if dist.get_rank() == 0:
        torch.save(model.module.state_dict(), "model.pt")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
EOF
BODY=$(python3 -c 'import json,sys; print(json.dumps({"exercise": "ddp-conversion", "script": open(sys.argv[1]).read()}))' "$WORK/tiny.py")
echo "throughput: $JOBS tiny submissions at once, up to 4 pilots of 2 CPUs (Slurm node: $(sinfo --noheader --format=%c) CPUs configured, $(nproc) real)"
pilots_config 4 ', "--skip-speedup"'
"$BIN/lockstep-pilots" --config="$WORK/pilots.toml" 2>"$WORK/supervisor4.log" &
SUPERVISOR_PID=$!
FIRST=$(sqlite3 "$WORK/db.sqlite3" "SELECT COALESCE(MAX(id), 0) FROM submissions")
t0=$(now)
for i in $(seq 1 "$JOBS"); do
  curl -fs -o /dev/null -H "Authorization: Bearer $LOCKSTEP_TOKEN" -H "Content-Type: application/json" \
    --data "$BODY" "$SERVER/api/submissions"
done
t1=$(now)
while [ "$(sqlite3 "$WORK/db.sqlite3" "SELECT COUNT(*) FROM submissions WHERE id > $FIRST AND status IN ('graded', 'failed', 'cancelled')")" -lt "$JOBS" ]; do
  sleep 0.2
done
t2=$(now)
sqlite3 "$WORK/db.sqlite3" "SELECT verdict_status, COUNT(*) FROM submissions WHERE id > $FIRST GROUP BY verdict_status" | sed 's/^/  verdicts: /'
python3 -c "print(f'  {$JOBS} submitted in {$t1 - $t0:.1f} s; all graded {$t2 - $t0:.1f} s after the first: {$JOBS / ($t2 - $t0) * 60:.1f} submissions per minute')"
# Per job: its grade (started to verdict), and the worker's gap from one verdict to its next claim.
sqlite3 "$WORK/db.sqlite3" "SELECT e.submission_id, e.kind, e.at_ms, json_extract(e.data, '\$.worker') FROM submission_events e WHERE e.submission_id > $FIRST AND e.kind IN ('started', 'verdict') ORDER BY e.at_ms" \
  | python3 -c "
import sys, statistics as st
started, worker_of, last_verdict, grades, gaps, workers = {}, {}, {}, [], [], set()
for line in sys.stdin:
    sid, kind, at, worker = line.rstrip('\n').split('|')
    at = int(at)
    if kind == 'started':
        started[sid] = at; worker_of[sid] = worker; workers.add(worker)
        if worker in last_verdict:
            gaps.append(at - last_verdict.pop(worker))
    elif sid in started:
        grades.append(at - started[sid]); last_verdict[worker_of[sid]] = at
print(f'  {len(workers)} pilot worker(s); a grade, claimed to verdict: median {st.median(grades)/1000:.1f} s, max {max(grades)/1000:.1f} s')
if gaps:
    print(f'  a pilot from one verdict to its next claim: median {st.median(gaps)} ms, max {max(gaps)} ms')
"
echo "  pilots submitted: $(grep -o 'submitted Slurm job(s) [0-9, ]*' "$WORK/supervisor4.log" | sed 's/.*job(s) //' | tr ',' '\n' | grep -c .)"
# The ceiling the cores set: CPU seconds one grade's sandboxed run used (its cgroup), against the
# machine's cores.
sqlite3 "$WORK/db.sqlite3" "SELECT json_extract(verdict, '\$.runs[0].cpu.job_s'), json_extract(verdict, '\$.runs[0].wall_s') FROM submissions WHERE id > $FIRST" \
  | python3 -c "
import os, sys, statistics as st
rows = [tuple(map(float, l.split('|'))) for l in sys.stdin if l.strip() and 'None' not in l and l.split('|')[0]]
if rows:
    cpu = st.median(r[0] for r in rows)
    print(f'  one grade\'s torchrun: median {cpu:.1f} CPU s (wall {st.median(r[1] for r in rows):.1f} s with 4 at once); '
          f'{os.cpu_count()} cores allow at most {os.cpu_count() * 60 / cpu:.1f} such runs per minute')
"

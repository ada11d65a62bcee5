#!/usr/bin/env bash
# XP events per second through the server, over HTTP: wrk calls `explore_simulation` (what a
# lesson page calls when a simulation reaches its end) on the release server.
#   first:   no cookie, so every request is a new learner and a real insert (a learner row and
#            an event), the most an event can cost;
#   repeat:  one learner the same action, refused by the unique index (a replayed request).
# Each row is checked afterwards against the database: the events the server acknowledged with
# 200 are all there.
#
#   bash xtask/bench/xp_events.sh DATABASE_URL [connections] [seconds]   (defaults: 64, 10 s)
#
# DATABASE_URL: `sqlite://PATH?mode=rwc` or `postgres://USER:PASSWORD@HOST:PORT/DB`, an empty
# database that this writes to. Needs Debian's wrk (installed here if missing), and psql or
# sqlite3 to count the rows.
set -euo pipefail
cd "$(dirname "$0")/../.."
URL=${1:?usage: xp_events.sh DATABASE_URL [connections] [seconds]}
CONNS=${2:-64}
SECS=${3:-10}
PORT=3182
WORK=$(mktemp -d)

case "$URL" in
  sqlite:*) COUNTER=sqlite3 ;;
  postgres:*) COUNTER=postgresql-client ;;
  *) echo "DATABASE_URL must start with sqlite: or postgres:" >&2; exit 2 ;;
esac
for pkg in wrk "$COUNTER"; do
  bin=$pkg; [ "$pkg" = postgresql-client ] && bin=psql
  command -v "$bin" >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "$pkg"; }
done
cargo build --quiet --release --package lockstep-server --bin lockstep

cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

count() { # SQL → one number
  case "$URL" in
    sqlite:*) f=${URL#sqlite://}; sqlite3 "${f%%\?*}" "$1" ;;
    postgres:*) psql -qtA "$URL" -c "$1" ;;
  esac
}

ulimit -n 65536 2>/dev/null || true
LOCKSTEP_ADDR=127.0.0.1:$PORT DATABASE_URL="$URL" LOCKSTEP_SITE_ROOT=target/site RUST_LOG=warn \
  ./target/release/lockstep &
APP_PID=$!
for _ in $(seq 1 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.1; done

ENDPOINT="http://127.0.0.1:$PORT/api/explore_simulation"
cat > "$WORK/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = "slug=dataparallel&index=0"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Accept"] = "application/json"
wrk.headers["Sec-Fetch-Site"] = "same-origin"
LUA
COOKIE=$(curl -fs -D - -o /dev/null -X POST -H "Sec-Fetch-Site: same-origin" \
  -H "Content-Type: application/x-www-form-urlencoded" -d "slug=dataparallel&index=0" "$ENDPOINT" \
  | awk -F'[=;]' 'tolower($1) ~ /set-cookie: lockstep_learner/ { print $2 }')
[ -n "$COOKIE" ] || { echo "the first call set no learner cookie" >&2; exit 1; }

before=$(count "SELECT COUNT(*) FROM xp_events")
echo "== first (a new learner and event per request): wrk -t2 -c$CONNS -d${SECS}s"
wrk -t2 -c"$CONNS" -d"${SECS}s" --latency -s "$WORK/post.lua" "$ENDPOINT" | tee "$WORK/first.out" \
  | grep -E "requests in|Requests/sec|^ +(50|99)%|Non-2xx|Socket errors"
# Requests wrk sent before its deadline may still be writing: wait until the count settles.
settled() {
  local last=-1 now
  now=$(count "SELECT COUNT(*) FROM xp_events")
  while [ "$now" != "$last" ]; do last=$now; sleep 1; now=$(count "SELECT COUNT(*) FROM xp_events"); done
  echo "$now"
}
after=$(settled)
echo "== repeat (one learner, the same action): wrk -t2 -c$CONNS -d${SECS}s"
wrk -t2 -c"$CONNS" -d"${SECS}s" --latency -s "$WORK/post.lua" -H "Cookie: lockstep_learner=$COOKIE" \
  "$ENDPOINT" | tee "$WORK/repeat.out" \
  | grep -E "requests in|Requests/sec|^ +(50|99)%|Non-2xx|Socket errors"
final=$(settled)
mine=$(count "SELECT COUNT(*) FROM xp_events WHERE learner_id = '$COOKIE' AND reset_at IS NULL")

ok() { # wrk output → requests answered 2xx
  awk '/requests in/ { total = $1 } /Non-2xx/ { bad = $NF } END { print total - bad }' "$1"
}
echo "== check against the database"
echo "first:  $(ok "$WORK/first.out") answered 200 (wrk stops counting at the deadline, so a few more may land), $((after - before)) events stored"
echo "repeat: $((final - after)) events stored (must be 0); the learner has $mine event (must be 1)"
[ "$((final - after))" -eq 0 ] && [ "$mine" -eq 1 ] || { echo "a repeat was stored twice" >&2; exit 1; }
[ "$((after - before))" -ge "$(ok "$WORK/first.out")" ] || { echo "acknowledged events are missing" >&2; exit 1; }

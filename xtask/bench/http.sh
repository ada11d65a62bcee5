#!/usr/bin/env bash
# Load test: one lesson page from the release server, for an anonymous visitor and for
# signed-in learners (each request one of 64 accounts, with their own header: level, XP,
# account), against nginx serving the same HTML saved to a file. The page has COMMENTS
# comments under it first (threads and replies from ten learners, some with code), which the
# server renders for every request. Prints wrk's requests/s and latency percentiles for each,
# and each server's requests/s as a share of nginx's. Every request takes gzip, as browsers do,
# and nginx compresses too (gzip at level 4, as the app does), so both sides do that work.
#
#   bash xtask/bench/http.sh [connections] [seconds] [comments] [sqlite|postgres]
#                              (defaults: 256 connections, 20 s, 50 comments, sqlite)
#
# `postgres`: two app processes on one PostgreSQL database, as two machines behind a load
# balancer; the load is split evenly between them (one wrk per app, half the connections
# each, started together), requests/s are summed and the worse of the two latencies shown.
# It needs a server: run it as `cargo xtask with-services -- bash xtask/bench/http.sh … postgres`
# (or set LOCKSTEP_TEST_POSTGRES_URL to a role that may create databases).
#
# Needs: `cargo xtask build` done, Debian's wrk and nginx (installed here if missing).
# The load generator shares the machine with the servers (and the database), so compare the
# rows, not the absolute numbers with another machine's.
set -euo pipefail
cd "$(dirname "$0")/../.."
CONNS=${1:-256}
SECS=${2:-20}
COMMENTS=${3:-50}
BACKEND=${4:-sqlite}
PAGE=/lessons/dataparallel
WORK=$(mktemp -d)
APP_PORT=3180
NGINX_PORT=3181
SECOND_PORT=3182

for pkg in wrk nginx; do
  command -v "$pkg" >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "$pkg"; }
done
cargo build --quiet --release --package lockstep-server --bin lockstep

cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  [ -n "${SECOND_PID:-}" ] && kill "$SECOND_PID" 2>/dev/null || true
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

ulimit -n 65536 2>/dev/null || true
case $BACKEND in
  sqlite) DB="sqlite://$WORK/bench.sqlite3?mode=rwc" ;;
  postgres)
    BASE=${LOCKSTEP_TEST_POSTGRES_URL:?"run it through cargo xtask with-services (see the top of this script)"}
    psql -q "$BASE" -c "DROP DATABASE IF EXISTS bench_http" -c "CREATE DATABASE bench_http"
    DB="${BASE%/*}/bench_http" ;;
  *) echo "backend: sqlite or postgres, not $BACKEND" >&2; exit 2 ;;
esac
app() { # port
  # The benchmark's learners all sign up from one address: lift the per-address sign-up limit.
  LOCKSTEP_ADDR=127.0.0.1:$1 DATABASE_URL="$DB" LOCKSTEP_SIGN_UPS_PER_HOUR=1000 \
    LOCKSTEP_SITE_ROOT=target/site RUST_LOG=warn ./target/release/lockstep 2> "$WORK/app$1.log" &
}
app "$APP_PORT"
APP_PID=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$APP_PORT$PAGE" -o "$WORK/page.html" && break; sleep 0.1; done
APPS=("http://127.0.0.1:$APP_PORT")
if [ "$BACKEND" = postgres ]; then
  # Started once the first has applied the migrations.
  app "$SECOND_PORT"
  SECOND_PID=$!
  for _ in $(seq 1 100); do curl -fs -o /dev/null "http://127.0.0.1:$SECOND_PORT$PAGE" && break; sleep 0.1; done
  APPS+=("http://127.0.0.1:$SECOND_PORT")
fi

# Learners with accounts, each request one of them, so that nothing learner-specific is
# served from a previous request.
LEARNERS=64
for i in $(seq 1 $LEARNERS); do
  curl -fs -o /dev/null -c "$WORK/jar$i" -H "Sec-Fetch-Site: same-origin" \
    --data-urlencode "email=bench$i@example.org" --data-urlencode "password=steady state throughput" \
    "http://127.0.0.1:$APP_PORT/account/sign-up"
  awk '$6 == "lockstep_session" { print $7 }' "$WORK/jar$i"
done > "$WORK/sessions"
[ "$(grep -c . "$WORK/sessions")" -eq "$LEARNERS" ] || { echo "signing up the benchmark learners failed" >&2; exit 1; }

# The comments: every fifth a new thread, the others replies to the latest thread; ten
# authors in turn (each stays under the ten-in-ten-minutes limit up to 100 comments).
thread=""
for n in $(seq 1 "$COMMENTS"); do
  author=$(( (n - 1) % 10 + 1 ))
  body="Comment $n: why does \`DistributedSampler\` need \`set_epoch\`?

\`\`\`python
sampler.set_epoch(epoch)  # comment $n
\`\`\`"
  parent=$([ $(( (n - 1) % 5 )) -eq 0 ] && echo "" || echo "$thread")
  location=$(curl -fs -o /dev/null -D - -b "$WORK/jar$author" -H "Sec-Fetch-Site: same-origin" \
    --data-urlencode "place=lesson:dataparallel" --data-urlencode "parent=$parent" --data-urlencode "body=$body" \
    "http://127.0.0.1:$APP_PORT/comments" | tr -d '\r' | awk 'tolower($1) == "location:" { print $2 }')
  [ -z "$parent" ] && thread=${location##*#comment-}
done
shown=$(curl -fs "http://127.0.0.1:$APP_PORT$PAGE" | { grep -o 'id="comment-[0-9]*"' || true; } | wc -l)
[ "$shown" -eq "$COMMENTS" ] || { echo "the page shows $shown comments, not $COMMENTS" >&2; exit 1; }
curl -fs "http://127.0.0.1:$APP_PORT$PAGE" -o "$WORK/page.html"

chmod 755 "$WORK"
mkdir -p "$WORK/www/lessons"
cp "$WORK/page.html" "$WORK/www/lessons/dataparallel"
chmod -R a+rX "$WORK/www"   # nginx workers run as an unprivileged user
cat > "$WORK/nginx.conf" <<CONF
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  default_type text/html;
  gzip on; gzip_comp_level 4; gzip_min_length 32;
  client_body_temp_path $WORK/tmp; proxy_temp_path $WORK/tmp; fastcgi_temp_path $WORK/tmp;
  uwsgi_temp_path $WORK/tmp; scgi_temp_path $WORK/tmp;
  server { listen 127.0.0.1:$NGINX_PORT; root $WORK/www; }
}
CONF
mkdir -p "$WORK/tmp"
nginx -c "$WORK/nginx.conf"
sleep 0.5

# A refused sign-up still leaves a session cookie: check that every learner is signed in.
# (grep reads the whole page: `grep -q` would stop early and fail curl's write under pipefail.)
# On every app: a session made on one is good on the other.
for base in "${APPS[@]}"; do
  while read -r session; do
    curl -fs "$base$PAGE" -H "Cookie: lockstep_session=$session" \
      | grep "Signed in as" >/dev/null || { echo "a benchmark learner is not signed in on $base" >&2; exit 1; }
  done < "$WORK/sessions"
done
{
  echo 'local sessions = {'
  sed 's/.*/"&",/' "$WORK/sessions"
  echo '}'
  echo 'local n = 0'
  echo 'request = function()'
  echo '  n = n + 1'
  echo '  return wrk.format(nil, nil, { Cookie = "lockstep_session=" .. sessions[n % #sessions + 1], ["Accept-Encoding"] = "gzip" })'
  echo 'end'
} > "$WORK/learners.lua"

gzipped=$(curl -fs -H "Accept-Encoding: gzip" "http://127.0.0.1:$APP_PORT$PAGE" | wc -c)
echo "page: $PAGE with $COMMENTS comments, $(wc -c < "$WORK/page.html") bytes of HTML ($gzipped gzipped); $BACKEND, ${#APPS[@]} app process(es); wrk -c$CONNS -d${SECS}s --latency"
# A name, then wrk's options and URL (the page of every app in turn); one wrk per app, the
# connections split between them, all started at once.
run() { # name path [wrk options]
  local name=$1 path=$2 n=${#APPS[@]} i=0 pids=()
  shift 2
  echo "== $name"
  for base in "${APPS[@]}"; do
    wrk -t$(( 2 / n )) -c$(( CONNS / n )) -d"${SECS}s" --latency "$@" "$base$path" > "$WORK/$name.$i.out" &
    pids+=($!)
    i=$((i + 1))
  done
  wait "${pids[@]}"
  cat "$WORK/$name".*.out > "$WORK/$name.out"
  # Requests/s summed over the apps; of each percentile, the worst app's.
  awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { rps += $2 }
    /^ +(50|90|99)%/ { p = $1; if (ms($2) > worst[p]) worst[p] = ms($2) }
    /Non-2xx|Socket errors/ { print }
    END {
      printf "Requests/sec: %.2f\n", rps
      for (p in worst) printf "  %s %.2fms\n", p, worst[p]
    }' "$WORK/$name.out" | sort -r | tee "$WORK/$name.sum"
}
APPS_ALL=("${APPS[@]}")
APPS=("http://127.0.0.1:$NGINX_PORT")
GZIP=(-H "Accept-Encoding: gzip")
run nginx "$PAGE" "${GZIP[@]}"
APPS=("${APPS_ALL[@]}")
run anonymous "$PAGE" "${GZIP[@]}"
run signed-in "$PAGE" -s "$WORK/learners.lua"
rps() { awk '/Requests\/sec/ { print $2 }' "$WORK/$1.sum"; }
# A request that went wrong is a warning in an app's log: say how many, and the first.
for log in "$WORK"/app*.log; do
  n=$(grep -c -e WARN -e ERROR "$log" || true)
  [ "$n" -eq 0 ] || echo "$(basename "$log"): $n warnings and errors, the first: $(grep -m1 -e WARN -e ERROR "$log")"
done
echo "== share of nginx's requests/s (goal: anonymous >= 50%, signed-in >= 25%; p99 < 50 ms on postgres)"
for who in anonymous signed-in; do
  awk -v a="$(rps "$who")" -v n="$(rps nginx)" -v w="$who" 'BEGIN { printf "%-10s %6.1f%%\n", w, 100 * a / n }'
done

#!/usr/bin/env bash
# Load test: one lesson page from the release server against nginx serving the same HTML
# saved to a file. Prints wrk's requests/s and latency percentiles for both.
#
#   bash xtask/bench/http.sh [connections] [seconds]     (defaults: 256 connections, 20 s)
#
# Needs: `cargo xtask build` done, Debian's wrk and nginx (installed here if missing).
# The load generator shares the machine with the server, so compare the two rows, not the
# absolute numbers with another machine's.
set -euo pipefail
cd "$(dirname "$0")/../.."
CONNS=${1:-256}
SECS=${2:-20}
PAGE=/lessons/dataparallel
WORK=$(mktemp -d)
APP_PORT=3180
NGINX_PORT=3181

for pkg in wrk nginx; do
  command -v "$pkg" >/dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "$pkg"; }
done
cargo build --quiet --release --package lockstep-server --bin lockstep

cleanup() {
  [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null || true
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

ulimit -n 65536 2>/dev/null || true
LOCKSTEP_ADDR=127.0.0.1:$APP_PORT DATABASE_URL="sqlite://$WORK/bench.sqlite3?mode=rwc" \
  LOCKSTEP_SITE_ROOT=target/site RUST_LOG=warn ./target/release/lockstep &
APP_PID=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$APP_PORT$PAGE" -o "$WORK/page.html" && break; sleep 0.1; done

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
  client_body_temp_path $WORK/tmp; proxy_temp_path $WORK/tmp; fastcgi_temp_path $WORK/tmp;
  uwsgi_temp_path $WORK/tmp; scgi_temp_path $WORK/tmp;
  server { listen 127.0.0.1:$NGINX_PORT; root $WORK/www; }
}
CONF
mkdir -p "$WORK/tmp"
nginx -c "$WORK/nginx.conf"
sleep 0.5

echo "page: $PAGE, $(wc -c < "$WORK/page.html") bytes of HTML; wrk -t2 -c$CONNS -d${SECS}s --latency"
for target in "lockstep http://127.0.0.1:$APP_PORT$PAGE" "nginx http://127.0.0.1:$NGINX_PORT$PAGE"; do
  set -- $target
  echo "== $1"
  wrk -t2 -c"$CONNS" -d"${SECS}s" --latency "$2" | grep -E "Requests/sec|Transfer/sec|^ +(50|90|99)%|Non-2xx|Socket errors"
done

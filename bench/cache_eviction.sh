#!/usr/bin/env bash
# Query-busting cold masters against a small in-memory cache: every request is a new `?q=N`, so each
# one is a miss that stores a fetched and a rewritten master. Prints req/s (and latency) while the
# cache is still filling and again once it is full, when every store has to evict.
#
#   bench/cache_eviction.sh                      # this tree's release build
#   PROXY_BIN=/path/to/hls-subtitle-proxy bench/cache_eviction.sh   # any other build
#
# Environment: MAX_BYTES (cache.max_bytes, 32 MiB), DURATION (seconds per measured run, 5),
# CONNECTIONS (wrk connections, 32), SKIP_BUILD=1. Ports 22100-22101 on loopback. About 30 s.
set -euo pipefail

MAX_BYTES=${MAX_BYTES:-33554432}
DURATION=${DURATION:-5}
CONNECTIONS=${CONNECTIONS:-32}
PROXY_PORT=22100
ORIGIN_PORT=22101

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/cache-eviction.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
log() { echo "# $*" >&2; }

command -v wrk >/dev/null && { command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; } || {
    log "installing wrk and nginx"
    apt-get update -qq && apt-get install -y -qq wrk nginx-light >/dev/null
}
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if [ -z "${PROXY_BIN:-}" ] && [ -z "${SKIP_BUILD:-}" ]; then
    log "building release"
    (cd "$ROOT" && swift build -c release --product hls-subtitle-proxy 2>&1 | tail -1) >&2
fi
PROXY=${PROXY_BIN:-"$ROOT/.build/release/hls-subtitle-proxy"}

# The origin: nginx serving the fixture VOD (a query does not change the file it serves).
mkdir -p "$WORK/www/vod"
cp -r "$ROOT/Tests/Fixtures/vod-ts/." "$WORK/www/vod/"
cat > "$WORK/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 100000000;
    types { application/vnd.apple.mpegurl m3u8; }
    server { listen 127.0.0.1:$ORIGIN_PORT; root $WORK/www; location = /healthz { return 200 "ok\n"; } }
}
EOF
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK" &
PIDS+=($!)

cat > "$WORK/proxy.json" <<EOF
{
  "listen": { "host": "127.0.0.1", "port": $PROXY_PORT },
  "mounts": { "sample": { "origin": "http://127.0.0.1:$ORIGIN_PORT/vod" } },
  "subtitles": [ { "name": "bench", "masters": ["/sample/master.m3u8"],
    "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "$ROOT/Tests/Fixtures/subtitles/en.vtt" } ] } ],
  "cache": { "master_ttl_seconds": 3600, "max_bytes": $MAX_BYTES },
  "log_level": "error"
}
EOF
HLS_PROXY_ACCESS_LOG=off "$PROXY" --config "$WORK/proxy.json" > /dev/null 2> "$WORK/proxy.err" &
PROXY_PID=$!
PIDS+=($PROXY_PID)
for port in $PROXY_PORT $ORIGIN_PORT; do
    for _ in $(seq 1 200); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.05; done
done

# Each wrk thread counts from its own base, so no two requests in a run (or across runs) share a query.
cat > "$WORK/bust.lua" <<'EOF'
local threads = 0
function setup(thread) threads = threads + 1; thread:set("base", (os.time() % 100000) * 100000000 + threads * 10000000) end
function init(args) n = base end
function request() n = n + 1; return wrk.format("GET", "/sample/master.m3u8?q=" .. n) end
EOF

cache_bytes() { curl -sf "http://127.0.0.1:$PROXY_PORT/metrics" | awk '/^hls_proxy_cache_bytes\{cache="master"\}/ { print $2 }'; }
run() { # LABEL SECONDS
    local out
    out=$(wrk -t2 -c"$CONNECTIONS" -d"$2"s --latency -s "$WORK/bust.lua" "http://127.0.0.1:$PROXY_PORT/" 2>&1)
    local rps p50 p99 health
    rps=$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' <<< "$out")
    p50=$(awk '$1 == "50%" { print $2 }' <<< "$out")
    p99=$(awk '$1 == "99%" { print $2 }' <<< "$out")
    printf '%-28s %8s req/s   p50 %-8s p99 %-8s rewritten-master cache %s bytes\n' "$1" "$rps" "$p50" "$p99" "$(cache_bytes)"
}

quarter=$((MAX_BYTES / 4))
log "proxy $PROXY, cache.max_bytes $MAX_BYTES (rewritten masters get $quarter)"
run "before the cache fills" 1
# Fill: keep busting until the rewritten-master share is within one master of full.
for _ in $(seq 1 60); do
    [ "$(cache_bytes)" -ge $((quarter - 4096)) ] && break
    wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/bust.lua" "http://127.0.0.1:$PROXY_PORT/" > /dev/null 2>&1
done
run "after (every store evicts)" "$DURATION"
# Another route while the cold masters keep evicting: a cached master's latency.
curl -sf -o /dev/null "http://127.0.0.1:$PROXY_PORT/sample/master.m3u8"
wrk -t1 -c"$CONNECTIONS" -d"$DURATION"s -s "$WORK/bust.lua" "http://127.0.0.1:$PROXY_PORT/" > /dev/null 2>&1 &
BUSTER=$!
sleep 1
probe=$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$PROXY_PORT/healthz")
wait $BUSTER || true
printf '%-28s %8s s for /healthz while cold masters evict\n' "health probe" "$probe"

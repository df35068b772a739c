#!/usr/bin/env bash
# A huge sidecar: a ~27 MB WebVTT with 1,000,000 cues, served by a local origin, far larger than the
# subtitle cache's share. Fires 48 concurrent requests for its first segment at a fresh proxy and
# prints the proxy's peak RSS (VmHWM) and the total time, then does it again with the proxy warm.
#
#   bench/large_sidecar.sh                                        # this tree's release build
#   PROXY_BIN=/path/to/hls-subtitle-proxy bench/large_sidecar.sh  # any other build
#   LIMITS='"max_subtitle_cues": 2000000' bench/large_sidecar.sh  # extra limits (here: no cue cap)
#
# Environment: REQUESTS (concurrent requests, 48), LIMITS (extra JSON members of `limits`), SKIP_BUILD=1.
# Ports 22110-22111 on loopback.
set -euo pipefail

REQUESTS=${REQUESTS:-48}
LIMITS=${LIMITS:-}
PROXY_PORT=22110
ORIGIN_PORT=22111

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/large-sidecar.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
log() { echo "# $*" >&2; }

command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { log "installing nginx"; apt-get update -qq && apt-get install -y -qq nginx-light >/dev/null; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if [ -z "${PROXY_BIN:-}" ] && [ -z "${SKIP_BUILD:-}" ]; then
    log "building release"
    (cd "$ROOT" && swift build -c release --product hls-subtitle-proxy 2>&1 | tail -1) >&2
fi
PROXY=${PROXY_BIN:-"$ROOT/.build/release/hls-subtitle-proxy"}

# The origin: the fixture VOD plus big.vtt, 1,000,000 cues of 3.6 ms each within the hour (27 bytes a cue).
mkdir -p "$WORK/www/vod"
cp -r "$ROOT/Tests/Fixtures/vod-ts/." "$WORK/www/vod/"
python3 - "$WORK/www/vod/big.vtt" <<'EOF'
import sys
def stamp(ms):
    return "%02d:%02d.%03d" % (ms // 60000, ms // 1000 % 60, ms % 1000)
with open(sys.argv[1], "w") as out:
    out.write("WEBVTT\n\n")
    out.writelines("%s --> %s\nx\n\n" % (stamp(i * 36 // 10), stamp(i * 36 // 10 + 3)) for i in range(1_000_000))
EOF
log "big.vtt: $(stat -c %s "$WORK/www/vod/big.vtt") bytes, $(grep -c -- '-->' "$WORK/www/vod/big.vtt") cues"
cat > "$WORK/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    types { application/vnd.apple.mpegurl m3u8; text/vtt vtt; }
    server { listen 127.0.0.1:$ORIGIN_PORT; root $WORK/www; location = /healthz { return 200 "ok\n"; } }
}
EOF
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK" &
PIDS+=($!)

cat > "$WORK/proxy.json" <<EOF
{
  "listen": { "host": "127.0.0.1", "port": $PROXY_PORT },
  "mounts": { "sample": { "origin": "http://127.0.0.1:$ORIGIN_PORT/vod" } },
  "subtitles": [ { "name": "big", "masters": ["/sample/master.m3u8"],
    "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "big.vtt" } ] } ],
  "timeouts": { "origin_seconds": 60 },
  "limits": { "max_subtitle_bytes": 67108864 ${LIMITS:+, $LIMITS} },
  "log_level": "error"
}
EOF
HLS_PROXY_ACCESS_LOG=off "$PROXY" --config "$WORK/proxy.json" > /dev/null 2> "$WORK/proxy.err" &
PROXY_PID=$!
PIDS+=($PROXY_PID)
for port in $PROXY_PORT $ORIGIN_PORT; do
    for _ in $(seq 1 200); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.05; done
done

# The first segment's URL, as the rewritten master and the subtitle playlist give it.
PLAYLIST=$(curl -sf "http://127.0.0.1:$PROXY_PORT/sample/master.m3u8" | sed -n 's/.*TYPE=SUBTITLES.*URI="\([^"]*\)".*/\1/p' | head -1)
SEGMENT="http://127.0.0.1:$PROXY_PORT${PLAYLIST%index.m3u8}0.vtt"
log "proxy $PROXY; $REQUESTS concurrent requests for $SEGMENT"

burst() { # LABEL
    local started ended statuses
    started=$(date +%s.%N)
    statuses=$(seq "$REQUESTS" | xargs -P "$REQUESTS" -I{} curl -s -o /dev/null --max-time 120 -w '%{http_code}\n' "$SEGMENT" | sort | uniq -c | tr -s ' \n' ' ')
    ended=$(date +%s.%N)
    printf '%-18s total %6.2f s   peak RSS (VmHWM) %6d MB   statuses:%s\n' "$1" "$(awk -v a="$started" -v b="$ended" 'BEGIN { print b - a }')" \
        "$(( $(awk '/^VmHWM/ { print $2 }' "/proc/$PROXY_PID/status") / 1024 ))" "$statuses"
}
burst "cold proxy"
burst "warm proxy"
cues=$(curl -s "$SEGMENT" | grep -c -- '-->' || true)
printf '%-18s %d cues in the first segment; capped sources: %s\n' "result" "$cues" \
    "$(curl -sf "http://127.0.0.1:$PROXY_PORT/metrics" | awk '/^hls_proxy_subtitle_cues_capped_total/ { print $2 }')"

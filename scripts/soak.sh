#!/usr/bin/env bash
# scripts/soak.sh [MINUTES]: mixed load on a release build for MINUTES (default 5), sampling the proxy's RSS
# and open fds every 10 s. Passes with no unexpected status and < 5 % RSS growth after warm-up.
# Origin: python's http.server on Tests/Fixtures; faults: a refusing origin, 404s, a refused host.
set -euo pipefail
MINUTES=${1:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROXY_PORT=${PROXY_PORT:-18280}
ORIGIN_PORT=${ORIGIN_PORT:-18281}
WORK=$(mktemp -d /tmp/hls-soak.XXXXXX)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

cd "$ROOT"
[ "${SKIP_BUILD:-0}" = 1 ] || swift build -c release --product hls-subtitle-proxy >&2
BIN="$(swift build -c release --show-bin-path)/hls-subtitle-proxy"

python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$ROOT/Tests/Fixtures" >/dev/null 2>&1 &
PIDS+=($!)
cat > "$WORK/soak.json" <<JSON
{
  "listen": { "host": "127.0.0.1", "port": $PROXY_PORT },
  "mounts": {
    "o": { "origin": "http://127.0.0.1:$ORIGIN_PORT" },
    "f": { "origin": "$ROOT/Tests/Fixtures" },
    "dead": { "origin": "http://127.0.0.1:9" }
  },
  "embedded": { "allow_hosts": ["media.example.com"] },
  "subtitles": [
    { "name": "soak", "masters": ["/o/*/master.m3u8", "/dead/master.m3u8"],
      "tracks": [
        { "id": "en", "name": "English", "language": "en", "default": true, "source": "/subtitles/en.vtt" },
        { "id": "es", "name": "Español", "language": "es", "source": "/subtitles/es.srt", "mode": "single" },
        { "id": "xx", "name": "Missing", "language": "de", "source": "/subtitles/missing.vtt" }
      ] }
  ],
  "cache": { "master_ttl_seconds": 1, "subtitle_ttl_seconds": 5 },
  "access_log": false
}
JSON
"$BIN" --config "$WORK/soak.json" --log-level error &
PROXY=$!
PIDS+=($PROXY)
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$PROXY_PORT/healthz" >/dev/null && break; sleep 0.2; done
python3 "$ROOT/scripts/soak.py" "$MINUTES" "$PROXY_PORT" "$PROXY"

#!/usr/bin/env bash
# Tracks from the app's backend (`tracks_url`) against static tracks, same run, same origin:
#   cold:   master cache off (and the tracks cache off): p50 of a master request through a set with
#           `tracks_url` (one backend GET per master) minus p50 through a set with the same track
#           written in the config; sequential keep-alive requests, the two proxies alternated.
#   cached: master and tracks caches on: wrk req/s through the `tracks_url` set over req/s through
#           the static set (target: within 10 %), medians of ROUNDS alternated runs.
#
#   bench/tracks-backend.sh                                        # this tree's release build
#   PROXY_BIN=/path/to/hls-subtitle-proxy bench/tracks-backend.sh  # any other build
#   REQUESTS=500 DURATION=5 ROUNDS=5 CONNECTIONS=16 SKIP_BUILD=1 PORT_BASE=21600 bench/tracks-backend.sh
#
# The origin and the backend are one small Python HTTP/1.1 server (keep-alive, Content-Length) on
# loopback: the fixture VOD under /assets/a1/, the backend's answer at /api/assets/a1/subtitles.
# Needs the merged build, where `masters` captures (`{asset}`) fill `tracks_url`: with a build that
# does not wire `tracks_url` into the master yet, it says so and exits 3 before measuring.
# Ports PORT_BASE+1 to PORT_BASE+13 on loopback (PORT_BASE=21200 unless set).
set -euo pipefail

REQUESTS=${REQUESTS:-300}
DURATION=${DURATION:-5}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-16}
PORT_BASE=${PORT_BASE:-21200}
ORIGIN_PORT=$((PORT_BASE + 1))
STATIC_COLD=$((PORT_BASE + 10))
BACKEND_COLD=$((PORT_BASE + 11))
STATIC_CACHED=$((PORT_BASE + 12))
BACKEND_CACHED=$((PORT_BASE + 13))

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/tracks-backend.XXXXXX)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
log() { echo "# $*" >&2; }

command -v wrk >/dev/null || { log "installing wrk"; apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
command -v curl >/dev/null || { log "installing curl"; apt-get update -qq && apt-get install -y -qq curl >/dev/null; }

if [ -z "${PROXY_BIN:-}" ] && [ -z "${SKIP_BUILD:-}" ]; then
    log "building release"
    (cd "$ROOT" && swift build -c release --product hls-subtitle-proxy 2>&1 | tail -1) >&2
fi
PROXY=${PROXY_BIN:-"$ROOT/.build/release/hls-subtitle-proxy"}

# The origin and the backend.
mkdir -p "$WORK/www/assets/a1" "$WORK/www/api/assets/a1" "$WORK/www/subs"
cp -r "$ROOT/Tests/Fixtures/vod-ts/." "$WORK/www/assets/a1/"
printf 'WEBVTT\n\n00:00.000 --> 00:02.000\nHello\n' >"$WORK/www/subs/en.vtt"
cat >"$WORK/www/api/assets/a1/subtitles" <<JSON
{"tracks": [{"id": "en", "name": "Backend English", "language": "en", "default": true,
             "source": "http://127.0.0.1:$ORIGIN_PORT/subs/en.vtt"}]}
JSON
cat >"$WORK/server.py" <<'PY'
import http.server, os, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # One write per response, sent at once: a head and a body written apart would meet Nagle and the
    # peer's delayed ACK (40 ms) on a kept-alive connection, and measure that instead.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True
    def log_message(self, *args): pass
os.chdir(sys.argv[2])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
python3 "$WORK/server.py" "$ORIGIN_PORT" "$WORK/www" & PIDS+=($!)

# config PORT MASTER_TTL TRACKS_TTL KIND: KIND "static" writes the track into the config, "backend"
# names the backend instead.
config() {
    local set
    if [ "$4" = static ]; then
        set='"masters": ["/vod/a1/master.m3u8"], "tracks": [{"id": "en", "name": "English", "language": "en", "default": true, "source": "http://127.0.0.1:'$ORIGIN_PORT'/subs/en.vtt"}]'
    else
        set='"masters": ["/vod/{asset}/master.m3u8"], "tracks_url": "http://127.0.0.1:'$ORIGIN_PORT'/api/assets/{asset}/subtitles", "source_hosts": ["127.0.0.1"]'
    fi
    cat >"$WORK/proxy-$1.json" <<JSON
{ "listen": { "host": "127.0.0.1", "port": $1 },
  "mounts": { "vod": { "origin": "http://127.0.0.1:$ORIGIN_PORT/assets" } },
  "subtitles": [ { "name": "bench", $set } ],
  "cache": { "master_ttl_seconds": $2, "tracks_ttl_seconds": $3 },
  "access_log": false, "log_level": "error" }
JSON
    "$PROXY" --config "$WORK/proxy-$1.json" >/dev/null 2>"$WORK/proxy-$1.log" & PIDS+=($!)
}
config $STATIC_COLD 0 0 static
config $BACKEND_COLD 0 0 backend
config $STATIC_CACHED 60 60 static
config $BACKEND_CACHED 60 60 backend

MASTER=/vod/a1/master.m3u8
# Ready: the origin's master, and each proxy's /healthz.
for url in "http://127.0.0.1:$ORIGIN_PORT/assets/a1/master.m3u8" "http://127.0.0.1:"{$STATIC_COLD,$BACKEND_COLD,$STATIC_CACHED,$BACKEND_CACHED}/healthz; do
    for _ in $(seq 100); do curl -fs -o /dev/null "$url" && break; sleep 0.1; done
done
for port in $STATIC_COLD $STATIC_CACHED; do
    curl -fs "http://127.0.0.1:$port$MASTER" | grep -q 'NAME="English"' || { log "the static master on $port has no subtitle track"; cat "$WORK/proxy-$port.log" >&2; exit 1; }
done
for port in $BACKEND_COLD $BACKEND_CACHED; do
    if ! curl -fs "http://127.0.0.1:$port$MASTER" | grep -q 'NAME="Backend English"'; then
        log "the master through tracks_url on $port has no backend track: this build does not wire tracks_url into masters yet"
        exit 3
    fi
done

log "cold: $REQUESTS sequential keep-alive master requests per side, alternated"
python3 - "$REQUESTS" $STATIC_COLD $BACKEND_COLD "$MASTER" <<'PY'
import http.client, statistics, sys, time
count, static_port, backend_port, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
connections = {port: http.client.HTTPConnection("127.0.0.1", port) for port in (static_port, backend_port)}
times = {static_port: [], backend_port: []}
for _ in range(count):
    for port in (static_port, backend_port):
        started = time.perf_counter()
        connections[port].request("GET", path)
        response = connections[port].getresponse()
        response.read()
        times[port].append((time.perf_counter() - started) * 1000)
        assert response.status == 200, response.status
static, backend = statistics.median(times[static_port]), statistics.median(times[backend_port])
print("cold master p50: static %.3f ms, tracks_url %.3f ms, overhead %.3f ms (%.0f %%)" % (static, backend, backend - static, (backend / static - 1) * 100))
PY

log "cached: wrk -t1 -c$CONNECTIONS -d${DURATION}s per side, $ROUNDS rounds alternated"
rate() { wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "http://127.0.0.1:$1$MASTER" | awk '/Requests\/sec/ {print $2}'; }
STATIC_RATES=()
BACKEND_RATES=()
for _ in $(seq "$ROUNDS"); do
    STATIC_RATES+=("$(rate $STATIC_CACHED)")
    BACKEND_RATES+=("$(rate $BACKEND_CACHED)")
done
python3 - "${STATIC_RATES[*]}" "${BACKEND_RATES[*]}" <<'PY'
import statistics, sys
static = statistics.median(float(x) for x in sys.argv[1].split())
backend = statistics.median(float(x) for x in sys.argv[2].split())
print("cached master req/s: static %.0f, tracks_url %.0f, ratio %.3f (target >= 0.90)" % (static, backend, backend / static))
PY

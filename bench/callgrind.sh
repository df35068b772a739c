#!/usr/bin/env bash
# Instructions per request, route by route, counted by callgrind: repeatable whatever else the machine
# is doing, so two builds can be compared on a noisy box.
#
#   bench/callgrind.sh BINARY [BINARY_B]     # each route: 200 warm-up requests, then 2,000 counted
#   N=5000 ROUTES="redirect master" LOGS=on bench/callgrind.sh OLD NEW
#   ROUTES="proxied disk" PORT=21400 ORIGIN_PORT=21401 bench/callgrind.sh OLD NEW
#
# BINARY should be the static build (bench/run.sh builds one at .build/static/release); valgrind 3.19
# crashes in libdispatch's signal thread on the dynamically linked one. The proxy serves the bundled
# sample from a directory mount and has a redirect mount whose origin is never contacted. Requests go
# one at a time over 16 keep-alive connections, as wrk spreads them. The count includes everything the
# process ran between zeroing and dumping: the loop, the handler, and the log line when LOGS=on.
# `proxied` and `disk` (not in the default list) send a segment from an http origin (python3 -m
# http.server on ORIGIN_PORT) through a proxy mount: every request through the origin client, or,
# with a disk cache, from the stored file (the first warm-up request fills it).
# `signed-vtt` (not in the default list) asks for the first WebVTT file of a signed playback URL's
# track (tools/sign.py signs the sample's English track): token verification on every request.
# `viewer` (not in the default list) cycles through the directory mount's viewer mix, the 19 paths
# `ONLY=viewer bench/run.sh` times (`viewer_paths.py`), with that run's three-track set; its file
# requests include the component-by-component walk (about 8,000 instructions, 8 paths of 19).
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 BINARY [BINARY_B]" >&2; exit 2; }
N=${N:-2000}
WARMUP=${WARMUP:-200}
LOGS=${LOGS:-off}
PORT=${PORT:-18190}
ORIGIN_PORT=${ORIGIN_PORT:-18191}
ROUTES=${ROUTES:-"health redirect master variant segment subtitle-playlist subtitle"}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind > /dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
WORK=$(mktemp -d /tmp/hls-callgrind.XXXXXX)
VG_PID=
ORIGIN_PID=
cleanup() {
    [ -n "$VG_PID" ] && kill "$VG_PID" 2>/dev/null || true
    [ -n "$ORIGIN_PID" ] && kill "$ORIGIN_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    [ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

proxy_config() { # FILE [DISK_CACHE_DIRECTORY]
    local disk=""
    [ -n "${2:-}" ] && disk=", \"disk_directory\": \"$2\", \"disk_max_bytes\": 1073741824"
    cat > "$1" <<EOF
{
  "listen": { "host": "127.0.0.1", "port": $PORT },
  "mounts": {
    "sample": { "origin": "$ROOT/Examples/sample-vod" },
    "redir": { "origin": "http://127.0.0.1:9/vod/", "segments": "redirect" },
    "bucket": { "origin": "http://127.0.0.1:$ORIGIN_PORT/", "segments": "proxy" }
  },
  "subtitles": [
    { "name": "sample", "masters": ["/sample/master.m3u8"], "group_id": "subs",
      "tracks": [ { "id": "en", "name": "English", "language": "en", "default": true, "autoselect": true,
                    "source": "subs/en.vtt", "mode": "segmented" } ] }
  ],
  "cache": { "master_ttl_seconds": 3600, "subtitle_ttl_seconds": 3600$disk },
  "signing": { "keys": { "k1": "$SIGNING_KEY" } },
  "log_level": "warn",
  "access_log": $([ "$LOGS" = on ] && echo true || echo false)
}
EOF
}
SIGNING_KEY=callgrind-bench-key-0123456789abcdef
echo '[{"id": "en", "name": "English", "language": "en", "default": true, "source": "subs/en.vtt"}]' > "$WORK/tracks.json"
SIGNED_MASTER=$(python3 "$ROOT/tools/sign.py" --key-id k1 --key "$SIGNING_KEY" --master /sample/master.m3u8 --tracks "$WORK/tracks.json")
proxy_config "$WORK/proxy.json"
# The viewer route's proxy: run.sh's viewer mix on a directory mount.
sed -e "s|@PORT@|$PORT|" -e "s|@MOUNTS@|\"files\": { \"origin\": \"$ROOT/Examples/sample-vod\" }|" \
    -e "s|@MASTERS@|\"/files/master.m3u8\"|" -e "s|@LOG_LEVEL@|warn|" \
    -e "s|@ACCESS_LOG@|$([ "$LOGS" = on ] && echo true || echo false)|" \
    "$ROOT/bench/viewer.json.template" > "$WORK/viewer.json"
case " $ROUTES " in
    *" proxied "*|*" disk "*)
        python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$ROOT/Examples/sample-vod" > "$WORK/origin.log" 2>&1 &
        ORIGIN_PID=$!
        for _ in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$ORIGIN_PORT/master.m3u8" && break; sleep 0.1; done
        ;;
esac

# Sends WARMUP requests for the route, waits for a line on stdin, sends N, waits again.
cat > "$WORK/client.py" <<'EOF'
import re, socket, sys
port, route, warmup, count, signed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(16)]
buffers = [b""] * 16
def get(i, path):
    conns[i].sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: bench\r\n\r\n")
    data = buffers[i]
    while b"\r\n\r\n" not in data:
        data += conns[i].recv(65536)
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    m = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    length = int(m.group(1)) if m else 0
    while len(rest) < length:
        rest += conns[i].recv(65536)
    buffers[i] = rest[length:]
    return status, rest[:length]
def first_uri(body, pattern):
    for line in body.decode().splitlines():
        if line and not line.startswith("#") and re.search(pattern, line):
            return line
    m = re.search(r'URI="([^"]+)"', body.decode())
    return m.group(1) if m else None
paths = {"health": "/healthz", "redirect": "/redir/v0/seg000.ts", "master": "/sample/master.m3u8",
         "variant": "/sample/v0/index.m3u8", "segment": "/sample/v0/seg000.ts",
         "proxied": "/bucket/v0/seg000.ts", "disk": "/bucket/v0/seg000.ts"}
if route.startswith("subtitle") or route == "signed-vtt":
    _, master = get(0, signed if route == "signed-vtt" else "/sample/master.m3u8")
    playlist = re.search(r'URI="([^"]+)"', master.decode()).group(1)
    if route == "subtitle-playlist":
        paths[route] = playlist
    else:
        _, body = get(0, playlist)
        segment = first_uri(body, r"\.vtt")
        paths[route] = segment if segment.startswith("/") else playlist.rsplit("/", 1)[0] + "/" + segment
mix = [line.strip() for line in open(sys.argv[6]) if line.strip()] if route == "viewer" else [paths[route]]
expected = 302 if route == "redirect" else 200
for phase in (warmup, count):
    for k in range(phase):
        path = mix[k % len(mix)]
        status, _ = get(k % 16, path)
        if status != expected:
            sys.exit(f"{route}: {path} answered {status}, expected {expected}")
    print("done", flush=True)
    sys.stdin.readline()
EOF

measure() { # BINARY ROUTE -> instructions per request
    local out="$WORK/callgrind.out" config="$WORK/proxy.json"
    rm -f "$out"*
    if [ "$2" = disk ]; then # a fresh disk cache for each binary, filled by the first warm-up request
        rm -rf "$WORK/disk-cache"
        config="$WORK/proxy-disk.json"
        proxy_config "$config" "$WORK/disk-cache"
    fi
    [ "$2" = viewer ] && config="$WORK/viewer.json"
    valgrind --tool=callgrind --callgrind-out-file="$out" --dump-instr=no --instr-atstart=no \
        "$1" --config "$config" > "$WORK/proxy.log" 2>&1 &
    VG_PID=$!
    for _ in $(seq 1 300); do
        curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
        sleep 0.1
    done
    if [ "$2" = viewer ]; then
        python3 "$ROOT/bench/viewer_paths.py" "$PORT" /files/master.m3u8 | awk '{ print $2 }' > "$WORK/viewer.paths"
        [ -s "$WORK/viewer.paths" ] || { echo "viewer: no paths from the proxy" >&2; exit 1; }
    fi
    coproc CLIENT { python3 "$WORK/client.py" "$PORT" "$2" "$WARMUP" "$N" "$SIGNED_MASTER" "$WORK/viewer.paths"; }
    read -r _ <&"${CLIENT[0]}"          # warm-up done
    callgrind_control --instr=on "$VG_PID" > /dev/null 2>&1
    echo go >&"${CLIENT[1]}"
    read -r _ <&"${CLIENT[0]}"          # counted requests done
    callgrind_control --dump "$VG_PID" > /dev/null 2>&1
    echo go >&"${CLIENT[1]}"
    wait "$CLIENT_PID" 2>/dev/null || true
    kill -INT "$VG_PID"; wait "$VG_PID" 2>/dev/null || true; VG_PID=
    local total
    total=$(awk '/^(summary|totals):/ { print $2; exit }' "$out".1 2>/dev/null || echo 0)
    awk -v t="$total" -v n="$N" 'BEGIN { printf "%.0f", t / n }'
}

printf '%-18s' route; for b in "$@"; do printf '%14s' "$(basename "$b")"; done
[ $# -eq 2 ] && printf '%8s' "B/A"; echo
for route in $ROUTES; do
    printf '%-18s' "$route"
    values=()
    for b in "$@"; do v=$(measure "$b" "$route"); values+=("$v"); printf '%14s' "$v"; done
    [ $# -eq 2 ] && awk -v a="${values[0]}" -v b="${values[1]}" 'BEGIN { printf "%8.3f", b / a }'
    echo
done
echo "(instructions per request: callgrind Ir between zeroing after $WARMUP warm-up requests and the dump after $N more; LOGS=$LOGS)"

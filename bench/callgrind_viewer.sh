#!/usr/bin/env bash
# Instructions per request over the directory mount's viewer mix (the one `ONLY=viewer bench/run.sh`
# times): the bundled sample on a directory mount with the three-track set, the 19 paths
# `viewer_paths.py` lists, each in turn, over 16 keep-alive connections. Counted by callgrind, so two
# builds compare on a noisy machine.
#
#   bench/callgrind_viewer.sh BINARY [BINARY_B]
#   ROUNDS=100 PORT=21500 bench/callgrind_viewer.sh OLD NEW
#
# BINARY should be a static build (see callgrind.sh). 20 warm-up rounds fill the caches; ROUNDS
# rounds (50 unless set) are counted. File requests include the component-by-component walk
# valgrind's missing openat2 forces (ConfinedDirectory.walk, about 8,000 instructions each: 8 of 19).
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 BINARY [BINARY_B]" >&2; exit 2; }
ROUNDS=${ROUNDS:-50}
PORT=${PORT:-18192}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind > /dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
WORK=$(mktemp -d /tmp/hls-callgrind-viewer.XXXXXX)
VG_PID=
cleanup() {
    [ -n "$VG_PID" ] && kill "$VG_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    [ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

cat > "$WORK/viewer.json" <<VIEWER
{
  "listen": { "host": "127.0.0.1", "port": $PORT },
  "mounts": { "files": { "origin": "$ROOT/Examples/sample-vod" } },
  "subtitles": [
    { "name": "sample", "masters": ["/files/master.m3u8"], "group_id": "subs",
      "tracks": [
        { "id": "en", "name": "English", "language": "en", "default": true, "autoselect": true, "source": "subs/en.vtt", "mode": "segmented" },
        { "id": "fr", "name": "Français", "language": "fr", "autoselect": true, "source": "subs/fr.vtt", "mode": "segmented" },
        { "id": "es", "name": "Español", "language": "es", "autoselect": true, "source": "subs/es.srt", "mode": "single" }
      ] }
  ],
  "cache": { "master_ttl_seconds": 3600, "subtitle_ttl_seconds": 3600 },
  "log_level": "warn",
  "access_log": false
}
VIEWER

cat > "$WORK/client.py" <<'CLIENT'
import re, socket, sys
port, rounds, paths_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
paths = [line.strip() for line in open(paths_file) if line.strip()]
conns = [socket.create_connection(("127.0.0.1", port)) for _ in range(16)]
buffers = [b""] * 16
def get(i, path):
    conns[i].sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: bench\r\n\r\n")
    data = buffers[i]
    while b"\r\n\r\n" not in data:
        data += conns[i].recv(262144)
    head, _, rest = data.partition(b"\r\n\r\n")
    m = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    length = int(m.group(1)) if m else 0
    while len(rest) < length:
        rest += conns[i].recv(262144)
    buffers[i] = rest[length:]
    if head.split(b" ", 2)[1] != b"200":
        sys.exit(f"{path} answered {head.split(b' ', 2)[1].decode()}, expected 200")
k = 0
for phase in (20, rounds):
    for _ in range(phase):
        for path in paths:
            get(k % 16, path)
            k += 1
    print("done", flush=True)
    sys.stdin.readline()
CLIENT

measure() { # BINARY -> instructions per request
    local out="$WORK/callgrind.out"
    rm -f "$out"*
    valgrind --tool=callgrind --callgrind-out-file="$out" --dump-instr=no --instr-atstart=no \
        "$1" --config "$WORK/viewer.json" > "$WORK/proxy.log" 2>&1 &
    VG_PID=$!
    for _ in $(seq 1 300); do
        curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
        sleep 0.1
    done
    python3 "$ROOT/bench/viewer_paths.py" "$PORT" /files/master.m3u8 | awk '{ print $2 }' > "$WORK/paths"
    [ "$(wc -l < "$WORK/paths")" -gt 0 ] || { echo "no paths from the proxy" >&2; exit 1; }
    coproc CLIENT { python3 "$WORK/client.py" "$PORT" "$ROUNDS" "$WORK/paths"; }
    read -r _ <&"${CLIENT[0]}"          # warm-up done
    callgrind_control --instr=on "$VG_PID" > /dev/null 2>&1
    echo go >&"${CLIENT[1]}"
    read -r _ <&"${CLIENT[0]}"          # counted rounds done
    callgrind_control --dump "$VG_PID" > /dev/null 2>&1
    echo go >&"${CLIENT[1]}"
    wait "$CLIENT_PID" 2>/dev/null || true
    kill -INT "$VG_PID"; wait "$VG_PID" 2>/dev/null || true; VG_PID=
    local total
    total=$(awk '/^(summary|totals):/ { print $2; exit }' "$out".1 2>/dev/null || echo 0)
    awk -v t="$total" -v n="$((ROUNDS * $(wc -l < "$WORK/paths")))" 'BEGIN { printf "%.0f", t / n }'
}

printf '%-18s' mix; for b in "$@"; do printf '%14s' "$(basename "$b")"; done
[ $# -eq 2 ] && printf '%8s' "B/A"; echo
printf '%-18s' "directory viewer"
values=()
for b in "$@"; do v=$(measure "$b"); values+=("$v"); printf '%14s' "$v"; done
[ $# -eq 2 ] && awk -v a="${values[0]}" -v b="${values[1]}" 'BEGIN { printf "%8.3f", b / a }'
echo
echo "(instructions per request: callgrind Ir over $ROUNDS rounds of the mix after 20 warm-up rounds)"

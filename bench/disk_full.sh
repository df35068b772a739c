#!/usr/bin/env bash
# A full disk-cache file system: how many pass-through responses are whole vs truncated.
#
# Mounts a small tmpfs (needs root), runs the release proxy with its disk cache there (and a budget far
# larger than the file system, so the file system fills first), asks a local origin for N distinct
# objects larger than what fits, and counts the responses whose body is as long as their Content-Length
# and byte-for-byte right. With OLD_SOURCE set (a source tree of another commit), the same is measured
# for that build first, so both figures come from one run:
#
#   git -C /work/wt-files archive c601de1 | tar -x -C /tmp/old-files
#   OLD_SOURCE=/tmp/old-files bench/disk_full.sh
#
# Knobs: N (objects, default 40), SIZE (bytes each, default 1000000), TMPFS_SIZE (default 4m),
# SKIP_BUILD=1 (use the binaries already built). Ports: 23101 (origin), 23102 (proxy). Under 60 s.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-40}
SIZE=${SIZE:-1000000}
TMPFS_SIZE=${TMPFS_SIZE:-4m}
ORIGIN_PORT=23101
PROXY_PORT=23102
WORK=$(mktemp -d /tmp/disk-full-bench.XXXXXX)
ORIGIN_PID=""
PROXY_PID=""

cleanup() {
    [ -n "$PROXY_PID" ] && kill "$PROXY_PID" 2>/dev/null || true
    [ -n "$ORIGIN_PID" ] && kill "$ORIGIN_PID" 2>/dev/null || true
    mountpoint -q "$WORK/cache" 2>/dev/null && umount "$WORK/cache" || true
    rm -rf "$WORK"
}
trap cleanup EXIT

build() {  # $1: source tree
    if [ -z "${SKIP_BUILD:-}" ]; then
        (cd "$1" && swift build -c release --product hls-subtitle-proxy 2>&1 | tail -1) >&2
    fi
    echo "$1/.build/release/hls-subtitle-proxy"
}

# The origin: /obj/<name>.ts is SIZE bytes, byte i being i % 251, with a Content-Length.
cat > "$WORK/origin.py" <<PY
import http.server, socketserver
SIZE = $SIZE
BODY = bytes(i % 251 for i in range(SIZE))
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "video/mp2t")
        self.send_header("Content-Length", str(SIZE))
        self.end_headers()
        try:
            self.wfile.write(BODY)
        except OSError:
            pass
    def log_message(self, *args):
        pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    def handle_error(self, request, client_address):
        pass  # a proxy that stops reading (a failed old-style fill) resets the connection: not news
Server(("127.0.0.1", $ORIGIN_PORT), Handler).serve_forever()
PY

# The client: N distinct objects, 8 at a time; whole = body length equals Content-Length and bytes match.
cat > "$WORK/client.py" <<PY
import http.client, concurrent.futures, sys
SIZE = $SIZE
BODY = bytes(i % 251 for i in range(SIZE))
def fetch(i):
    connection = http.client.HTTPConnection("127.0.0.1", $PROXY_PORT, timeout=30)
    try:
        connection.request("GET", "/bucket/obj/%d.ts" % i)
        response = connection.getresponse()
        declared = int(response.getheader("Content-Length", "-1"))
        body = b""
        try:
            while True:
                chunk = response.read1(65536) if hasattr(response, "read1") else response.read(65536)
                if not chunk:
                    break
                body += chunk
        except (http.client.IncompleteRead, OSError) as error:
            body += getattr(error, "partial", b"")
        return response.status == 200 and declared == len(body) == SIZE and body == BODY
    except Exception:
        return False
    finally:
        connection.close()
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    results = list(pool.map(fetch, range(int(sys.argv[1]))))
print("%d %d" % (results.count(True), results.count(False)))
PY

measure() {  # $1: label, $2: binary
    mkdir -p "$WORK/cache"
    if ! mount -t tmpfs -o size="$TMPFS_SIZE" tmpfs "$WORK/cache"; then
        echo "cannot mount a tmpfs here (needs root); nothing measured" >&2
        exit 1
    fi
    cat > "$WORK/proxy.json" <<JSON
{ "listen": { "host": "127.0.0.1", "port": $PROXY_PORT },
  "mounts": { "bucket": { "origin": "http://127.0.0.1:$ORIGIN_PORT", "segments": "proxy" } },
  "cache": { "disk_directory": "$WORK/cache", "disk_max_bytes": 1073741824 } }
JSON
    "$2" --config "$WORK/proxy.json" --log-level warn > "$WORK/$1.access.log" 2> "$WORK/$1.stderr.log" &
    PROXY_PID=$!
    for _ in $(seq 1 100); do
        curl -fsS "http://127.0.0.1:$PROXY_PORT/healthz" >/dev/null 2>&1 && break
        sleep 0.1
    done
    read -r whole truncated < <(python3 "$WORK/client.py" "$N")
    local errors warns
    errors=$(curl -fsS "http://127.0.0.1:$PROXY_PORT/metrics" | awk '/^hls_proxy_disk_cache_errors_total/ { sum += $2 } END { print sum + 0 }')
    warns=$(grep -c "disk cache error" "$WORK/$1.stderr.log" || true)
    kill "$PROXY_PID"; wait "$PROXY_PID" 2>/dev/null || true
    PROXY_PID=""
    umount "$WORK/cache"
    printf "%-5s %3d objects of %d bytes into a %s tmpfs: %3d whole, %3d truncated or wrong; disk errors counted: %s, warn lines: %s\n" \
        "$1" "$N" "$SIZE" "$TMPFS_SIZE" "$whole" "$truncated" "$errors" "$warns"
}

python3 "$WORK/origin.py" 2> "$WORK/origin.stderr.log" &
ORIGIN_PID=$!
sleep 0.5
NEW_BIN=$(build .)
if [ -n "${OLD_SOURCE:-}" ]; then
    OLD_BIN=$(build "$OLD_SOURCE")
    measure old "$OLD_BIN"
fi
measure new "$NEW_BIN"

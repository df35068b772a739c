#!/usr/bin/env bash
# The proxy against nginx (one worker, access log off) on the same machine in the same run.
# Pairs run alternately (proxy, nginx, proxy, nginx, ...) and the table shows medians and ratios.
#
#   bench/run.sh                          # everything, about 5 minutes
#   DURATION=3 ROUNDS=3 bench/run.sh      # shorter wrk runs
#   ONLY="redirect master" bench/run.sh   # a subset: redirect ceiling health master viewer cold disk stream many startup subtitles
#
# Environment: DURATION (seconds per wrk run, 5), ROUNDS (pairs per test, 3), IDLE (idle connections, 10000),
# ONLY (tests to run), LOGS=on (access logs on both sides, to files on tmpfs when /dev/shm exists), SKIP_BUILD=1 (use the existing release build),
# STATIC=0 (the dynamically linked build), PROXY_BIN (any binary); ports PROXY_PORT, NGINX_PORT, COLD_PORT, START_PORT,
# CEILING_PORT, VIEWER_PORT and VIEWER_NGINX_PORT (the viewer mix's proxy and nginx), 18180 to 18186.
set -euo pipefail

DURATION=${DURATION:-5}
ROUNDS=${ROUNDS:-3}
IDLE=${IDLE:-10000}
ONLY=${ONLY:-redirect ceiling health master viewer cold disk stream many startup subtitles}
LOGS=${LOGS:-off}
PROXY_PORT=${PROXY_PORT:-18180}
NGINX_PORT=${NGINX_PORT:-18181}
COLD_PORT=${COLD_PORT:-18182}
START_PORT=${START_PORT:-18183}
CEILING_PORT=${CEILING_PORT:-18184}
VIEWER_PORT=${VIEWER_PORT:-18185}
VIEWER_NGINX_PORT=${VIEWER_NGINX_PORT:-18186}

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH="$ROOT/bench"
WORK=$(mktemp -d /tmp/hls-bench.XXXXXX)
chmod 755 "$WORK"   # nginx's worker runs as another user and reads www/ from here
# With LOGS=on both sides' access logs go to tmpfs when there is one: at some 20 MB/s each, a file on
# disk brings the kernel's writeback onto the same two cores, and whichever side ran last pays for it.
LOG_DIR=$WORK
if [ "$LOGS" = on ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
    LOG_DIR=$(mktemp -d /dev/shm/hls-bench-logs.XXXXXX)
    chmod 755 "$LOG_DIR"
fi
PIDS=()
ROWS=()

cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    sleep 0.5
    for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK" "$LOG_DIR"
}
trap cleanup EXIT

wants() { [[ " $ONLY " == *" $1 "* ]]; }
log() { echo "# $*" >&2; }

# Tools: wrk and nginx from apt when missing; webvtt-py from pip for the subtitle comparison.
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v curl >/dev/null || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
# 10,000 connections need as many descriptors on each side.
ulimit -n "$(ulimit -Hn)"
NOFILE=$(ulimit -n)

# The binary the Dockerfile ships: release, Swift runtime linked in statically (it starts faster, and
# runtime calls skip the PLT). STATIC=0 measures the plain `swift build -c release` binary instead.
SCRATCH="$ROOT/.build"
STATIC_FLAGS=()
if [ "${STATIC:-1}" = 1 ]; then
    SCRATCH="$ROOT/.build/static"
    STATIC_FLAGS=(--static-swift-stdlib --scratch-path "$SCRATCH")
fi
if [ -z "${SKIP_BUILD:-}" ]; then
    log "building release ${STATIC_FLAGS[*]}"
    (cd "$ROOT" && swift build -c release "${STATIC_FLAGS[@]}" --product hls-subtitle-proxy 2>&1 | tail -1) >&2
fi
PROXY=${PROXY_BIN:-"$SCRATCH/release/hls-subtitle-proxy"}

# The origin's files: the fixture VOD under /vod/.
mkdir -p "$WORK/www/vod"
cp -r "$ROOT/Tests/Fixtures/vod-ts/." "$WORK/www/vod/"

proxy_config() { # PORT MASTER_TTL FILE [DISK_CACHE_DIRECTORY]
    local level=warn disk=""
    [ "$LOGS" = on ] && level=info
    [ -n "${4:-}" ] && disk=", \"disk_directory\": \"$4\", \"disk_max_bytes\": 1073741824"
    sed -e "s|@PORT@|$1|" -e "s|@ORIGIN_PORT@|$NGINX_PORT|" -e "s|@MASTER_TTL@|$2|" -e "s|@DISK@|$disk|" \
        -e "s|@SUBTITLES@|$ROOT/Tests/Fixtures/subtitles|" -e "s|@LOG_LEVEL@|$level|" \
        "$BENCH/proxy.json.template" > "$3"
}

wait_healthy() { # PORT
    for _ in $(seq 1 200); do
        curl -sf -o /dev/null "http://127.0.0.1:$1/healthz" && return 0
        sleep 0.05
    done
    echo "nothing healthy on port $1" >&2
    exit 1
}

start_proxy() { # PORT MASTER_TTL NAME [DISK_CACHE_DIRECTORY]
    proxy_config "$1" "$2" "$WORK/$3.json" "${4:-}"
    local out=/dev/null
    [ "$LOGS" = on ] && out="$LOG_DIR/$3.access.log"
    # HLS_PROXY_ACCESS_LOG=off is honoured only by a build that has that switch; otherwise lines go to /dev/null.
    HLS_PROXY_ACCESS_LOG=$LOGS "$PROXY" --config "$WORK/$3.json" > "$out" 2> "$WORK/$3.err" &
    PIDS+=($!)
    wait_healthy "$1"
}

log "starting the proxy (master cache on, port $PROXY_PORT; off, port $COLD_PORT)"
start_proxy "$PROXY_PORT" 3600 proxy "$WORK/disk-cache"
PROXY_PID=${PIDS[-1]}
start_proxy "$COLD_PORT" 0 cold
COLD_PID=${PIDS[-1]}

# nginx answers /redirect with exactly the Location the proxy gives a segment.
LOCATION=$(curl -s -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:$PROXY_PORT/sample/v0/seg000.ts")
[ -n "$LOCATION" ] || { echo "the proxy did not redirect /sample/v0/seg000.ts" >&2; exit 1; }
ACCESS_LOG="access_log off;"
[ "$LOGS" = on ] && ACCESS_LOG="access_log $LOG_DIR/nginx-access.log;"
sed -e "s|@WORK@|$WORK|g" -e "s|@PORT@|$NGINX_PORT|" -e "s|@LOCATION@|$LOCATION|" -e "s|@ACCESS_LOG@|$ACCESS_LOG|" -e "s|@NOFILE@|$NOFILE|" \
    "$BENCH/nginx.conf.template" > "$WORK/nginx.conf"
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK" &
PIDS+=($!)
wait_healthy "$NGINX_PORT"
NGINX_WORKER=$(pgrep -P "${PIDS[-1]}" | head -1)

# The rewritten master, fetched once through the proxy (which caches it), is also nginx's static file.
curl -sf "http://127.0.0.1:$PROXY_PORT/sample/master.m3u8" > "$WORK/www/master-rewritten.m3u8"
grep -q 'TYPE=SUBTITLES' "$WORK/www/master-rewritten.m3u8" || { echo "the proxy's master has no subtitles" >&2; exit 1; }

# One wrk run; prints "req/s p50_us p99_us errors server_us client_pct user_us": the server's CPU time
# per request (user + system, from /proc/PID/stat; "-" without a PID), wrk's own CPU use in percent of
# one core, which tells a run the client limited (wrk near 100 %) from one the server did, and the
# user-space part of the server's time (the rest is the kernel's: sockets, epoll, TCP on loopback).
TICK_US=$((1000000 / $(getconf CLK_TCK)))
# The wrk script: report.lua for one URL; mix.lua (which ends with report.lua) to cycle through MIX_PATHS.
WRK_SCRIPT=$BENCH/report.lua
cpu_ticks() { awk '{ print $14 + $15, $14 }' "/proc/$1/stat"; }
wrk_run() { # URL CONNECTIONS [SERVER_PID]
    local out before=() after=() times server=- user=- client
    [ -n "${3:-}" ] && read -r -a before <<< "$(cpu_ticks "$3")"
    times=$( { TIMEFORMAT="%U %S"; time wrk -t1 -c"$2" -d"${DURATION}s" --timeout 5s -s "$WRK_SCRIPT" "$1" > "$WORK/wrk.out" 2>&1; } 2>&1 )
    [ -n "${3:-}" ] && read -r -a after <<< "$(cpu_ticks "$3")"
    out=$(grep '^RESULT' "$WORK/wrk.out")
    read -r -a r <<< "${out#RESULT }"
    if [ -n "${3:-}" ] && [ "${r[4]}" -gt 0 ]; then
        server=$(awk -v t=$((after[0] - before[0])) -v us="$TICK_US" -v n="${r[4]}" 'BEGIN { printf "%.2f", t * us / n }')
        user=$(awk -v t=$((after[1] - before[1])) -v us="$TICK_US" -v n="${r[4]}" 'BEGIN { printf "%.2f", t * us / n }')
    fi
    client=$(awk -v u="${times% *}" -v s="${times#* }" -v d="$DURATION" 'BEGIN { printf "%.0f", (u + s) * 100 / d }')
    echo "${r[0]} ${r[1]} ${r[2]} ${r[3]} $server $client $user"
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf (b > 0 ? "%.2f" : "n/a"), a / b }'; }
row() { ROWS+=("$(printf '| %s | %s | %s | %s | %s |' "$@")"); }

# Alternating pairs; sets A_RPS/B_RPS/A_P50/... arrays of the samples (A_CPU/B_CPU: server µs of CPU
# per request, when the PIDs are given, A_USER/B_USER its user-space part; A_CLIENT/B_CLIENT: wrk's CPU %).
pair() { # URL_A URL_B CONNECTIONS [PID_A PID_B]
    A_RPS=(); B_RPS=(); A_P50=(); B_P50=(); A_P99=(); B_P99=(); A_CPU=(); B_CPU=(); A_CLIENT=(); B_CLIENT=(); A_USER=(); B_USER=()
    local a b
    for _ in $(seq 1 "$ROUNDS"); do
        read -r -a a <<< "$(wrk_run "$1" "$3" "${4:-}")"
        read -r -a b <<< "$(wrk_run "$2" "$3" "${5:-}")"
        [ "${a[3]}" = 0 ] && [ "${b[3]}" = 0 ] || log "errors in a run: proxy ${a[3]}, nginx ${b[3]}"
        A_RPS+=("${a[0]}"); A_P50+=("${a[1]}"); A_P99+=("${a[2]}"); A_CPU+=("${a[4]}"); A_CLIENT+=("${a[5]}"); A_USER+=("${a[6]}")
        B_RPS+=("${b[0]}"); B_P50+=("${b[1]}"); B_P99+=("${b[2]}"); B_CPU+=("${b[4]}"); B_CLIENT+=("${b[5]}"); B_USER+=("${b[6]}")
    done
    log "  proxy ${A_RPS[*]} req/s; nginx ${B_RPS[*]} req/s"
    [ -n "${4:-}" ] && log "  server CPU µs/request: proxy ${A_CPU[*]}; nginx ${B_CPU[*]}; wrk CPU %: ${A_CLIENT[*]} / ${B_CLIENT[*]}"
    [ -n "${4:-}" ] && log "  of which user space: proxy ${A_USER[*]}; nginx ${B_USER[*]}"
    return 0
}

# Rows for a pair run with PIDs: requests per second of the server's own CPU time (higher is better, so
# the ratio reads like the req/s one), that time per request split into user space and kernel, and how
# busy wrk was on each side.
cpu_rows() { # LABEL GOAL
    local pc nc pu nu
    pc=$(median "${A_CPU[@]}"); nc=$(median "${B_CPU[@]}")
    row "$1 requests per server CPU-second" "$(awk -v u="$pc" 'BEGIN { printf "%.0f", 1e6 / u }')" \
        "$(awk -v u="$nc" 'BEGIN { printf "%.0f", 1e6 / u }')" "$(ratio "$nc" "$pc")" "$2"
    pu=$(median "${A_USER[@]}"); nu=$(median "${B_USER[@]}")
    row "$1 server µs/request in user space" "$pu" "$nu" "$(ratio "$pu" "$nu")" "(reported)"
    local pk=() nk=() i
    for i in "${!A_CPU[@]}"; do
        pk+=("$(awk -v a="${A_CPU[$i]}" -v b="${A_USER[$i]}" 'BEGIN { printf "%.2f", a - b }')")
        nk+=("$(awk -v a="${B_CPU[$i]}" -v b="${B_USER[$i]}" 'BEGIN { printf "%.2f", a - b }')")
    done
    row "$1 server µs/request in the kernel" "$(median "${pk[@]}")" "$(median "${nk[@]}")" "" "(reported)"
    row "$1 wrk CPU %" "$(median "${A_CLIENT[@]}")" "$(median "${B_CLIENT[@]}")" "" "(100 % = client-bound)"
}

P="http://127.0.0.1:$PROXY_PORT"
N="http://127.0.0.1:$NGINX_PORT"

if wants redirect || wants many; then
    log "redirect, 64 connections"
    pair "$P/sample/v0/seg000.ts" "$N/redirect" 64 "$PROXY_PID" "$NGINX_WORKER"
    REDIRECT_64=$(median "${A_RPS[@]}")
    p=$REDIRECT_64; n=$(median "${B_RPS[@]}")
    row "redirect req/s, 64 conn (logs $LOGS)" "$p" "$n" "$(ratio "$p" "$n")" ">= 1.2 (logs off), >= 1.0 (logs on)"
    cpu_rows "redirect (logs $LOGS)" "(reported)"
fi

if wants ceiling; then
    # What this machine allows at all: a bare epoll loop in C that answers each request with a fixed
    # 302 and parses nothing, against the same nginx `return 302`.
    log "ceiling: a bare epoll 302 loop, 64 connections"
    CC=$(command -v cc || command -v clang)
    "$CC" -O2 -o "$WORK/bare302" "$BENCH/ceiling/bare302.c"
    "$WORK/bare302" "$CEILING_PORT" "$LOCATION" &
    PIDS+=($!)
    for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$CEILING_PORT/" && break; sleep 0.05; done
    pair "http://127.0.0.1:$CEILING_PORT/redirect" "$N/redirect" 64 "${PIDS[-1]}" "$NGINX_WORKER"
    p=$(median "${A_RPS[@]}"); n=$(median "${B_RPS[@]}")
    row "bare epoll 302 loop in C req/s, 64 conn (ceiling)" "$p" "$n" "$(ratio "$p" "$n")" "(reported)"
    cpu_rows "bare C loop" "(reported)"
fi

if wants health; then
    # The leanest route: the server core plus routing, both sides answering "ok\n".
    log "health, 64 connections"
    pair "$P/healthz" "$N/healthz" 64 "$PROXY_PID" "$NGINX_WORKER"
    p=$(median "${A_RPS[@]}"); n=$(median "${B_RPS[@]}")
    row "health req/s, 64 conn (server core)" "$p" "$n" "$(ratio "$p" "$n")" "(reported)"
    cpu_rows "health" "(reported)"
fi

if wants master; then
    log "cached master, 64 connections"
    pair "$P/sample/master.m3u8" "$N/master-rewritten.m3u8" 64 "$PROXY_PID" "$NGINX_WORKER"
    p=$(median "${A_RPS[@]}"); n=$(median "${B_RPS[@]}")
    row "cached master req/s, 64 conn" "$p" "$n" "$(ratio "$p" "$n")" ">= 1.2"
    cpu_rows "cached master" "(reported)"
fi

if wants viewer; then
    # One viewer's whole request mix for the bundled sample (Examples/sample-vod): the rewritten master,
    # the three subtitle playlists and their WebVTT files, the variant playlists and their segments, each
    # once in turn. Against nginx serving exactly the bytes the proxy gave in this run as static files
    # (and, for the redirect mount, `return 302` with the proxy's Location), as if packaged offline.
    # Two mounts: a directory mount (every answer from the proxy) and an http mount in redirect mode
    # (master and subtitles from the proxy, 302 for variants and segments; its origin is the main nginx).
    cp -r "$ROOT/Examples/sample-vod" "$WORK/www/sample-vod"
    level=warn access=false
    [ "$LOGS" = on ] && level=info && access=true
    sed -e "s|@PORT@|$VIEWER_PORT|" -e "s|@LOG_LEVEL@|$level|" -e "s|@ACCESS_LOG@|$access|" \
        -e "s|@MOUNTS@|\"files\": { \"origin\": \"$ROOT/Examples/sample-vod\" }, \"viewer\": { \"origin\": \"http://127.0.0.1:$NGINX_PORT/sample-vod/\", \"segments\": \"redirect\" }|" \
        -e "s|@MASTERS@|\"/files/master.m3u8\", \"/viewer/master.m3u8\"|" \
        "$BENCH/viewer.json.template" > "$WORK/viewer.json"
    out=/dev/null
    [ "$LOGS" = on ] && out="$LOG_DIR/viewer.access.log"
    "$PROXY" --config "$WORK/viewer.json" > "$out" 2> "$WORK/viewer.err" &
    PIDS+=($!)
    VIEWER_PID=${PIDS[-1]}
    wait_healthy "$VIEWER_PORT"
    # The proxy's answers become nginx's files: 200s under its root at the same path, 302s as
    # `location = PATH { return 302 LOCATION; }`.
    mkdir -p "$WORK/viewer-nginx/www"
    : > "$WORK/viewer-nginx/locations-viewer.conf"
    for mount in files viewer; do
        python3 "$BENCH/viewer_paths.py" "$VIEWER_PORT" "/$mount/master.m3u8" > "$WORK/viewer-$mount.list"
        awk '{ print $2 }' "$WORK/viewer-$mount.list" > "$WORK/viewer-$mount.paths"
        while read -r status path location; do
            if [ "$status" = 200 ]; then
                mkdir -p "$(dirname "$WORK/viewer-nginx/www$path")"
                curl -sf "http://127.0.0.1:$VIEWER_PORT$path" > "$WORK/viewer-nginx/www$path"
            else
                echo "location = $path { return $status $location; }" >> "$WORK/viewer-nginx/locations-viewer.conf"
            fi
        done < "$WORK/viewer-$mount.list"
        log "viewer mix on /$mount/: $(wc -l < "$WORK/viewer-$mount.paths") paths ($(grep -c '^200' "$WORK/viewer-$mount.list") answered 200)"
    done
    grep -q 'TYPE=SUBTITLES' "$WORK/viewer-nginx/www/files/master.m3u8" || { echo "the viewer proxy's master has no subtitles" >&2; exit 1; }
    sed -e "s|@WORK@|$WORK/viewer-nginx|g" -e "s|@PORT@|$VIEWER_NGINX_PORT|" -e "s|@LOCATION@|$LOCATION|" -e "s|@ACCESS_LOG@|$ACCESS_LOG|" -e "s|@NOFILE@|$NOFILE|" \
        "$BENCH/nginx.conf.template" > "$WORK/viewer-nginx/nginx.conf"
    "$NGINX" -c "$WORK/viewer-nginx/nginx.conf" -p "$WORK/viewer-nginx" &
    PIDS+=($!)
    wait_healthy "$VIEWER_NGINX_PORT"
    VIEWER_NGINX_WORKER=$(pgrep -P "${PIDS[-1]}" | head -1)
    # Both sides must give the same status for every path, and the same body (a 200) or Location (a
    # 302: nginx adds a small HTML body to its own), or the anchor is not exact.
    for mount in files viewer; do
        while read -r path; do
            a=$(curl -s -o "$WORK/a.body" -w '%{http_code} %{redirect_url}' "http://127.0.0.1:$VIEWER_PORT$path")
            b=$(curl -s -o "$WORK/b.body" -w '%{http_code} %{redirect_url}' "http://127.0.0.1:$VIEWER_NGINX_PORT$path")
            [ "$a" = "$b" ] && { [ "${a%% *}" != 200 ] || cmp -s "$WORK/a.body" "$WORK/b.body"; } \
                || { echo "nginx's answer for $path differs from the proxy's ($a / $b)" >&2; exit 1; }
        done < "$WORK/viewer-$mount.paths"
    done
    WRK_SCRIPT=$BENCH/mix.lua
    export REPORT_LUA=$BENCH/report.lua
    for mount in files viewer; do
        export MIX_PATHS=$WORK/viewer-$mount.paths
        label="directory mount"
        [ "$mount" = viewer ] && label="redirect mount"
        log "viewer mix, $label, 64 connections"
        pair "http://127.0.0.1:$VIEWER_PORT/" "http://127.0.0.1:$VIEWER_NGINX_PORT/" 64 "$VIEWER_PID" "$VIEWER_NGINX_WORKER"
        p=$(median "${A_RPS[@]}"); n=$(median "${B_RPS[@]}")
        row "viewer mix req/s, $label, 64 conn ($(wc -l < "$MIX_PATHS") paths)" "$p" "$n (same bytes, static)" "$(ratio "$p" "$n")" ">= 1.0"
        cpu_rows "viewer mix, $label" "(reported)"
    done
    WRK_SCRIPT=$BENCH/report.lua
fi

if wants cold; then
    for c in 1 16; do
        log "cold master (cache off) vs the origin directly, $c connection(s)"
        pair "http://127.0.0.1:$COLD_PORT/sample/master.m3u8" "$N/vod/master.m3u8" "$c"
        p50=$(median "${A_P50[@]}"); n50=$(median "${B_P50[@]}")
        p99=$(median "${A_P99[@]}"); n99=$(median "${B_P99[@]}")
        row "cold master p50 µs, $c conn" "$p50" "$n50 (origin)" "+$(awk -v a="$p50" -v b="$n50" 'BEGIN { printf "%.0f µs", a - b }')" "overhead <= 1000 µs"
        row "cold master p99 µs, $c conn" "$p99" "$n99 (origin)" "+$(awk -v a="$p99" -v b="$n99" 'BEGIN { printf "%.0f µs", a - b }')" "(reported)"
    done
fi

if wants disk; then
    # A pass-through segment stored in the disk cache (warmed by one request) against nginx serving the
    # same file from its root, both with sendfile.
    log "cached pass-through segment, 64 connections"
    curl -sf -o /dev/null "$P/bucket/v0/seg000.ts"
    curl -s -D - -o /dev/null "$P/bucket/v0/seg000.ts" | grep -qi '^x-hls-proxy-route: cache' \
        || { echo "the segment was not answered from the disk cache" >&2; exit 1; }
    pair "$P/bucket/v0/seg000.ts" "$N/vod/v0/seg000.ts" 64
    p=$(median "${A_RPS[@]}"); n=$(median "${B_RPS[@]}")
    row "disk-cached segment req/s ($(stat -c %s "$WORK/www/vod/v0/seg000.ts") B), 64 conn" "$p" "$n" "$(ratio "$p" "$n")" ">= 1.0"
fi

if wants stream; then
    # 100 MB through the proxy's pass-through mount without a disk cache, against nginx proxy_pass
    # (a second nginx, one worker, buffering off so it streams too) to the same origin. Peak RSS of the
    # proxy process (VmHWM) after the transfers.
    head -c 100000000 /dev/urandom > "$WORK/www/vod/big.bin"
    PP_PORT=$((NGINX_PORT + 10))
    cat > "$WORK/pp.conf" <<PP
worker_processes 1;
daemon off;
pid $WORK/pp.pid;
error_log $WORK/pp-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    server {
        listen 127.0.0.1:$PP_PORT;
        location / { proxy_pass http://127.0.0.1:$NGINX_PORT/vod/; proxy_buffering off; proxy_http_version 1.1; }
    }
}
PP
    "$NGINX" -c "$WORK/pp.conf" -p "$WORK" &
    PIDS+=($!)
    sleep 0.5
    # Single transfers vary more than wrk runs (four processes share two cores), so at least 5 pairs.
    STREAM_ROUNDS=$(( ROUNDS > 5 ? ROUNDS : 5 ))
    log "100 MB pass-through, uncached, 1 connection, $STREAM_ROUNDS pairs"
    s_p=(); s_n=()
    for _ in $(seq 1 "$STREAM_ROUNDS"); do
        s_p+=("$(curl -sf -o /dev/null -w '%{speed_download}' "http://127.0.0.1:$COLD_PORT/bucket/big.bin")")
        s_n+=("$(curl -sf -o /dev/null -w '%{speed_download}' "http://127.0.0.1:$PP_PORT/big.bin")")
    done
    log "  proxy ${s_p[*]} B/s; nginx proxy_pass ${s_n[*]} B/s"
    p=$(median "${s_p[@]}"); n=$(median "${s_n[@]}")
    row "100 MB pass-through MB/s, uncached" "$(awk -v v="$p" 'BEGIN { printf "%.0f", v / 1e6 }')" \
        "$(awk -v v="$n" 'BEGIN { printf "%.0f", v / 1e6 }') (proxy_pass)" "$(ratio "$p" "$n")" ">= 0.8"
    hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$COLD_PID/status")
    row "proxy peak RSS MB after streaming 100 MB" "$(awk -v k="$hwm" 'BEGIN { printf "%.1f", k / 1024 }')" "" "" "< 40"
    rm -f "$WORK/www/vod/big.bin"
fi

if wants many; then
    log "redirect, 1000 connections"
    pair "$P/sample/v0/seg000.ts" "$N/redirect" 1000
    p=$(median "${A_RPS[@]}"); n=$(median "${B_RPS[@]}")
    row "redirect req/s, 1000 conn" "$p" "$n" "$(ratio "$p" "$n")" "(reported)"
    row "redirect req/s 1000 conn / 64 conn" "$(ratio "$p" "$REDIRECT_64")" "" "" ">= 0.8 (proxy)"

    rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
    idle_rss() { # PORT PATH PID
        local fifo="$WORK/idle.fifo" out="$WORK/idle.out" client rss
        rm -f "$fifo" && mkfifo "$fifo"
        python3 "$BENCH/idle_connections.py" 127.0.0.1 "$1" "$2" "$IDLE" < "$fifo" > "$out" &
        client=$!
        exec 3> "$fifo"
        for _ in $(seq 1 1200); do
            grep -q ready "$out" 2>/dev/null && break
            kill -0 "$client" 2>/dev/null || break
            sleep 0.1
        done
        grep -q ready "$out" || { echo "idle client failed on port $1" >&2; exit 1; }
        sleep 1
        rss=$(rss_kb "$3")
        exec 3>&-
        wait "$client" || true
        echo "$rss"
    }
    log "$IDLE idle keep-alive connections"
    p=$(idle_rss "$PROXY_PORT" /sample/v0/seg000.ts "$PROXY_PID")
    sleep 1
    n=$(idle_rss "$NGINX_PORT" /redirect "$NGINX_WORKER")
    row "RSS MB, $IDLE idle keep-alive conn" "$(awk -v k="$p" 'BEGIN { printf "%.1f", k / 1024 }')" \
        "$(awk -v k="$n" 'BEGIN { printf "%.1f", k / 1024 }')" "$(ratio "$p" "$n")" "<= 2.0"
fi

if wants startup; then
    log "start-up to the first 200 on /healthz"
    proxy_config "$START_PORT" 2 "$WORK/start.json"
    # Both sides log requests as the rest of the run does (LOGS): off by default, on with LOGS=on.
    START_ACCESS_LOG="access_log off;"
    [ "$LOGS" = on ] && START_ACCESS_LOG="access_log $LOG_DIR/start-access.log;"
    sed -e "s|@WORK@|$WORK/start|g" -e "s|@PORT@|$START_PORT|" -e "s|@LOCATION@|$LOCATION|" -e "s|@ACCESS_LOG@|$START_ACCESS_LOG|" -e "s|@NOFILE@|$NOFILE|" \
        "$BENCH/nginx.conf.template" > "$WORK/start-nginx.conf"
    mkdir -p "$WORK/start/www"
    s_p=(); s_n=()
    for _ in $(seq 1 "$ROUNDS"); do
        s_p+=("$(HLS_PROXY_ACCESS_LOG=$LOGS python3 "$BENCH/startup_time.py" 3 "$START_PORT" /healthz -- "$PROXY" --config "$WORK/start.json")")
        s_n+=("$(python3 "$BENCH/startup_time.py" 3 "$START_PORT" /healthz -- "$NGINX" -c "$WORK/start-nginx.conf" -p "$WORK/start")")
    done
    p=$(median "${s_p[@]}"); n=$(median "${s_n[@]}")
    log "  proxy ${s_p[*]} ms; nginx ${s_n[*]} ms"
    row "start-up to /healthz 200, ms" "$p" "$n" "$(ratio "$p" "$n")" "<= 1.0"
fi

if wants subtitles; then
    log "subtitles: 2-hour VTT into 6 s segments"
    python3 -c 'import webvtt' 2>/dev/null || pip install -q webvtt-py >&2
    (cd "$BENCH/subtitles/SwiftBench" && swift build -c release 2>&1 | tail -1) >&2
    VTT="$ROOT/Tests/Fixtures/subtitles/long-2h.vtt"
    s=$("$BENCH/subtitles/SwiftBench/.build/release/subtitle-bench" "$VTT" 6 20)
    w=$(python3 "$BENCH/subtitles/webvtt_py_segment.py" "$VTT" 6 10)
    log "  $s"
    log "  $w"
    s_ms=$(sed -E 's/.*median ([0-9.]+) ms.*/\1/' <<< "$s")
    w_mem=$(sed -E 's/.*in-memory median ([0-9.]+) ms.*/\1/' <<< "$w")
    w_full=$(sed -E 's/.*writes median ([0-9.]+) ms.*/\1/' <<< "$w")
    row "subtitles ms vs webvtt-py segment()" "$s_ms" "$w_full (webvtt-py)" "$(ratio "$w_full" "$s_ms")x faster" ">= 50x"
    row "subtitles ms vs webvtt-py in memory" "$s_ms" "$w_mem (webvtt-py)" "$(ratio "$w_mem" "$s_ms")x faster" "(reported)"
fi

echo
echo "$(nproc) cores; wrk -t1, ${DURATION}s runs, $ROUNDS alternating pairs, medians; $("$NGINX" -v 2>&1 | sed 's/.*: //')"
echo
echo "| test | proxy | nginx | proxy/nginx | goal |"
echo "|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"

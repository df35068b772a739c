#!/usr/bin/env bash
# Two builds of the proxy against each other on the redirect path: both run at once on two ports, and
# wrk runs alternate between them (A, B, A, B, ...). Prints each pair's req/s and the server's CPU time
# per request (user + system, from /proc/PID/stat, and the user-space part of it), then the medians.
#
#   bench/compare.sh OLD_BINARY NEW_BINARY        # 5 pairs of 5 s runs
#   ROUNDS=7 LOGS=on bench/compare.sh A B         # access logs on in both (to files on tmpfs when there is one)
#   TARGET=/healthz bench/compare.sh A B           # another path than the redirect (the server core alone)
#   MIX=viewer bench/compare.sh A B                # the directory mount's viewer mix (run.sh's 19 paths)
#
# The redirect never reaches the origin, so no nginx is needed. wrk must be installed (bench/run.sh
# installs it).
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 BINARY_A BINARY_B" >&2; exit 2; }
A=$1
B=$2
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-5}
LOGS=${LOGS:-off}
PORT_A=${PORT_A:-18185}
PORT_B=${PORT_B:-18186}
TARGET=${TARGET:-/sample/v0/seg000.ts}
MIX=${MIX:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/hls-compare.XXXXXX)
# Access logs (LOGS=on) go to tmpfs when there is one, as in run.sh: disk writeback would add noise.
LOG_DIR=$WORK
if [ "$LOGS" = on ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then LOG_DIR=$(mktemp -d /dev/shm/hls-compare-logs.XXXXXX); fi
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK" "$LOG_DIR"
}
trap cleanup EXIT

start() { # BINARY PORT NAME
    local level=warn
    [ "$LOGS" = on ] && level=info
    if [ "$MIX" = viewer ]; then
        # run.sh's viewer proxy, directory mount only: the bundled sample and its three-track set.
        sed -e "s|@PORT@|$2|" -e "s|@MOUNTS@|\"files\": { \"origin\": \"$ROOT/Examples/sample-vod\" }|" \
            -e "s|@MASTERS@|\"/files/master.m3u8\"|" -e "s|@LOG_LEVEL@|$level|" \
            -e "s|@ACCESS_LOG@|$([ "$LOGS" = on ] && echo true || echo false)|" \
            "$ROOT/bench/viewer.json.template" > "$WORK/$3.json"
    else
        sed -e "s|@PORT@|$2|" -e "s|@ORIGIN_PORT@|9|" -e "s|@MASTER_TTL@|3600|" -e "s|@DISK@||" \
            -e "s|@SUBTITLES@|$ROOT/Tests/Fixtures/subtitles|" -e "s|@LOG_LEVEL@|$level|" \
            "$ROOT/bench/proxy.json.template" > "$WORK/$3.json"
    fi
    HLS_PROXY_ACCESS_LOG=$LOGS "$1" --config "$WORK/$3.json" > "$LOG_DIR/$3.out" 2> "$WORK/$3.err" &
    PIDS+=($!)
    for _ in $(seq 1 200); do
        curl -sf -o /dev/null "http://127.0.0.1:$2/healthz" && return 0
        sleep 0.05
    done
    echo "$1 did not become healthy on port $2" >&2
    exit 1
}

start "$A" "$PORT_A" a
PID_A=${PIDS[-1]}
start "$B" "$PORT_B" b
PID_B=${PIDS[-1]}
SCRIPT=$ROOT/bench/report.lua
if [ "$MIX" = viewer ]; then
    python3 "$ROOT/bench/viewer_paths.py" "$PORT_A" /files/master.m3u8 | awk '{ print $2 }' > "$WORK/viewer.paths"
    [ -s "$WORK/viewer.paths" ] || { echo "no viewer paths from $A" >&2; exit 1; }
    export MIX_PATHS=$WORK/viewer.paths REPORT_LUA=$ROOT/bench/report.lua
    SCRIPT=$ROOT/bench/mix.lua
    TARGET=/
    # Both warmed through the whole mix once (the first requests fill the caches).
    for port in "$PORT_A" "$PORT_B"; do wrk -t1 -c64 -d1s -s "$SCRIPT" "http://127.0.0.1:$port/" > /dev/null; done
fi

TICK_US=$((1000000 / $(getconf CLK_TCK)))
cpu_ticks() { awk '{ print $14 + $15, $14 }' "/proc/$1/stat"; }
run() { # PORT PID -> "req/s µs_per_request user_µs_per_request"
    local before after out
    read -r -a before <<< "$(cpu_ticks "$2")"
    out=$(wrk -t1 -c64 -d"${DURATION}s" -s "$SCRIPT" "http://127.0.0.1:$1$TARGET" | grep '^RESULT')
    read -r -a after <<< "$(cpu_ticks "$2")"
    read -r -a r <<< "${out#RESULT }"
    awk -v rps="${r[0]}" -v t=$((after[0] - before[0])) -v u=$((after[1] - before[1])) -v us="$TICK_US" -v n="${r[4]}" \
        'BEGIN { printf "%s %.2f %.2f", rps, t * us / n, u * us / n }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

RA=(); CA=(); UA=(); RB=(); CB=(); UB=()
for i in $(seq 1 "$ROUNDS"); do
    read -r ra ca ua <<< "$(run "$PORT_A" "$PID_A")"
    read -r rb cb ub <<< "$(run "$PORT_B" "$PID_B")"
    echo "pair $i: A $ra req/s, $ca µs/request ($ua in user space); B $rb req/s, $cb µs/request ($ub in user space)"
    RA+=("$ra"); CA+=("$ca"); UA+=("$ua"); RB+=("$rb"); CB+=("$cb"); UB+=("$ub")
done
ma=$(median "${RA[@]}"); mb=$(median "${RB[@]}")
echo "median: A $ma req/s, $(median "${CA[@]}") µs/request ($(median "${UA[@]}") in user space);" \
    "B $mb req/s, $(median "${CB[@]}") µs/request ($(median "${UB[@]}") in user space); B/A $(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.2f", b / a }')"

# Start-up and failure helpers for the .ci check scripts; source it after `set -euo pipefail`:
#
#   . "$(dirname "$0")/lib.sh"          # (from .ci/shapes: "$(dirname "$0")/../lib.sh")
#   ci_temp_dir WORK                    # WORK=a fresh directory, removed on exit
#   start_proxy "$WORK/config.json" "$WORK/proxy.out" "$WORK/proxy.err"
#   python3 -m http.server ... & started $!
#   wait_healthy "http://127.0.0.1:$PORT/healthz" || fail "the proxy did not start"
#
# Every pid given to `started` (start_proxy gives its own) is killed when the script exits, however
# it exits. Nothing here picks ports: each script keeps its own, overridable through the environment.

CI_PIDS=()
CI_TEMP=
# With CI_WAIT_ON_EXIT=1 the exit also waits for what it killed (ports are free when the script ends).
CI_WAIT_ON_EXIT=${CI_WAIT_ON_EXIT:-0}

ci_cleanup() {
    local pid
    for pid in "${CI_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [ "$CI_WAIT_ON_EXIT" = 1 ]; then
        for pid in "${CI_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    fi
    if [ -n "$CI_TEMP" ]; then rm -rf "$CI_TEMP"; fi
}
trap ci_cleanup EXIT

# started PID: kill PID on exit.
started() { CI_PIDS+=("$1"); }

# ci_temp_dir NAME: sets the variable NAME to a new temporary directory, removed on exit.
ci_temp_dir() {
    CI_TEMP=$(mktemp -d)
    printf -v "$1" '%s' "$CI_TEMP"
}

# start_proxy CONFIG OUT ERR [ARGS...]: runs "$BIN" --config CONFIG ARGS in the background, stdout to
# OUT and stderr to ERR, killed on exit. Its pid is in PROXY_PID.
start_proxy() {
    local config=$1 out=$2 err=$3
    shift 3
    "$BIN" --config "$config" "$@" >"$out" 2>"$err" &
    PROXY_PID=$!
    started "$PROXY_PID"
}

# wait_healthy URL... [--tries N] [--pause S]: waits until every URL answers 2xx (curl -f, 2 s each),
# trying N times (100) S seconds apart (0.1); returns 1 when they never all did.
wait_healthy() {
    local urls=() tries=100 pause=0.1 url all
    while [ $# -gt 0 ]; do
        case $1 in
            --tries) tries=$2; shift 2 ;;
            --pause) pause=$2; shift 2 ;;
            *) urls+=("$1"); shift ;;
        esac
    done
    for _ in $(seq 1 "$tries"); do
        all=1
        for url in "${urls[@]}"; do
            curl -fs --max-time 2 -o /dev/null "$url" || { all=0; break; }
        done
        [ "$all" = 1 ] && return 0
        sleep "$pause"
    done
    return 1
}

# ci_player_check NAME WORKVAR: the start of a check run from the repo root (ROOT) that plays in the
# real players and counts its failures: BIN and CLIENTS under ROOT, the binary checked, WORKVAR a
# temporary directory whose proxy.err a failed run shows.
ci_player_check() {
    CI_NAME=$1 CI_KEEP_GOING=1
    BIN="$ROOT/.build/debug/hls-subtitle-proxy"
    CLIENTS="$ROOT/../shared/tools/real-clients"
    ci_temp_dir "$2"
    CI_LOGS="$CI_TEMP/proxy.err"
    [ -x "$BIN" ] || { echo "FAIL: $BIN missing: run swift build first"; exit 1; }
}

# ci_shape_check NAME TMPVAR LOG: the start of a stream-shape check (.ci/shapes, run from the repo
# root) that stops at its first failure: BIN and CLIENTS checked, TMPVAR a temporary directory, and
# the file in it whose last lines a failure shows.
ci_shape_check() {
    CI_NAME=$1
    BIN=.build/debug/hls-subtitle-proxy
    [ -x "$BIN" ] || { echo "FAIL $CI_NAME: $BIN missing (run swift build)"; exit 1; }
    CLIENTS=../shared/tools/real-clients
    [ -d "$CLIENTS" ] || { echo "FAIL $CI_NAME: $CLIENTS not found"; exit 1; }
    ci_temp_dir "$2"
    CI_LOGS="$CI_TEMP/$3"
}

# Two ways to fail, chosen by the script:
# - at once (the default): `fail MSG` prints "FAIL $CI_NAME: MSG", the last 5 lines of each file in
#   CI_LOGS that exists, and exits 1;
# - counted (CI_KEEP_GOING=1): `fail MSG` prints "FAIL: MSG" and counts it in `failures`; the script
#   ends with `ci_summary`, which prints "$CI_NAME: PASS", or the count and the last 20 lines of
#   CI_LOGS and exits 1.
CI_NAME=${CI_NAME:-check}
CI_LOGS=
CI_KEEP_GOING=0
failures=0

fail() {
    local log
    if [ "$CI_KEEP_GOING" = 1 ]; then
        echo "FAIL: $*"
        failures=$((failures + 1))
        return 0
    fi
    echo "FAIL $CI_NAME: $*"
    for log in $CI_LOGS; do
        if [ -f "$log" ]; then tail -n 5 "$log"; fi
    done
    exit 1
}

ci_summary() {
    local log
    if [ "$failures" -ne 0 ]; then
        echo "$CI_NAME: $failures failure(s)"
        for log in $CI_LOGS; do
            if [ -f "$log" ]; then tail -n 20 "$log"; fi
        done
        exit 1
    fi
    echo "$CI_NAME: PASS"
}

#!/usr/bin/env bash
# Builds and runs every libFuzzer target for SECONDS each (default 600), one after another.
#   fuzz/run.sh [SECONDS] [TARGET...]
# Seeds come from Tests/Fixtures; the growing corpus lives in fuzz/corpus/TARGET and crashes,
# timeouts and out-of-memory inputs land in fuzz/artifacts/TARGET/ (both ignored by git).
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzRequestHead FuzzPlaylist FuzzWebVTT FuzzSRT FuzzMedia)
fixtures=../Tests/Fixtures

seed() {
    local target="$1" dir="corpus/$1"
    mkdir -p "$dir" "artifacts/$target"
    case "$target" in
        FuzzRequestHead) cp ../Tests/Fixtures/bad-requests/*.bin "$dir"/ 2>/dev/null || true
            printf 'GET /origin/vod-ts/master.m3u8?a=b HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n' > "$dir/seed-get"
            printf 'HEAD http://h/p HTTP/1.0\r\nContent-Length: 0\r\n\r\n' > "$dir/seed-head"
            printf 'OPTIONS * HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n' > "$dir/seed-options"
            printf '5;a=b\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-T: t\r\n\r\n' > "$dir/seed-chunked" ;;
        FuzzPlaylist) find "$fixtures" -name '*.m3u8' -size -64k -exec cp {} "$dir"/ \; ;;
        FuzzWebVTT) find "$fixtures" -name '*.vtt' -size -64k -exec cp {} "$dir"/ \; ;;
        FuzzSRT) find "$fixtures" -name '*.srt' -size -64k -exec cp {} "$dir"/ \; ;;
        FuzzMedia) find "$fixtures" \( -name '*.mp4' -o -name '*.m4s' -o -name '*.ts' \) -size -256k -exec cp {} "$dir"/ \; ;;
    esac
    # Earlier crashes stay in the corpus so a regression shows at once.
    cp ../Tests/Fixtures/fuzz-regressions/"$target"-* "$dir"/ 2>/dev/null || true
}

# lld, not the default gold: gold drops libFuzzer's coverage-counter sections, and the fuzzer then
# runs blind (no "inline 8-bit counters" line, the corpus never grows past one input).
# One -sanitize value: swiftc keeps only the last -sanitize flag it is given, so `--sanitize=fuzzer
# --sanitize=address` built either without coverage or without ASan. --sanitize=fuzzer stays for SwiftPM's
# fuzzer link step (it keeps the entry point libFuzzer calls); the -Xswiftc value, given last, wins.
flags=(-c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
# One build for every target: building the products one by one left the later ones without coverage
# counters (measured: the second --product build loaded no "inline 8-bit counters").
swift build "${flags[@]}"
bin="$(swift build "${flags[@]}" --show-bin-path)"
for target in "${targets[@]}"; do
    seed "$target"
    probe="$(SWIFT_BACKTRACE=enable=no "$bin/$target" -runs=0 "corpus/$target" 2>&1 || true)"
    counters="$(grep -o '([0-9]* inline 8-bit counters)' <<<"$probe" | grep -o '[0-9]*' | head -1 || true)"
    if [ "${counters:-0}" -lt 100 ]; then
        echo "$target has no coverage instrumentation; refusing to fuzz blind" >&2
        exit 1
    fi
    echo "== $target for ${seconds}s"
    SWIFT_BACKTRACE=enable=no "$bin/$target" "corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="artifacts/$target/" -print_final_stats=1 2>&1 | tee "artifacts/$target/run.log" | grep -E '^(==|#[0-9]+ *(DONE|INITED))|stat::|SUMMARY|ERROR' || true
done

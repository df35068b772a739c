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
[ ${#targets[@]} -gt 0 ] || targets=(FuzzRequestHead FuzzPlaylist FuzzWebVTT FuzzSRT FuzzTTML FuzzMedia FuzzPath FuzzInflate FuzzSignedToken)
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
        FuzzTTML) find "$fixtures" \( -name '*.ttml' -o -name '*.dfxp' -o -name '*.xml' \) -size -64k -exec cp {} "$dir"/ \; ;;
        FuzzMedia) find "$fixtures" \( -name '*.mp4' -o -name '*.m4s' -o -name '*.ts' \) -size -256k -exec cp {} "$dir"/ \; ;;
        # The first byte picks the URL form (see FuzzPath.swift); the rest is the path and query.
        FuzzPath) local i=0
            for path in 'vod/master.m3u8?a=b' 'a/..;/x.ts' '%2e%2E%3b/x' 'v0/..%20/x' '.;/a/./b/..%2fc' 'x%5c..%09/y' \
                '%EF%BC%8E%EF%BC%8E/z' 'a/b/c/../../d.ts' 'ok/...' 'seg%20000.ts'; do
                for form in 0 1 2 3 4 5; do printf '%b%s' "\\x0$form" "$path" > "$dir/seed-$form-$i"; done
                i=$((i + 1))
            done ;;
        # The first byte picks raw DEFLATE (even) or gzip (odd) and the output cap; seeds are real gzip(1)
        # output of the fixtures, and the same DEFLATE data without its gzip header and trailer.
        FuzzInflate) local file name
            while IFS= read -r file; do
                name="$(basename "$file")"
                for level in 1 9; do
                    { printf '\x01'; gzip -c -n "-$level" "$file"; } > "$dir/seed-gzip$level-$name"
                    { printf '\x00'; gzip -c -n "-$level" "$file" | tail -c +11 | head -c -8; } > "$dir/seed-raw$level-$name"
                done
            done < <(find "$fixtures" \( -name '*.vtt' -o -name '*.srt' -o -name '*.m3u8' \) -size -16k | head -n 12)
            printf '\x01' > "$dir/seed-gzip-hello"; printf 'hello hello hello\n' | gzip -c -n >> "$dir/seed-gzip-hello"
            printf '\x06' > "$dir/seed-raw-tiny-cap64"; printf 'x' | gzip -c -n -1 | tail -c +11 | head -c -8 >> "$dir/seed-raw-tiny-cap64" ;;
        # Even first byte: a path after /_hls-proxy/v1/; odd: a payload the target signs (FuzzSignedToken.swift).
        FuzzSignedToken)
            printf '\x00signed/k1.eyJleHAiOjF9.AAAA/master.m3u8' > "$dir/seed-path-master"
            printf '\x00signed/k1.e30.qFqsP6hzVcfBnBEWa8y9ljFKGD0hKl6XxtprkspFN9E/en/12.vtt' > "$dir/seed-path-segment"
            printf '\x01{"exp":1893456000,"master":"/sample/master.m3u8","tracks":[{"language":"en","name":"English","source":"https://s.test/en.vtt","default":true},{"language":"fr","name":"F","source":"/fr.srt","mode":"single","offset":1.5}],"subtitles":["fr"],"default":"fr"}' > "$dir/seed-payload"
            printf '\x01{"exp":1700000000,"master":"/http/cdn.test/v/master.m3u8?a=b","tracks":[{"id":"x","language":"de","name":"D","source":"https://s.test/d.vtt","characteristics":["public.accessibility.transcribes-spoken-dialog"]}]}' > "$dir/seed-payload-expired" ;;
    esac
    # Earlier crashes stay in the corpus so a regression shows at once.
    cp ../Tests/Fixtures/fuzz-regressions/"$target"-* "$dir"/ 2>/dev/null || true
}

# lld, not the default gold: gold drops libFuzzer's coverage-counter sections, and the fuzzer then
# runs blind (no "inline 8-bit counters" line, the corpus never grows past one input).
# The last -sanitize= given to swiftc wins, and SwiftPM passes --sanitize=fuzzer and --sanitize=address
# as two of them: alone they built every module with ASan but without coverage (the fuzzer saw only the
# 14 counters of its entry function). One combined flag after them instruments for both.
flags=(-c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
# One build for every target: building the products one by one left the later ones without coverage
# counters (measured: the second --product build loaded no "inline 8-bit counters").
swift build "${flags[@]}"
bin="$(swift build "${flags[@]}" --show-bin-path)"
failed=()
for target in "${targets[@]}"; do
    seed "$target"
    probe="$(SWIFT_BACKTRACE=enable=no "$bin/$target" -runs=0 "corpus/$target" 2>&1 || true)"
    # The entry function alone has a few dozen counters; the code under test brings thousands.
    counters="$(grep -oE '[0-9]+ inline 8-bit counters' <<<"$probe" | grep -oE '^[0-9]+' | head -n 1 || true)"
    if [ "${counters:-0}" -lt 500 ]; then
        echo "$target has ${counters:-no} coverage counters: the code under test is not instrumented; refusing to fuzz blind" >&2
        exit 1
    fi
    echo "== $target for ${seconds}s ($counters coverage counters)"
    status=0
    SWIFT_BACKTRACE=enable=no "$bin/$target" "corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="artifacts/$target/" -print_final_stats=1 > "artifacts/$target/run.log" 2>&1 || status=$?
    grep -E '^(==|#[0-9]+ *(DONE|INITED))|stat::|SUMMARY|ERROR|Fatal error' "artifacts/$target/run.log" || true
    # libFuzzer exits non-zero on a crash, timeout or out-of-memory, after writing the input to artifacts/.
    if [ "$status" -ne 0 ]; then
        echo "FAIL $target: the fuzzer stopped with status $status; its input is in fuzz/artifacts/$target/" >&2
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing found problems in: ${failed[*]}" >&2
    exit 1
fi
echo "fuzzing: no crash in ${targets[*]}"

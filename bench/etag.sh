#!/bin/sh
# The CPU cost of a synthesized body's ETag (SHA-256 of its bytes, first 128 bits), per body size.
# Before this change a synthesized response cost nothing for it; now a cached master pays it once
# when stored, and a subtitle playlist or WebVTT file (made per request) pays it per response.
# Process CPU time, best of 5 per size.
# Usage: bench/etag.sh              this tree's Sources/Proxy/Signing/SHA256.swift (about 15 s)
#        bench/etag.sh REV          also the SHA256.swift of git revision REV, printed first ("before")
set -eu
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/etag-bench.$$"
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT
run() {
    swiftc -O -module-name ETagBench "$1" bench/etag/main.swift -o "$out/etag-bench"
    "$out/etag-bench"
}
if [ $# -gt 0 ]; then
    # Older revisions kept the file in Cache/, and before the folder layout in Sources/Proxy.
    git show "$1:Sources/Proxy/Signing/SHA256.swift" > "$out/SHA256.swift" 2>/dev/null \
        || git show "$1:Sources/Proxy/Cache/SHA256.swift" > "$out/SHA256.swift" 2>/dev/null \
        || git show "$1:Sources/Proxy/SHA256.swift" > "$out/SHA256.swift"
    echo "before ($1):"
    run "$out/SHA256.swift"
    echo "after (this tree):"
fi
run Sources/Proxy/Signing/SHA256.swift

#!/bin/sh
# The CPU cost of a synthesized body's ETag (SHA-256 of its bytes, first 128 bits), per body size.
# Before this change a synthesized response cost nothing for it; now a cached master pays it once
# when stored, and a subtitle playlist or WebVTT file (made per request) pays it per response.
# Usage: bench/etag.sh   (about 30 s: compiling, then a few seconds of hashing)
set -eu
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/etag-bench.$$"
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT
swiftc -O -module-name ETagBench Sources/Proxy/SHA256.swift bench/etag/main.swift -o "$out/etag-bench"
"$out/etag-bench"

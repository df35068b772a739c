#!/usr/bin/env bash
# Nanoseconds per request path for PathPattern (what every mount request pays against each subtitle
# set's masters), built with -O from this tree and from a baseline revision's PathPattern.swift:
#
#   bench/path_pattern.sh [BASE_REV]      # default BASE_REV: 41295bf (before {name} captures)
#
# The baseline gets the four plain patterns only; this tree also runs the templated Azure pattern's
# matches() and captures(inRawPath:). Wall-clock figures: run it a few times on a quiet machine.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BASE=${1:-41295bf}
WORK=$(mktemp -d /tmp/hls-path-pattern.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
git -C "$ROOT" show "$BASE:Sources/Proxy/Config/PathPattern.swift" > "$WORK/OldPathPattern.swift"
swiftc -O -o "$WORK/old" "$ROOT/bench/path_pattern/main.swift" "$WORK/OldPathPattern.swift"
swiftc -O -D CAPTURES -o "$WORK/new" "$ROOT/bench/path_pattern/main.swift" \
    "$ROOT/Sources/Proxy/Config/PathPattern.swift" "$ROOT/Sources/Proxy/Catalog/Template.swift"
for round in 1 2 3; do
    echo "round $round, $BASE:"; "$WORK/old"
    echo "round $round, this tree:"; "$WORK/new"
done

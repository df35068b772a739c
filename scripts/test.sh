#!/usr/bin/env bash
# The whole test suite: `swift test` (arguments passed on), with at most 4 tests per core running at
# once. Unbounded, Swift Testing starts nearly every suite together: on 2 slow cores hundreds of
# proxies, origins and synchronous suites then wait on each other for more than half a minute, and
# requests time out that a loaded machine answers in a second. With the bound the suite is faster too
# (44 s against 54 s on 2 cores). SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH set in the
# environment wins.
set -euo pipefail
cd "$(dirname "$0")/.."
cores="$(nproc 2>/dev/null || echo 2)"
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-$((4 * cores))}"
exec swift test "$@"

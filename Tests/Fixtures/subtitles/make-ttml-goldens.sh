#!/usr/bin/env bash
# Writes Tests/Fixtures/golden/ttconv/<fixture>.vtt: every TTML/DFXP fixture here converted to WebVTT by
# ttconv (an independent converter, `pip install ttconv`; TT=/path/to/tt picks the binary). TTMLOracleTests
# compares TTMLConverter's cues with these files. ttconv reads only the http://www.w3.org/ns/ttml namespace,
# so DFXP fixtures reach it with their 2006/10 and 2006/04 namespace URIs rewritten to it (nothing else changes).
#   Tests/Fixtures/subtitles/make-ttml-goldens.sh      (then commit golden/ttconv)
set -euo pipefail
cd "$(dirname "$0")"
tt="${TT:-tt}"
command -v "$tt" >/dev/null || { echo "ttconv's tt not found (pip install ttconv, or TT=/path/to/tt)" >&2; exit 2; }
out=../golden/ttconv
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "ttconv $(pip show ttconv 2>/dev/null | sed -n 's/^Version: //p')" > "$out/VERSION"
for file in *.ttml *.dfxp *.xml; do
    [ -e "$file" ] || continue
    sed -e 's#http://www.w3.org/2006/10/ttaf1#http://www.w3.org/ns/ttml#g' \
        -e 's#http://www.w3.org/2006/04/ttaf1#http://www.w3.org/ns/ttml#g' "$file" > "$work/$file"
    "$tt" convert --itype TTML --otype VTT -i "$work/$file" -o "$out/$file.vtt" > "$work/log" 2>&1 \
        || { echo "ttconv failed on $file:" >&2; tail -n 3 "$work/log" >&2; exit 1; }
    grep -v -E 'Complete|^Input file|^Output file|xml:lang not specified' "$work/log" | sed "s#^#ttconv on $file: #" || true
done

#!/usr/bin/env bash
# Cross-checks TTMLConverter against ttconv (an independent TTML converter: `pip install ttconv`).
#   bench/ttml_oracle.sh            (after `swift build --build-tests`; TT=/path/to/tt to pick the binary)
# Our WebVTT for each fixture comes from TTMLGoldenTests (which writes it to TTML_OUTPUT_DIR); ttconv's from
# `tt convert`. ttconv reads only the http://www.w3.org/ns/ttml namespace, so DFXP fixtures are given to it
# with their 2006/10 and 2006/04 namespace URIs rewritten to it (nothing else changes).
# Compared per file: cue counts, cues equal to the millisecond with equal text, and the visible-text
# timeline (what is on screen at each millisecond; ttconv merges simultaneous paragraphs into one cue
# per interval, we keep overlapping cues, so cue lists alone differ where cues overlap). Text is
# compared without markup, entities decoded, whitespace runs collapsed; i/b/u tags are compared apart.
set -euo pipefail
cd "$(dirname "$0")/.."
tt="${TT:-tt}"
command -v "$tt" >/dev/null || { echo "ttconv's tt not found (pip install ttconv, or TT=/path/to/tt)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ours" "$work/ttconv" "$work/in"
TTML_OUTPUT_DIR="$work/ours" swift test --skip-build --filter TTMLGoldenTests > "$work/test.log" 2>&1 \
    || { cat "$work/test.log" >&2; exit 1; }
for file in Tests/Fixtures/subtitles/*.ttml Tests/Fixtures/subtitles/*.dfxp Tests/Fixtures/subtitles/*.xml; do
    [ -e "$file" ] || continue
    name="$(basename "$file")"
    sed -e 's#http://www.w3.org/2006/10/ttaf1#http://www.w3.org/ns/ttml#g' \
        -e 's#http://www.w3.org/2006/04/ttaf1#http://www.w3.org/ns/ttml#g' "$file" > "$work/in/$name"
    "$tt" convert --itype TTML --otype VTT -i "$work/in/$name" -o "$work/ttconv/$name.vtt" > "$work/ttconv/$name.log" 2>&1 \
        || echo "ttconv failed on $name: $(grep -v Complete "$work/ttconv/$name.log" | tail -n 1)"
    grep -v -E 'Complete|^Input file|^Output file|xml:lang not specified' "$work/ttconv/$name.log" | sed "s#^#  ttconv on $name: #" || true
done
python3 - "$work/ours" "$work/ttconv" <<'PY'
import html, pathlib, re, sys

def parse(path):
    cues, lines = [], path.read_text(encoding="utf-8").split("\n")
    stamp = r"(\d+):(\d\d):(\d\d)\.(\d{3})"
    i = 0
    while i < len(lines):
        m = re.match(stamp + r" --> " + stamp, lines[i])
        if not m:
            i += 1
            continue
        g = [int(x) for x in m.groups()]
        start = ((g[0] * 60 + g[1]) * 60 + g[2]) * 1000 + g[3]
        end = ((g[4] * 60 + g[5]) * 60 + g[6]) * 1000 + g[7]
        i += 1
        text = []
        while i < len(lines) and lines[i] != "":
            text.append(lines[i])
            i += 1
        cues.append((start, end, text))
    return cues

# WebVTT cue markup (W3C WebVTT §4.2.2): only these tags are markup; ttconv leaves `<` in text unescaped,
# so anything else in angle brackets is text.
TAG = r"</?(?:c|i|b|u|v|lang|ruby|rt)(?:\.[^\s>]*)?(?:\s[^>]*)?>|<\d[\d:.]*>"

def plain(line):
    return re.sub(r"\s+", " ", html.unescape(re.sub(TAG, "", line))).strip()

def styled(line):
    kept = re.sub(r"(?!</?[ibu]>)" + TAG, "", line)
    return re.sub(r"\s+", " ", html.unescape(kept)).strip()

def timeline(cues, render):
    cuts = sorted({c[0] for c in cues} | {c[1] for c in cues})
    return cuts, lambda a: sorted(render(l) for c in cues if c[0] <= a < c[1] for l in c[2])

ours_dir, theirs_dir = map(pathlib.Path, sys.argv[1:3])
total_ms = agree_ms = 0
for ours_path in sorted(ours_dir.glob("*.vtt")):
    theirs_path = theirs_dir / ours_path.name
    name = ours_path.name[:-4]
    if not theirs_path.exists():
        print(f"{name}: no ttconv output")
        continue
    ours, theirs = parse(ours_path), parse(theirs_path)
    as_key = lambda c: (c[0], c[1], tuple(plain(l) for l in c[2]))
    exact = len(set(map(as_key, ours)) & set(map(as_key, theirs)))
    cuts = sorted({c[0] for c in ours + theirs} | {c[1] for c in ours + theirs})
    _, ours_at = timeline(ours, plain)
    _, theirs_at = timeline(theirs, plain)
    _, ours_styled = timeline(ours, styled)
    _, theirs_styled = timeline(theirs, styled)
    span = same = styled_same = intervals = intervals_same = 0
    diffs = []
    for a, b in zip(cuts, cuts[1:]):
        o, t = ours_at(a), theirs_at(a)
        if not o and not t:
            continue
        span += b - a
        intervals += 1
        if o == t:
            intervals_same += 1
            same += b - a
            styled_same += (b - a) if ours_styled(a) == theirs_styled(a) else 0
        else:
            diffs.append(f"    {a}-{b} ms: ours {o} / ttconv {t}")
    total_ms += span
    agree_ms += same
    pct = lambda x: 100.0 * x / span if span else 100.0
    print(f"{name}: cues ours {len(ours)}, ttconv {len(theirs)}, equal to the ms with equal text {exact}; "
          f"on-screen text agrees in {intervals_same} of {intervals} intervals ({pct(same):.1f}% of {span} ms), "
          f"with i/b/u too {pct(styled_same):.1f}%")
    for line in diffs:
        print(line)
print(f"all fixtures: on-screen text agrees {100.0 * agree_ms / total_ms if total_ms else 100:.1f}% of {total_ms} ms")
PY

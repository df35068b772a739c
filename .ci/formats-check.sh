#!/usr/bin/env bash
# Subtitle formats in real players: the bundled sample with its English cues as IMSC1 TTML, its French
# cues as DFXP (ticks) and an Italian WebVTT-in-MP4 (wvtt) track, converted by the proxy and played by
# ffmpeg, hls.js and video.js. Every cue each player loads must start at its authored time, read here
# from the sources themselves (TTML begin values, the WebVTT the wvtt file was made from), not from the
# proxy: within 0.1 s in hls.js and video.js (video.js counts from the first video PTS, 23 ms after the
# audio on this TS, so its cues read 0.023 s early) and exactly in ffmpeg (which ignores X-TIMESTAMP-MAP
# and keeps cue times as written). The players' first-two-cue report is widened to every cue in a copy
# of the shared check scripts. Offline, loopback only; stops what it starts. Needs
# ../shared/tools/real-clients (installed by .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${HLS_PROXY_BIN:-.build/debug/hls-subtitle-proxy}
CLIENTS=${CLIENTS:-../shared/tools/real-clients}
PORT=${FORMATS_CHECK_PORT:-31400}
[ -x "$BIN" ] || { echo "FAIL formats: no proxy binary at $BIN (run swift build)"; exit 1; }
CI_NAME="formats"
. .ci/lib.sh
ci_temp_dir TMP
CI_LOGS="$TMP/err"

cp -r Examples/sample-vod "$TMP/vod"
cp .ci/formats/en.ttml .ci/formats/fr.dfxp "$TMP/vod/subs/"
cp Tests/Fixtures/subtitles/mp4-with-wvtt.mp4 "$TMP/vod/subs/it.mp4"
cat > "$TMP/config.json" <<JSON
{
  "listen": { "host": "127.0.0.1", "port": $PORT },
  "mounts": { "sample": { "origin": "$TMP/vod" } },
  "subtitles": [ { "name": "formats", "masters": ["/sample/master.m3u8"], "group_id": "subs", "tracks": [
    { "id": "en", "name": "English", "language": "en", "default": true, "source": "subs/en.ttml" },
    { "id": "fr", "name": "Français", "language": "fr", "source": "subs/fr.dfxp" },
    { "id": "it", "name": "Italiano", "language": "it", "source": "subs/it.mp4", "mode": "single" } ] } ],
  "access_log": false
}
JSON
start_proxy "$TMP/config.json" "$TMP/out" "$TMP/err"
wait_healthy "http://127.0.0.1:$PORT/healthz" || true
URL="http://127.0.0.1:$PORT/sample/master.m3u8"
if grep -q 'subtitle source unusable' "$TMP/out" "$TMP/err"; then fail "a source was refused"; fi
# The authored start times, in seconds, one line per language: from the sources, by a reader of our own
# here (clock, offset and tick times; the sources use no frames), independent of the proxy's converter.
python3 - .ci/formats/en.ttml .ci/formats/fr.dfxp Tests/Fixtures/subtitles/mp4-with-wvtt.vtt > "$TMP/authored" <<'PY'
import re, sys, xml.etree.ElementTree as ET
def ttml(path):
    root = ET.parse(path).getroot()
    ticks = next((float(v) for k, v in root.attrib.items() if k.endswith('}tickRate')), 1.0)
    def time(t):
        m = re.fullmatch(r'(\d+):(\d\d):(\d\d(?:\.\d+)?)', t)
        if m: return int(m[1]) * 3600 + int(m[2]) * 60 + float(m[3])
        m = re.fullmatch(r'(\d+(?:\.\d+)?)(h|m|s|ms|t)', t)
        return float(m[1]) * {'h': 3600, 'm': 60, 's': 1, 'ms': 0.001, 't': 1 / ticks}[m[2]]
    return sorted(time(p.get('begin')) for p in root.iter() if p.tag.endswith('}p'))
def vtt(path):
    starts = []
    for line in open(path, encoding='utf-8'):
        if '-->' in line:
            h, m, s = ('00:' + line.split('-->')[0].strip()).split(':')[-3:]
            starts.append(int(h) * 3600 + int(m) * 60 + float(s))
    return sorted(starts)
for lang, starts in (('en', ttml(sys.argv[1])), ('fr', ttml(sys.argv[2])), ('it', vtt(sys.argv[3]))):
    print(lang, ' '.join('%.3f' % s for s in starts))
PY
# Copies of the shared checks whose report lists every cue, not the first two.
cp -r "$CLIENTS" "$TMP/clients"
sed -i 's/slice(0, 2)/slice(0, 100000)/' "$TMP/clients/check_hlsjs.sh" "$TMP/clients/check_videojs.sh"
grep -q 'slice(0, 100000)' "$TMP/clients/check_hlsjs.sh" && grep -q 'slice(0, 100000)' "$TMP/clients/check_videojs.sh" \
  || fail "the player checks no longer list cues with slice(0, 2): update this script"
# compare PLAYER SHIFT FILE: every track's cue starts (one line per language in FILE) against the authored
# ones, shifted by SHIFT seconds; all must be there, each within 0.1 s (0.0005 s for ffmpeg).
compare() {
  python3 - "$1" "$2" "$3" "$TMP/authored" <<'PY'
import sys
player, shift, seen, authored = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
tolerance = 0.0005 if player == 'ffmpeg' else 0.1
want = {l.split()[0]: [float(x) + shift for x in l.split()[1:]] for l in open(authored)}
got = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in open(seen)}
bad = []
for lang, starts in want.items():
    have = sorted(got.get(lang, []))
    if len(have) != len(starts):
        bad.append('%s: %d cues %s, authored %d %s' % (lang, len(have), have, len(starts), starts)); continue
    for i, (a, b) in enumerate(zip(starts, have)):
        if abs(a - b) > tolerance: bad.append('%s cue %d at %.3f, authored %.3f' % (lang, i + 1, b, a))
if bad: print('; '.join(bad)); sys.exit(1)
print(' '.join('%s=%d' % (l, len(s)) for l, s in want.items()))
PY
}
export EXPECT_LANGS=en,fr,it MIN_CUES=4
for player in ffmpeg hlsjs videojs; do
  if [ "$player" = ffmpeg ]; then
    out=$(bash "$CLIENTS/check_ffmpeg.sh" "$URL" || bash "$CLIENTS/check_ffmpeg.sh" "$URL") || { echo "$out"; fail "$player"; }
    echo "$out"
    # Each rendition extracted whole, as check_ffmpeg does, keeping every cue's start.
    : > "$TMP/seen-ffmpeg"
    for lang in en fr it; do
      index=$(ffprobe -v error -strict experimental -select_streams s -show_entries stream_tags=language -of csv=p=0 "$URL" | grep -n "^$lang\$" | cut -d: -f1)
      [ -n "$index" ] || fail "ffmpeg: no $lang subtitle stream"
      timeout 120 ffmpeg -nostdin -hide_banner -loglevel error -strict experimental -copyts -i "$URL" -map "0:s:$((index - 1))" \
        -c:s webvtt -y "$TMP/ffmpeg-$lang.vtt" </dev/null || fail "ffmpeg: extracting $lang"
      echo "$lang $(python3 -c '
import sys
for line in open(sys.argv[1]):
    if "-->" in line:
        h, m, s = ("00:" + line.split("-->")[0].strip()).split(":")[-3:]; print("%.3f" % (int(h) * 3600 + int(m) * 60 + float(s)))' "$TMP/ffmpeg-$lang.vtt" | tr '\n' ' ')" >> "$TMP/seen-ffmpeg"
    done
    shift=0
  else
    out=$(VERBOSE=1 bash "$TMP/clients/check_$player.sh" "$URL" 2> "$TMP/$player.json" \
          || VERBOSE=1 bash "$TMP/clients/check_$player.sh" "$URL" 2> "$TMP/$player.json") || { echo "$out"; fail "$player"; }
    echo "$out"
    python3 - "$TMP/$player.json" > "$TMP/seen-$player" <<'PY'
import json, sys
text = open(sys.argv[1]).read(); o = json.loads(text[text.index('{'):])
for t in (o.get('result') or {}).get('tracks', []):
    print(t.get('lang'), ' '.join('%.3f' % c[0] for c in (t.get('first') or [])))
PY
    shift=0; [ "$player" = videojs ] && shift=-0.023
  fi
  result=$(compare "$player" "$shift" "$TMP/seen-$player") || fail "$player: $result"
  echo "ok   $player: every cue at its authored start ($result cues)"
done
if grep -q 'subtitle source unusable' "$TMP/out" "$TMP/err"; then fail "a source was refused while playing"; fi
echo "formats: TTML, DFXP and wvtt played in ffmpeg, hls.js and video.js, every cue at its authored time"

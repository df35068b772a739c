#!/usr/bin/env bash
# Subtitle formats in real players: the bundled sample with its English cues as IMSC1 TTML, its French
# cues as DFXP (ticks) and an Italian WebVTT-in-MP4 (wvtt) track, converted by the proxy and played by
# ffmpeg, hls.js and video.js. hls.js and video.js must show the first English and French cues at their
# authored 0.5 s (video.js: 0.477 s, as it counts from the first video PTS) and the wvtt cue at 1.0 s.
# Offline, loopback only; stops what it starts. Needs ../shared/tools/real-clients (installed by .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${HLS_PROXY_BIN:-.build/debug/hls-subtitle-proxy}
CLIENTS=${CLIENTS:-../shared/tools/real-clients}
PORT=${FORMATS_CHECK_PORT:-31400}
[ -x "$BIN" ] || { echo "FAIL formats: no proxy binary at $BIN (run swift build)"; exit 1; }
TMP=$(mktemp -d); PID=""
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$TMP"' EXIT
fail() { echo "FAIL formats: $*"; tail -5 "$TMP/err" 2>/dev/null || true; exit 1; }

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
"$BIN" --config "$TMP/config.json" > "$TMP/out" 2> "$TMP/err" & PID=$!
for _ in $(seq 100); do curl -fs --max-time 2 "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
URL="http://127.0.0.1:$PORT/sample/master.m3u8"
if grep -q 'subtitle source unusable' "$TMP/out" "$TMP/err"; then fail "a source was refused"; fi
export EXPECT_LANGS=en,fr,it MIN_CUES=4
for player in ffmpeg hlsjs videojs; do
  out=$(bash "$CLIENTS/check_$player.sh" "$URL" || bash "$CLIENTS/check_$player.sh" "$URL") || { echo "$out"; fail "$player"; }
  echo "$out"
  case $player in
    hlsjs) first='0\.[456]'; wvtt='(0\.9|1[,.])' ;;
    videojs) first='0\.4[5-9]'; wvtt='(0\.9[5-9]|1[,.])' ;;
    *) continue ;;
  esac
  for lang in en fr; do
    grep -Eq "lang=$lang [^]]*first=\[$first" <<<"$out" || fail "$player: first $lang cue not at its authored time"
  done
  grep -Eq "lang=it [^]]*first=\[$wvtt" <<<"$out" || fail "$player: first wvtt cue not at 1.0 s"
done
if grep -q 'subtitle source unusable' "$TMP/out" "$TMP/err"; then fail "a source was refused while playing"; fi
echo "formats: TTML, DFXP and wvtt played in ffmpeg, hls.js and video.js"

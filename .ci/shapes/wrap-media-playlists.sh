#!/usr/bin/env bash
# Plays media playlists (no master) through the proxy with `wrap_media_playlists` on, in ffmpeg, hls.js
# and video.js: a directory mount (the bundled sample's v0/index.m3u8) and an http mount (the same
# sample served by python3 -m http.server). Each player must find the English track, and hls.js and
# video.js must show its first cue at the authored 0.5 s. Run from the repo root after `swift build`.
set -euo pipefail

ROOT=$(pwd)
BIN="$ROOT/.build/debug/hls-subtitle-proxy"
CLIENTS="$ROOT/../shared/tools/real-clients"
PROXY_PORT=19810
ORIGIN_PORT=19811
WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

[ -x "$BIN" ] || { echo "FAIL: $BIN missing: run swift build first"; exit 1; }

python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$ROOT/Examples/sample-vod" >"$WORK/origin.log" 2>&1 &
PIDS+=($!)

cat >"$WORK/config.json" <<JSON
{
  "listen": { "host": "127.0.0.1", "port": $PROXY_PORT },
  "mounts": {
    "dir": { "origin": "$ROOT/Examples/sample-vod" },
    "web": { "origin": "http://127.0.0.1:$ORIGIN_PORT", "segments": "proxy" }
  },
  "subtitles": [
    { "name": "wrap", "masters": ["/dir/v0/index.m3u8", "/web/v0/index.m3u8"], "wrap_media_playlists": true,
      "tracks": [ { "id": "en", "name": "English", "language": "en", "default": true, "source": "../subs/en.vtt" } ] }
  ],
  "access_log": false
}
JSON
"$BIN" --config "$WORK/config.json" >"$WORK/proxy.out" 2>"$WORK/proxy.err" &
PIDS+=($!)

for _ in $(seq 1 50); do
    if curl -sf "http://127.0.0.1:$PROXY_PORT/healthz" >/dev/null && curl -sf "http://127.0.0.1:$ORIGIN_PORT/v0/index.m3u8" >/dev/null; then break; fi
    sleep 0.2
done

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for path in /dir/v0/index.m3u8 /web/v0/index.m3u8; do
    url="http://127.0.0.1:$PROXY_PORT$path"
    master=$(curl -sf "$url") || { fail "$path: no answer"; continue; }
    grep -q '^#EXT-X-STREAM-INF:BANDWIDTH=[0-9]*,SUBTITLES="subs"$' <<<"$master" || fail "$path: not wrapped: $master"
    grep -q '^index.m3u8?_hls_proxy=media$' <<<"$master" || fail "$path: variant URI missing"
    curl -sf "$url?_hls_proxy=media" | grep -q '^#EXTINF' || fail "$path: the variant URI does not serve the media playlist"
    for player in ffmpeg hlsjs videojs; do
        out=$(EXPECT_LANGS=en MIN_CUES=2 "$CLIENTS/check_$player.sh" "$url" 2>&1 | tail -n 1) || true
        echo "$path $player: $out"
        [[ "$out" == PASS* ]] || { fail "$path $player"; continue; }
        if [ "$player" != ffmpeg ]; then
            # The first cue is authored at 0.5 s; video.js counts from the first video PTS, which on
            # ffmpeg TS trails the audio's by about 23 ms, so a few tens of ms either way are allowed.
            first=$(grep -o 'first=\[[-0-9.]*' <<<"$out" | head -n 1 | cut -d'[' -f2)
            python3 -c "import sys; t=float(sys.argv[1]); sys.exit(0 if abs(t-0.5) < 0.1 else 1)" "${first:-nan}" \
                || fail "$path $player: first cue at ${first:-none}, authored at 0.5"
        fi
    done
done

if [ "$failures" -ne 0 ]; then
    echo "wrap-media-playlists: $failures failure(s)"; tail -n 20 "$WORK/proxy.err"; exit 1
fi
echo "wrap-media-playlists: PASS"

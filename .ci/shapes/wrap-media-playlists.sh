#!/usr/bin/env bash
# Plays media playlists (no master) through the proxy with `wrap_media_playlists` on, in ffmpeg, hls.js
# and video.js: a directory mount (the bundled sample's v0/index.m3u8) and an http mount (the same
# sample served by python3 -m http.server). Each player must find the English track, and hls.js and
# video.js must show its first cue at the authored 0.5 s. Run from the repo root after `swift build`.
set -euo pipefail

ROOT=$(pwd)
PROXY_PORT=${CI_PROXY_PORT:-19810}
ORIGIN_PORT=${CI_ORIGIN_PORT:-19811}
. "$ROOT/.ci/lib.sh"
ci_player_check wrap-media-playlists WORK

python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$ROOT/Examples/sample-vod" >"$WORK/origin.log" 2>&1 &
started $!

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
start_proxy "$WORK/config.json" "$WORK/proxy.out" "$WORK/proxy.err"

wait_healthy --tries 50 --pause 0.2 "http://127.0.0.1:$PROXY_PORT/healthz" "http://127.0.0.1:$ORIGIN_PORT/v0/index.m3u8" || true


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

ci_summary

#!/usr/bin/env bash
# A directory mount whose playlists use path-absolute URIs (`/v0/index.m3u8`, `/v0/seg000.ts`), played
# through the proxy in ffmpeg: the master's and the media playlists' URIs come back under the mount
# (`/disk/v0/seg000.ts`), ffmpeg decodes every segment of the video (a 404 would end it early) and
# extracts every subtitle track's cues equal to the source, and the subtitle segments carry the video's
# X-TIMESTAMP-MAP (the proxy reads the first segment through the same path-absolute URI). Port 21502 (CI_PROXY_PORT),
# loopback only; about half a minute; stops what it starts.
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT=${CI_PROXY_PORT:-21502}
. .ci/lib.sh
ci_shape_check directory-playlist TMP err

cp -r Examples/sample-vod "$TMP/vod"
sed -i 's|^v\([01]\)/index.m3u8|/v\1/index.m3u8|' "$TMP/vod/master.m3u8"
for v in v0 v1; do sed -i "s|^seg|/$v/seg|" "$TMP/vod/$v/index.m3u8"; done
grep -q '^/v0/seg000.ts$' "$TMP/vod/v0/index.m3u8" && grep -q '^/v0/index.m3u8$' "$TMP/vod/master.m3u8" || fail "the fixture was not rewritten"
cat > "$TMP/config.json" <<JSON
{
  "listen": { "host": "127.0.0.1", "port": $PORT },
  "mounts": { "disk": { "origin": "$TMP/vod" } },
  "subtitles": [ { "name": "s", "masters": ["/disk/master.m3u8"], "tracks": [
    { "id": "en", "name": "English", "language": "en", "default": true, "source": "subs/en.vtt" },
    { "id": "fr", "name": "Français", "language": "fr", "source": "subs/fr.vtt" } ] } ],
  "access_log": false
}
JSON
start_proxy "$TMP/config.json" "$TMP/out" "$TMP/err"
B="http://127.0.0.1:$PORT"
wait_healthy "$B/healthz" || fail "the proxy did not start"

curl -fsS --max-time 10 -o "$TMP/master" "$B/disk/master.m3u8" || fail "GET the master"
grep -q '^/disk/v0/index.m3u8$' "$TMP/master" || fail "the master's variant URI is not under the mount: $(grep -v '^#' "$TMP/master" | tr '\n' ' ')"
curl -fsS --max-time 10 -o "$TMP/media" "$B/disk/v0/index.m3u8" || fail "GET the media playlist"
[ "$(grep -c '^/disk/v0/seg00[0-2].ts$' "$TMP/media")" = 3 ] || fail "the media playlist's segments are not under the mount: $(grep -v '^#' "$TMP/media" | tr '\n' ' ')"
curl -fsS --max-time 10 -o /dev/null "$B/disk/v0/seg000.ts" || fail "GET /disk/v0/seg000.ts"
echo "ok   master and media playlists: path-absolute URIs served under /disk"

uri=$(grep -m1 '^#EXT-X-MEDIA:TYPE=SUBTITLES' "$TMP/master" | sed 's/.*URI="\([^"]*\)".*/\1/')
curl -fsS --max-time 10 -o "$TMP/sub" "$B$uri" || fail "GET $uri"
curl -fsS --max-time 10 -o "$TMP/seg0.vtt" "$B${uri%/*}/0.vtt" || fail "GET the first subtitle segment"
grep -q "^X-TIMESTAMP-MAP=MPEGTS:" "$TMP/seg0.vtt" || fail "the subtitle segment has no X-TIMESTAMP-MAP: the first segment was not read"
echo "ok   subtitle segments mapped: $(grep '^X-TIMESTAMP-MAP' "$TMP/seg0.vtt")"

# Every video frame through the proxy: 12 s of the sample, none of its segments missing. (awk reads
# ffprobe's whole output: `grep -m1` would exit early and SIGPIPE it, failing the pipeline.)
frames=$(timeout 120 ffmpeg -nostdin -hide_banner -loglevel error -i "$B/disk/master.m3u8" -map 0:v:0 -f null - -progress pipe:1 </dev/null \
  | sed -n 's/^frame=//p' | tail -1) || fail "ffmpeg could not decode the video through the mount"
expected=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 Examples/sample-vod/v0/index.m3u8 \
  | awk '/[0-9]/ && first == "" { first = $0 } END { print first }' | tr -dc "0-9")
[ "$frames" = "$expected" ] || fail "ffmpeg decoded $frames frames through the proxy, $expected from the files"
echo "ok   ffmpeg decoded all $frames frames of the first variant through the mount"
out=$(EXPECT_LANGS=en,fr MIN_CUES=4 bash "$CLIENTS/check_ffmpeg.sh" "$B/disk/master.m3u8") || fail "ffmpeg: $out"
echo "$out"
echo "directory-playlist: all passed"

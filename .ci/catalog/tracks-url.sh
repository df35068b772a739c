#!/usr/bin/env bash
# A catalog whose tracks come from the app's backend (`tracks_url`), in ffmpeg, hls.js and video.js:
# masters "/web/assets/{asset}/master.m3u8", tracks from "/api/assets/{asset}/subtitles" on a Python
# backend (English with an absolute source, French with a relative one). movie-a's backend answer is
# listed in place of the set's static track; movie-b has no answer (404), so its master falls back to
# the static track. Checks the listed languages, that the backend got no client or mount header, that
# the failure is counted by reason, and that hls.js and video.js show the first cue at its authored 0.5 s.
# Run from the repo root after `swift build`. Ports 21600-21601 (CI_PROXY_PORT, CI_ORIGIN_PORT override them), loopback only; stops what it starts.
set -euo pipefail

ROOT=$(pwd)
PROXY_PORT=${CI_PROXY_PORT:-21600}
ORIGIN_PORT=${CI_ORIGIN_PORT:-21601}
. "$ROOT/.ci/lib.sh"
ci_player_check catalog-tracks-url WORK

# The origin and the backend, one server: two assets of the bundled sample, subtitles, and one answer.
mkdir -p "$WORK/www/assets" "$WORK/www/subs/movie-a" "$WORK/www/subs/movie-b" "$WORK/www/api/assets/movie-a"
for asset in movie-a movie-b; do
    mkdir -p "$WORK/www/assets/$asset"
    cp -r "$ROOT/Examples/sample-vod/master.m3u8" "$ROOT/Examples/sample-vod/v0" "$ROOT/Examples/sample-vod/v1" "$WORK/www/assets/$asset/"
done
cp "$ROOT/Examples/sample-vod/subs/en.vtt" "$WORK/www/subs/movie-a/en.vtt"
cp "$ROOT/Examples/sample-vod/subs/fr.vtt" "$WORK/www/subs/movie-a/fr.vtt"
cp "$ROOT/Examples/sample-vod/subs/en.vtt" "$WORK/www/subs/movie-b/en.vtt"
cat >"$WORK/www/api/assets/movie-a/subtitles" <<JSON
{"tracks": [
  {"id": "en", "name": "English (backend)", "language": "en", "default": true, "autoselect": true,
   "source": "http://127.0.0.1:$ORIGIN_PORT/subs/movie-a/en.vtt"},
  {"id": "fr", "name": "Français (backend)", "language": "fr", "source": "/subs/movie-a/fr.vtt"}
]}
JSON
cat >"$WORK/server.py" <<'PY'
import http.server, os, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, fmt, *args):
        # The request line and the fields that must never reach the backend, one line per request.
        fields = " ".join("%s=%s" % (name, self.headers[name]) for name in ("Cookie", "X-Origin-Token", "Authorization") if self.headers[name])
        sys.stderr.write("%s %s\n" % (self.requestline, fields))
os.chdir(sys.argv[2])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
python3 "$WORK/server.py" "$ORIGIN_PORT" "$WORK/www" 2>"$WORK/origin.log" &
started $!

cat >"$WORK/config.json" <<JSON
{
  "listen": { "host": "127.0.0.1", "port": $PROXY_PORT },
  "mounts": { "web": { "origin": "http://127.0.0.1:$ORIGIN_PORT", "segments": "proxy",
                       "forward_headers": ["Cookie"], "inject_headers": { "X-Origin-Token": "mount-secret" } } },
  "subtitles": [
    { "name": "catalog", "masters": ["/web/assets/{asset}/master.m3u8"],
      "tracks_url": "http://127.0.0.1:$ORIGIN_PORT/api/assets/{asset}/subtitles",
      "tracks_headers": { "Authorization": "Bearer backend-token" },
      "source_hosts": ["127.0.0.1"],
      "tracks": [
        { "id": "en", "name": "English", "language": "en", "default": true, "source": "http://127.0.0.1:$ORIGIN_PORT/subs/{asset}/en.vtt" }
      ] }
  ],
  "access_log": false
}
JSON
start_proxy "$WORK/config.json" "$WORK/proxy.out" "$WORK/proxy.err"

wait_healthy --tries 50 --pause 0.2 "http://127.0.0.1:$PROXY_PORT/healthz" "http://127.0.0.1:$ORIGIN_PORT/assets/movie-a/master.m3u8" || true

langs() { grep '^#EXT-X-MEDIA:TYPE=SUBTITLES' | grep -o 'LANGUAGE="[^"]*"' | cut -d'"' -f2 | tr '\n' ',' ; }

base="http://127.0.0.1:$PROXY_PORT/web/assets"
a=$(curl -sf -H 'Cookie: session=client-secret' "$base/movie-a/master.m3u8")
[ "$(langs <<<"$a")" = "en,fr," ] || fail "movie-a should list the backend's en and fr: $a"
grep -q 'NAME="English (backend)"' <<<"$a" || fail "movie-a should list the backend's English, not the static one"
[ "$(curl -sf "$base/movie-b/master.m3u8" | langs)" = "en," ] || fail "movie-b (backend 404) should list the static en"
curl -sf "http://127.0.0.1:$PROXY_PORT/metrics" | grep -q 'hls_proxy_tracks_backend_failures_total{reason="status"} 1' \
    || fail "the backend's 404 is not counted as status"

for player in ffmpeg hlsjs videojs; do
    out=$(EXPECT_LANGS=en,fr MIN_CUES=2 "$CLIENTS/check_$player.sh" "$base/movie-a/master.m3u8" 2>&1 | tail -n 1) || true
    echo "movie-a $player: $out"
    [[ "$out" == PASS* ]] || { fail "movie-a $player"; continue; }
    if [ "$player" != ffmpeg ]; then
        first=$(grep -o 'first=\[[-0-9.]*' <<<"$out" | head -n 1 | cut -d'[' -f2)
        python3 -c "import sys; t=float(sys.argv[1]); sys.exit(0 if abs(t-0.5) < 0.1 else 1)" "${first:-nan}" \
            || fail "movie-a $player: first cue at ${first:-none}, authored at 0.5"
    fi
done

# The log is written off the request path: read after the players.
[ "$(grep -c 'tracks backend failed' "$WORK/proxy.err" || true)" = 1 ] || fail "expected one warn line for movie-b's backend 404"
backend_lines=$(grep 'GET /api/assets/' "$WORK/origin.log" || true)
[ -n "$backend_lines" ] || fail "the backend was never asked"
grep -q 'Authorization=Bearer backend-token' <<<"$backend_lines" || fail "the backend did not get tracks_headers: $backend_lines"
! grep -q 'Cookie=\|X-Origin-Token=' <<<"$backend_lines" || fail "a client or mount header reached the backend: $backend_lines"
grep -q 'GET /subs/movie-a/fr.vtt' "$WORK/origin.log" || fail "the relative backend source was never fetched"

ci_summary

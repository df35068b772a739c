#!/usr/bin/env bash
# Stream shapes: masters whose URIs are path-absolute, absolute on the mount's origin, or reached through a
# redirect, and a pass-through variant whose segment URIs are path-absolute, all played through the proxy
# with closed_captions "none". A python3 http.server on 127.0.0.1:19601 is the origin (the TS fixture under
# /vod/); the proxy listens on 127.0.0.1:19600. ffmpeg, hls.js and video.js must each find the English
# track with its cues, first cue at 0.5 s (en.vtt's first cue). Offline, loopback only; stops what it starts.
set -euo pipefail
cd "$(dirname "$0")/../.."
PPORT=${CI_PROXY_PORT:-19600}; OPORT=${CI_ORIGIN_PORT:-19601}
P="http://127.0.0.1:$PPORT"; O="http://127.0.0.1:$OPORT"
. .ci/lib.sh
ci_shape_check uri-forms TMP err

# The origin: /vod/ holds the TS sample; each master writes its variant URIs in another form.
mkdir -p "$TMP/www/vod/subs" "$TMP/www/other"
cp -r Tests/Fixtures/vod-ts/v0 Tests/Fixtures/vod-ts/v1 "$TMP/www/vod/"
cp Tests/Fixtures/subtitles/en.vtt "$TMP/www/vod/subs/en.vtt"
cat > "$TMP/www/vod/path-absolute.m3u8" <<M3U
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-STREAM-INF:BANDWIDTH=167200,RESOLUTION=320x180,CODECS="avc1.42c00c,mp4a.40.2"
/vod/v0/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=90200,RESOLUTION=160x90,CODECS="avc1.42c00b,mp4a.40.2"
$O/vod/v1/index.m3u8?k=1
M3U
# A variant whose segments are path-absolute, for the pass-through (segments "proxy") mount.
sed 's#^\([^#].*\.ts\)$#/vod/v0/\1#' Tests/Fixtures/vod-ts/v0/index.m3u8 > "$TMP/www/vod/v0/absolute.m3u8"
grep -q '^/vod/v0/' "$TMP/www/vod/v0/absolute.m3u8" || fail "could not make the path-absolute variant"
cat > "$TMP/www/vod/pass.m3u8" <<M3U
#EXTM3U
#EXT-X-STREAM-INF:BANDWIDTH=167200,RESOLUTION=320x180,CODECS="avc1.42c00c,mp4a.40.2"
/vod/v0/absolute.m3u8
M3U
# http.server, plus one redirect: /old/master.m3u8 -> /vod/path-absolute.m3u8.
cat > "$TMP/origin.py" <<'PY'
import http.server, sys, functools
class H(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/old/master.m3u8"):
            self.send_response(302); self.send_header("Location", "/vod/path-absolute.m3u8"); self.send_header("Content-Length", "0"); self.end_headers(); return
        return super().do_GET()
    def log_message(self, *a): pass
H.extensions_map[".m3u8"] = "application/vnd.apple.mpegurl"
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), functools.partial(H, directory=sys.argv[2])).serve_forever()
PY
python3 "$TMP/origin.py" "$OPORT" "$TMP/www" 2> "$TMP/origin.err" & started $!

cat > "$TMP/config.json" <<JSON
{
  "listen": { "host": "127.0.0.1", "port": $PPORT },
  "mounts": {
    "vod": { "origin": "$O/vod" },
    "pvod": { "origin": "$O/vod", "segments": "proxy" },
    "old": { "origin": "$O/old" }
  },
  "subtitles": [ { "name": "s", "masters": ["/vod/path-absolute.m3u8", "/pvod/pass.m3u8", "/old/master.m3u8"],
    "closed_captions": "none",
    "tracks": [ { "id": "en", "name": "English", "language": "en", "default": true, "source": "$O/vod/subs/en.vtt" } ] } ],
  "log_level": "info"
}
JSON
"$BIN" --check-config --config "$TMP/config.json" > "$TMP/check" 2>&1 || { cat "$TMP/check"; fail "--check-config"; }
start_proxy "$TMP/config.json" "$TMP/access" "$TMP/err"
wait_healthy "$P/healthz" "$O/vod/v0/index.m3u8" || true

# The rewritten lines, exactly.
m=$(curl -fsS --max-time 10 "$P/vod/path-absolute.m3u8") || fail "GET /vod/path-absolute.m3u8"
grep -qx '/vod/v0/index.m3u8' <<<"$m" || fail "path-absolute variant not on the mount: $m"
grep -qx '/vod/v1/index.m3u8?k=1' <<<"$m" || fail "absolute same-origin variant not on the mount: $m"
[ "$(grep -c '^#EXT-X-STREAM-INF:.*,CLOSED-CAPTIONS=NONE' <<<"$m")" = 2 ] || fail "CLOSED-CAPTIONS=NONE missing: $m"
echo "ok   /vod/path-absolute.m3u8: variants /vod/v0/index.m3u8, /vod/v1/index.m3u8?k=1, CLOSED-CAPTIONS=NONE on both"
r=$(curl -fsS --max-time 10 "$P/old/master.m3u8") || fail "GET /old/master.m3u8"
# /old does not cover the final URL; of the two mounts that do, the first by name (pvod) is taken.
grep -qx '/pvod/v0/index.m3u8' <<<"$r" || fail "redirected master's variant not on a covering mount: $r"
echo "ok   /old/master.m3u8 (302 to /vod/path-absolute.m3u8): variants mapped onto /pvod, which covers /vod/"
v=$(curl -fsS --max-time 10 "$P/pvod/v0/absolute.m3u8") || fail "GET /pvod/v0/absolute.m3u8"
seg=$(grep -m1 -v '^#' <<<"$v")
[[ "$seg" == /pvod/v0/* ]] || fail "pass-through segment not on the mount: $seg"
code=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' "$P$seg")
[ "$code" = 200 ] || fail "$seg answered $code"
echo "ok   /pvod/v0/absolute.m3u8: segment $seg through the proxy (200)"

# Real players: English present with cues, first cue at 0.5 s (hls.js, video.js report it).
status=0
check() {
  local player=$1 url=$2 out
  out=$(EXPECT_LANGS=en MIN_CUES=2 "$CLIENTS/check_$player.sh" "$url" 2>&1 | grep -E '^(PASS|FAIL)' | tail -1)
  echo "$player $url: $out"
  [[ "$out" == PASS* ]] || { status=1; return; }
  # ffmpeg prints first=MM:SS.mmm, the browsers first=[start, end]; VHS reads TS cues 23 ms early (AAC priming).
  first=$(grep -o 'first=[^];]*' <<<"$out" | head -1 | sed 's/first=//')
  python3 - "$first" <<'PY' || { echo "FAIL $player: first cue $first, expected 0.5 s"; status=1; }
import re, sys
m = re.match(r'\[?(?:(\d+):)?(-?\d+(?:\.\d+)?)', sys.argv[1])
t = m and (int(m.group(1) or 0) * 60 + float(m.group(2)))
sys.exit(0 if m and abs(t - 0.5) <= 0.05 else 1)
PY
}
for player in ffmpeg hlsjs videojs; do check "$player" "$P/vod/path-absolute.m3u8"; done
check ffmpeg "$P/old/master.m3u8"
check hlsjs "$P/pvod/pass.m3u8"
[ "$status" = 0 ] || fail "a player failed"
echo "uri-forms: all passed"

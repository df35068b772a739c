#!/usr/bin/env bash
# The redirect example (Examples/redirect-origin): its config passes --check-config as shipped, and a copy
# on a free port (the example's own address, 127.0.0.1:8080, rewritten in both places it appears) serves
# the master with three subtitle renditions, answers a variant playlist with a 302 to the origin, which
# answers it, and serves the subtitle playlists and files; ffprobe, when installed, finds the three
# subtitle streams through the redirects. Offline, loopback only, a few seconds; stops what it starts.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${HLS_PROXY_BIN:-}
if [ -z "$BIN" ]; then
  for b in .build/debug/hls-subtitle-proxy .build/release/hls-subtitle-proxy; do [ -x "$b" ] && BIN=$b && break; done
fi
[ -n "$BIN" ] && [ -x "$BIN" ] || { echo "FAIL redirect example: no proxy binary (run swift build, or set HLS_PROXY_BIN)"; exit 1; }
CONFIG=Examples/redirect-origin/config.json
PORT=${REDIRECT_EXAMPLE_PORT:-31300}
CI_NAME="redirect example"
. .ci/lib.sh
ci_temp_dir TMP
CI_LOGS="$TMP/err"

"$BIN" --check-config --config "$CONFIG" > "$TMP/check" 2>&1 || { cat "$TMP/check"; fail "--check-config refused $CONFIG"; }
echo "ok   --check-config $CONFIG"

# The copy lives elsewhere, so its directory origin is made absolute; the port moves in listen and origin alike.
sed -e "s/127\.0\.0\.1:8080/127.0.0.1:$PORT/" -e "s/\"port\": 8080/\"port\": $PORT/" \
    -e "s#\"\.\./sample-vod\"#\"$PWD/Examples/sample-vod\"#" "$CONFIG" > "$TMP/config.json"
grep -q ":$PORT/files/" "$TMP/config.json" || fail "the example's origin is no longer http://127.0.0.1:8080/files/"
start_proxy "$TMP/config.json" "$TMP/access" "$TMP/err"
B="http://127.0.0.1:$PORT"
wait_healthy "$B/healthz" || true

curl -fsS --max-time 10 -D "$TMP/mh" -o "$TMP/master" "$B/origin/master.m3u8" || fail "GET /origin/master.m3u8"
n=$(grep -c '^#EXT-X-MEDIA:TYPE=SUBTITLES' "$TMP/master" || true)
[ "$n" = 3 ] || fail "the master has $n subtitle renditions, not 3"
grep -qi '^x-hls-proxy-route: master' "$TMP/mh" || fail "the master was not rewritten"
echo "ok   /origin/master.m3u8: rewritten from the http origin, 3 subtitle renditions"

h=$(curl -sS --max-time 10 -D - -o /dev/null "$B/origin/v0/index.m3u8" | tr -d '\r')
grep -q '^HTTP/1.1 302' <<<"$h" || fail "the variant playlist was not redirected: $h"
loc=$(grep -i '^location:' <<<"$h" | sed 's/^[^:]*: *//')
[ "$loc" = "$B/files/v0/index.m3u8" ] || fail "Location is $loc"
seg=$(curl -fsSL --max-time 10 "$B/origin/v0/index.m3u8" | grep -m1 -v '^#') || fail "following the redirect"
code=$(curl -sL --max-time 10 -o /dev/null -w '%{http_code} %{num_redirects}' "$B/origin/v0/$seg")
[ "$code" = "200 1" ] || fail "segment v0/$seg through the redirect: $code"
echo "ok   /origin/v0/index.m3u8 -> 302 Location: $loc; the segment v0/$seg follows one redirect to 200"

uri=$(grep -m1 '^#EXT-X-MEDIA:TYPE=SUBTITLES' "$TMP/master" | sed 's/.*URI="\([^"]*\)".*/\1/')
curl -fsS --max-time 10 -o "$TMP/sub" "$B$uri" || fail "GET $uri"
first=$(grep -m1 -v '^#' "$TMP/sub")
cues=$(curl -fsS --max-time 10 "$B${uri%index.m3u8}$first" | grep -c -- '-->' || true)
[ "$cues" -ge 1 ] || fail "the first English subtitle file has no cues"
echo "ok   $uri and its first file ($cues cues)"

if command -v ffprobe >/dev/null 2>&1; then
  s=$(timeout 60 ffprobe -v error -strict experimental -select_streams s -show_entries stream=index -of json \
      "$B/origin/master.m3u8" | python3 -c 'import json, sys; print(len(json.load(sys.stdin).get("streams", [])))')
  [ "$s" = 3 ] || fail "ffprobe found $s subtitle streams, not 3"
  echo "ok   ffprobe through the redirects: 3 subtitle streams"
fi
r=$(grep -c '"route":"redirect","status":302' "$TMP/access" || true)
echo "redirect example: all passed ($r redirects in the access log)"

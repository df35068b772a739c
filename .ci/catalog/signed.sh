#!/usr/bin/env bash
# Signed playback URLs in real players: the bundled sample config plus a signing key, a URL made by the
# built binary (`hls-subtitle-proxy sign`) with two tracks of the token's own (French shifted by 2 s,
# so its cues prove they are the token's and not the configured set's), played in ffmpeg, hls.js and
# video.js, hls.js first cues at 0.5 s (English) and 2.5 s (French); a second URL made by tools/sign.py,
# played in ffmpeg; the master's variants at /sample/..., its subtitle URIs under the token; a token
# whose source is a loopback address served an empty track (no allow_private_networks); a tampered one 403.
# Run from the repo root after `swift build`. Ports 21700-21701 (CI_PROXY_PORT, CI_ORIGIN_PORT override them), loopback only; stops what it starts.
set -euo pipefail

ROOT=$(pwd)
PROXY_PORT=${CI_PROXY_PORT:-21700}
ORIGIN_PORT=${CI_ORIGIN_PORT:-21701}
. "$ROOT/.ci/lib.sh"
ci_player_check catalog-signed WORK

# A key as docs/signing.md asks for: 32 random bytes, base64, through the environment.
export HLS_PROXY_SIGNING_KEY=$(python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())')

# The bundled sample config, on our port, with the sample mount's absolute path and a signing key.
python3 - "$ROOT" "$PROXY_PORT" "$WORK/config.json" <<'PY'
import json, sys
root, port, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
config = json.load(open(root + "/config.example.json"))
config["listen"]["port"] = port
config["mounts"]["sample"]["origin"] = root + "/Examples/sample-vod"
config["signing"] = {"keys": {"k1": "${HLS_PROXY_SIGNING_KEY}"}}
config["access_log"] = False
json.dump(config, open(out, "w"), indent=2)
PY

# A subtitle origin on loopback, for the token that must not reach it.
python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$ROOT/Examples/sample-vod/subs" >"$WORK/origin.log" 2>&1 &
started $!

cat >"$WORK/tracks.json" <<'JSON'
[{"language":"en","name":"English (signed)","source":"subs/en.vtt"},
 {"language":"fr","name":"Français (signed)","source":"subs/fr.vtt","offset":2},
 {"language":"es","name":"Español (signed)","source":"subs/es.srt","mode":"single"}]
JSON
echo '[{"language":"en","name":"English","source":"subs/en.vtt","default":true}]' >"$WORK/tracks-en.json"
echo "[{\"language\":\"en\",\"name\":\"English\",\"source\":\"http://127.0.0.1:$ORIGIN_PORT/en.vtt\"}]" >"$WORK/tracks-loopback.json"

start_proxy "$WORK/config.json" "$WORK/proxy.out" "$WORK/proxy.err"
wait_healthy --tries 50 --pause 0.2 "http://127.0.0.1:$PROXY_PORT/healthz" "http://127.0.0.1:$ORIGIN_PORT/en.vtt" || true

langs() { grep '^#EXT-X-MEDIA:TYPE=SUBTITLES' | grep -o 'LANGUAGE="[^"]*"' | cut -d'"' -f2 | tr '\n' ',' ; }
defaults() { grep '^#EXT-X-MEDIA:TYPE=SUBTITLES' | grep 'DEFAULT=YES' | grep -o 'LANGUAGE="[^"]*"' | cut -d'"' -f2 | tr '\n' ',' ; }

base="http://127.0.0.1:$PROXY_PORT"
# The token lists en and fr of its three tracks, fr the default (its payload's choices).
signed=$("$BIN" sign --config "$WORK/config.json" --master /sample/master.m3u8 --tracks "$WORK/tracks.json" \
    --expires-in 600 --subtitles en,fr --default fr) || { echo "FAIL: sign: $signed"; exit 1; }
token=$(cut -d/ -f5 <<<"$signed")
master=$(curl -sf "$base$signed") || fail "signed master not served"
[ "$(langs <<<"$master")" = "en,fr," ] || fail "signed master lists $(langs <<<"$master"), not en,fr"
[ "$(defaults <<<"$master")" = "fr," ] || fail "signed master's default is $(defaults <<<"$master"), not fr"
grep -q 'NAME="English (signed)"' <<<"$master" || fail "the token's own NAMEs are not in the master"
[ "$(grep -v '^#' <<<"$master" | grep -v '^$' | tr '\n' ,)" = "/sample/v0/index.m3u8,/sample/v1/index.m3u8," ] \
    || fail "variants do not point at the master's own path: $(grep -v '^#' <<<"$master" | tr '\n' ' ')"
grep -q "URI=\"/_hls-proxy/v1/signed/$token/en/index.m3u8\"" <<<"$master" || fail "subtitle URI not under the token"
curl -sf "$base/_hls-proxy/v1/signed/$token/fr/0.vtt" | grep -q 'X-TIMESTAMP-MAP=MPEGTS:' || fail "no X-TIMESTAMP-MAP in the signed fr segment"

# video.js (VHS 2.16) loads no cues for a DEFAULT track that is not the first one, on the plain
# configured master too (`/sample/master.m3u8?hls_proxy_default=fr`): it plays a token without `default`.
undefaulted=$("$BIN" sign --config "$WORK/config.json" --master /sample/master.m3u8 --tracks "$WORK/tracks.json" \
    --expires-in 600 --subtitles en,fr)
for player in ffmpeg hlsjs videojs; do
    url="$base$signed"
    [ "$player" = videojs ] && url="$base$undefaulted"
    out=$(EXPECT_LANGS=en,fr MIN_CUES=2 "$CLIENTS/check_$player.sh" "$url" 2>&1 | tail -n 1) || true
    echo "signed ($player): $out"
    [[ "$out" == PASS* ]] || { fail "signed URL in $player"; continue; }
    if [ "$player" = hlsjs ]; then
        # Authored: both files start at 0.5 s; the token shifts French by 2 s.
        python3 - "$out" <<'PY' || fail "hls.js first cues: $out"
import re, sys
line = sys.argv[1]
firsts = {}
for lang, first in re.findall(r'lang=([a-z]+) [^\]]*?first=\[([-0-9.]+)', line):
    firsts.setdefault(lang, float(first))
want = {"en": 0.5, "fr": 2.5}
ok = all(abs(firsts.get(k, float("nan")) - v) < 0.1 for k, v in want.items())
print("hls.js first cues:", firsts)
sys.exit(0 if ok else 1)
PY
    fi
done

# The documented signer, tools/sign.py, makes a URL the proxy serves: played in ffmpeg.
python_signed=$(python3 "$ROOT/tools/sign.py" --key-id k1 --key "$HLS_PROXY_SIGNING_KEY" --master /sample/master.m3u8 \
    --tracks "$WORK/tracks-en.json" --expires-in 600)
out=$(EXPECT_LANGS=en MIN_CUES=2 "$CLIENTS/check_ffmpeg.sh" "$base$python_signed" 2>&1 | tail -n 1) || true
echo "tools/sign.py (ffmpeg): $out"
[[ "$out" == PASS* ]] || fail "tools/sign.py URL in ffmpeg"
[ "$(curl -sf "$base$python_signed" | langs)" = "en," ] || fail "tools/sign.py master should list en only"

# A token whose source is on loopback: served, but as an empty track; the subtitle origin never asked.
loopback=$("$BIN" sign --config "$WORK/config.json" --master /sample/master.m3u8 --tracks "$WORK/tracks-loopback.json")
ltoken=$(cut -d/ -f5 <<<"$loopback")
asked_before=$(grep -c 'GET /en.vtt' "$WORK/origin.log" || true)
segment=$(curl -sf "$base/_hls-proxy/v1/signed/$ltoken/en/0.vtt") || fail "loopback token's segment not served"
! grep -q -- '-->' <<<"$segment" || fail "a loopback source was fetched for a token"
[ "$(grep -c 'GET /en.vtt' "$WORK/origin.log" || true)" = "$asked_before" ] || fail "the loopback origin was asked for the token's source"
warned=no
for _ in $(seq 1 25); do
    grep -q '"msg":"subtitle source unusable; serving an empty track","set":"signed".*private address' "$WORK/proxy.err" && { warned=yes; break; }
    sleep 0.2
done
[ "$warned" = yes ] || fail "no warn line for the refused loopback source"

# A tampered token: 403 with its reason.
tampered="/_hls-proxy/v1/signed/${token%?}$([ "${token: -1}" = A ] && echo B || echo A)/master.m3u8"
status=$(curl -s -o "$WORK/tampered.txt" -w '%{http_code}' "$base$tampered")
[ "$status" = 403 ] && grep -q 'bad signature' "$WORK/tampered.txt" || fail "tampered token answered $status: $(cat "$WORK/tampered.txt")"

ci_summary

#!/usr/bin/env bash
# A catalog through one templated subtitle set, in ffmpeg and hls.js: masters "/web/assets/{asset}/master.m3u8",
# sources ".../subs/{asset}/en.vtt" and an optional German track that only one asset has. Checks that each
# asset lists the tracks it has (the optional one probed), that a percent-encoded asset name reaches the
# subtitle origin still encoded, that hls_proxy_subtitles / hls_proxy_default pick the tracks and the
# default, that no origin request carries them, and that hls.js shows the first cue at its authored 0.5 s.
# Run from the repo root after `swift build`. Ports 21000-21001 (CI_PROXY_PORT, CI_ORIGIN_PORT override them), loopback only; stops what it starts.
set -euo pipefail

ROOT=$(pwd)
PROXY_PORT=${CI_PROXY_PORT:-21000}
ORIGIN_PORT=${CI_ORIGIN_PORT:-21001}
. "$ROOT/.ci/lib.sh"
ci_player_check catalog-templates WORK

# The origin: two assets of the bundled sample, English for both, German (the sample's French file) for one.
mkdir -p "$WORK/www/assets" "$WORK/www/subs/movie-a" "$WORK/www/subs/movie b"
for asset in movie-a "movie b"; do
    mkdir -p "$WORK/www/assets/$asset"
    cp -r "$ROOT/Examples/sample-vod/master.m3u8" "$ROOT/Examples/sample-vod/v0" "$ROOT/Examples/sample-vod/v1" "$WORK/www/assets/$asset/"
done
cp "$ROOT/Examples/sample-vod/subs/en.vtt" "$WORK/www/subs/movie-a/en.vtt"
cp "$ROOT/Examples/sample-vod/subs/fr.vtt" "$WORK/www/subs/movie-a/de.vtt"
# The asset "movie b" is requested as movie%20b; the origin log shows whether its source was asked for
# still encoded (a decoded space could not even be sent in a request line).
cp "$ROOT/Examples/sample-vod/subs/en.vtt" "$WORK/www/subs/movie b/en.vtt"
python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$WORK/www" >"$WORK/origin.log" 2>&1 &
started $!

cat >"$WORK/config.json" <<JSON
{
  "listen": { "host": "127.0.0.1", "port": $PROXY_PORT },
  "mounts": { "web": { "origin": "http://127.0.0.1:$ORIGIN_PORT", "segments": "proxy" } },
  "subtitles": [
    { "name": "catalog", "masters": ["/web/assets/{asset}/master.m3u8"],
      "tracks": [
        { "id": "en", "name": "English", "language": "en", "default": true, "source": "http://127.0.0.1:$ORIGIN_PORT/subs/{asset}/en.vtt" },
        { "id": "de", "name": "Deutsch", "language": "de", "optional": true, "source": "http://127.0.0.1:$ORIGIN_PORT/subs/{asset}/de.vtt" }
      ] }
  ],
  "access_log": false
}
JSON
start_proxy "$WORK/config.json" "$WORK/proxy.out" "$WORK/proxy.err"

wait_healthy --tries 50 --pause 0.2 "http://127.0.0.1:$PROXY_PORT/healthz" "http://127.0.0.1:$ORIGIN_PORT/assets/movie-a/master.m3u8" || true

langs() { grep '^#EXT-X-MEDIA:TYPE=SUBTITLES' | grep -o 'LANGUAGE="[^"]*"' | cut -d'"' -f2 | tr '\n' ',' ; }
defaults() { grep '^#EXT-X-MEDIA:TYPE=SUBTITLES' | grep 'DEFAULT=YES' | grep -o 'LANGUAGE="[^"]*"' | cut -d'"' -f2 | tr '\n' ',' ; }

base="http://127.0.0.1:$PROXY_PORT/web/assets"
[ "$(curl -sf "$base/movie-a/master.m3u8" | langs)" = "en,de," ] || fail "movie-a should list en and the optional de"
[ "$(curl -sf "$base/movie%20b/master.m3u8" | langs)" = "en," ] || fail "movie b should list en only (no de source)"
chosen=$(curl -sf "$base/movie-a/master.m3u8?hls_proxy_subtitles=de&hls_proxy_default=de")
[ "$(langs <<<"$chosen")" = "de," ] && [ "$(defaults <<<"$chosen")" = "de," ] || fail "choices: $chosen"
[ "$(curl -sf "$base/movie-a/master.m3u8?hls_proxy_default=de" | defaults)" = "de," ] || fail "hls_proxy_default=de"

for url in "$base/movie-a/master.m3u8" "$base/movie%20b/master.m3u8" "$base/movie-a/master.m3u8?hls_proxy_subtitles=de&hls_proxy_default=de"; do
    case "$url" in *movie-a/master.m3u8) expect=en,de ;; *hls_proxy_subtitles=de*) expect=de ;; *) expect=en ;; esac
    for player in ffmpeg hlsjs; do
        out=$(EXPECT_LANGS=$expect MIN_CUES=2 "$CLIENTS/check_$player.sh" "$url" 2>&1 | tail -n 1) || true
        echo "$url $player: $out"
        [[ "$out" == PASS* ]] || { fail "$url $player"; continue; }
        if [ "$player" = hlsjs ]; then
            first=$(grep -o 'first=\[[-0-9.]*' <<<"$out" | head -n 1 | cut -d'[' -f2)
            python3 -c "import sys; t=float(sys.argv[1]); sys.exit(0 if abs(t-0.5) < 0.1 else 1)" "${first:-nan}" \
                || fail "$url $player: first cue at ${first:-none}, authored at 0.5"
        fi
    done
done

grep -q 'GET /subs/movie%20b/en.vtt' "$WORK/origin.log" || fail "the encoded asset did not reach the subtitle origin still encoded"
grep -q 'HEAD /subs/movie-a/de.vtt' "$WORK/origin.log" || fail "the optional track was not probed with HEAD"
! grep -q 'hls_proxy_' "$WORK/origin.log" || fail "a choice parameter reached the origin: $(grep hls_proxy_ "$WORK/origin.log" | head -n 1)"

ci_summary

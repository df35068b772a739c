#!/usr/bin/env bash
# Stream shapes of issue 18: a VOD with discontinuities (three spliced parts whose PTS restart) and an
# EVENT playlist that grows, played through the proxy in ffmpeg, hls.js and video.js. Checks that the
# subtitle playlist mirrors the video's discontinuities, that each part's cues show at their authored
# times on the programme's timeline (first= of hls.js and video.js), that the EVENT's subtitle playlist
# grows with the video's (EVENT, no ENDLIST until the video has one, max-age of the master TTL), and that
# cues of segments added while hls.js and video.js play reach them. Ports 19700-19701 (CI_PROXY_PORT, CI_ORIGIN_PORT), loopback only;
# about a minute; stops what it starts.
set -euo pipefail
cd "$(dirname "$0")/../.."
PROXY_PORT=${CI_PROXY_PORT:-19700}; ORIGIN_PORT=${CI_ORIGIN_PORT:-19701}
. .ci/lib.sh
ci_shape_check discontinuity-event TMP proxy.err
FIX=$PWD/Tests/Fixtures

# ---- the EVENT origin: /<name>/v0/index.m3u8 lists one more segment every few seconds from the first
# request for <name>, and ENDLIST after the last; each check uses a fresh <name>, so each sees the event grow.
mkdir -p "$TMP/event/stream/v0" "$TMP/event/subtitles"
cp "$FIX"/vod-ts/v0/seg00*.ts "$TMP/event/stream/v0/"; cp "$FIX/subtitles/en.vtt" "$TMP/event/subtitles/"
printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=167200,RESOLUTION=320x180,CODECS="avc1.42c00c,mp4a.40.2"\nv0/index.m3u8\n' > "$TMP/event/stream/master.m3u8"
for name in curl hlsjs videojs; do ln -s stream "$TMP/event/$name"; done
cat > "$TMP/event-origin.py" <<'PY'
import http.server, os, sys, time
root, port, step = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
starts = {}
class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k): super().__init__(*a, directory=root, **k)
    def log_message(self, *a): pass
    def do_GET(self):
        parts = self.path.split('?')[0].split('/')
        if len(parts) != 4 or parts[2:] != ['v0', 'index.m3u8']: return super().do_GET()
        name = parts[1]
        count = min(3, 1 + int((time.time() - starts.setdefault(name, time.time())) / step))
        lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:4', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:EVENT']
        for i in range(count): lines += ['#EXTINF:4.000000,', 'seg%03d.ts' % i]
        if count == 3: lines.append('#EXT-X-ENDLIST')
        body = ('\n'.join(lines) + '\n').encode()
        with open(os.path.join(root, 'served-%s.log' % name), 'a') as log: log.write('%d\n' % count)
        self.send_response(200); self.send_header('Content-Type', 'application/vnd.apple.mpegurl')
        self.send_header('Content-Length', str(len(body))); self.send_header('Cache-Control', 'no-cache'); self.end_headers()
        self.wfile.write(body)
http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler).serve_forever()
PY
python3 "$TMP/event-origin.py" "$TMP/event" "$ORIGIN_PORT" 2 & started $!
# Segment counts the origin served for <name>, in order.
served() { tr '\n' ' ' < "$TMP/event/served-$1.log"; }
# The event grew while <name> was played: first served with 1 segment, last with all 3 (and ENDLIST).
saw_growth() { [ "$(head -1 "$TMP/event/served-$1.log")" = 1 ] && [ "$(tail -1 "$TMP/event/served-$1.log")" = 3 ]; }

cat > "$TMP/config.json" <<JSON
{
  "listen": { "host": "127.0.0.1", "port": $PROXY_PORT },
  "mounts": {
    "fix": { "origin": "$FIX" },
    "event": { "origin": "http://127.0.0.1:$ORIGIN_PORT" }
  },
  "subtitles": [
    { "name": "disc", "masters": ["/fix/vod-disc/master.m3u8"],
      "tracks": [
        { "id": "en", "name": "English", "language": "en", "default": true, "autoselect": true,
          "source": "subs/en.vtt", "mode": "segmented" },
        { "id": "after", "name": "After the splices", "language": "fr",
          "source": "subs/after.vtt", "mode": "single" } ] },
    { "name": "event", "masters": ["/event/*/master.m3u8"],
      "tracks": [
        { "id": "en", "name": "English", "language": "en", "default": true, "autoselect": true,
          "source": "/subtitles/en.vtt", "mode": "segmented" } ] }
  ],
  "cache": { "master_ttl_seconds": 1 },
  "log_level": "info"
}
JSON
start_proxy "$TMP/config.json" "$TMP/proxy.out" "$TMP/proxy.err"
B="http://127.0.0.1:$PROXY_PORT"
wait_healthy "$B/healthz" || fail "the proxy did not start"

# ---- 1. the discontinuity VOD ------------------------------------------------------------------
DISC="$B/fix/vod-disc/master.m3u8"
curl -fsS --max-time 10 -o "$TMP/disc-master" "$DISC" || fail "GET the discontinuity master"
uri=$(grep -m1 '^#EXT-X-MEDIA:TYPE=SUBTITLES' "$TMP/disc-master" | sed 's/.*URI="\([^"]*\)".*/\1/')
curl -fsS --max-time 10 -o "$TMP/disc-sub" "$B$uri" || fail "GET $uri"
curl -fsS --max-time 10 -o "$TMP/disc-video" "$B/fix/vod-disc/v0/index.m3u8" || fail "GET the video playlist"
# Same positions: the tag precedes the same segment number in both playlists.
positions() { awk '/^#EXT-X-DISCONTINUITY$/ { d = d " " n } /^[^#]/ { n++ } END { print d }' "$1"; }
[ "$(positions "$TMP/disc-sub")" = "$(positions "$TMP/disc-video")" ] && [ -n "$(positions "$TMP/disc-sub")" ] \
  || fail "discontinuities at$(positions "$TMP/disc-sub") in the subtitle playlist, at$(positions "$TMP/disc-video") in the video's"
grep -q '^#EXT-X-DISCONTINUITY-SEQUENCE:0$' "$TMP/disc-sub" || fail "no EXT-X-DISCONTINUITY-SEQUENCE:0 in the subtitle playlist"
echo "ok   subtitle playlist mirrors the video's discontinuities (before segments$(positions "$TMP/disc-sub"))"

# first= of a player line: the first cue's start time.
first_start() { python3 -c 'import re, sys; m = re.search(r"lang=" + sys.argv[1] + r" [^]]*first=\[([-0-9.]+),", sys.argv[2]); print(m.group(1) if m else "")' "$1" "$2"; }
near() { python3 -c 'import sys; sys.exit(0 if abs(float(sys.argv[1]) - float(sys.argv[2])) <= 0.1 else 1)' "$1" "$2"; }

out=$(EXPECT_LANGS=en,fr MIN_CUES=2 bash "$CLIENTS/check_ffmpeg.sh" "$DISC") || fail "ffmpeg: $out"
echo "$out"
for player in hlsjs videojs; do
  # hls.js loads a selected track's fragments around the playhead (4 of 6 here) and reports after TRACK_MS.
  out=$(TRACK_MS=8000 VERBOSE=1 EXPECT_LANGS=en,fr MIN_CUES=2 bash "$CLIENTS/check_$player.sh" "$DISC" 2> "$TMP/$player.json") || fail "$player: $out"
  echo "$out"
  # The fr track's second cue is in part 3 (authored 8.5 s): the player's JSON lists the first two cues.
  third=$(python3 -c '
import json, sys
text = open(sys.argv[1]).read(); o = json.loads(text[text.index("{"):])
r = o.get("result") or {}
t = next((t for t in r.get("tracks", []) if t.get("lang") == "fr"), {})
cues = t.get("first") or []
print(cues[1][0] if len(cues) > 1 else "")' "$TMP/$player.json" 2>/dev/null || true)
  [ -n "$third" ] && near "$third" 8.5 || fail "$player: the cue after the second splice shows at ${third:-none}, authored at 8.5"
  en=$(first_start en "$out"); fr=$(first_start fr "$out")
  # en's first cue is in part 1 (authored 0.5 s); the fr track holds only the cues after the splices (4.5 s, 8.5 s).
  [ -n "$en" ] && near "$en" 0.5 || fail "$player: the first English cue shows at ${en:-none}, authored at 0.5"
  [ -n "$fr" ] && near "$fr" 4.5 || fail "$player: the first cue after the splice shows at ${fr:-none}, authored at 4.5"
  echo "ok   $player: cues at $en s (part 1), $fr s (part 2), $third s (part 3); authored 0.5, 4.5, 8.5"
done

# ---- 2. the EVENT playlist that grows -----------------------------------------------------------
wait_healthy --tries 50 "http://127.0.0.1:$ORIGIN_PORT/stream/master.m3u8" || true
EVENT="$B/event/curl/master.m3u8"
curl -fsS --max-time 10 -o "$TMP/event-master" "$EVENT" || fail "GET the EVENT master"
uri=$(grep -m1 '^#EXT-X-MEDIA:TYPE=SUBTITLES' "$TMP/event-master" | sed 's/.*URI="\([^"]*\)".*/\1/')
curl -fsS --max-time 10 -D "$TMP/event-h1" -o "$TMP/event-sub1" "$B$uri" || fail "GET $uri"
segments() { grep -c '^[^#]' "$1" || true; }
grep -q '^#EXT-X-PLAYLIST-TYPE:EVENT$' "$TMP/event-sub1" || fail "the subtitle playlist of the EVENT is not EVENT: $(cat "$TMP/event-sub1")"
! grep -q '^#EXT-X-ENDLIST' "$TMP/event-sub1" || fail "the subtitle playlist of a growing EVENT has ENDLIST"
[ "$(segments "$TMP/event-sub1")" = 1 ] || fail "the EVENT's subtitle playlist lists $(segments "$TMP/event-sub1") segments at the start, not 1"
grep -qi '^cache-control: max-age=1' "$TMP/event-h1" || fail "the growing subtitle playlist is cached longer than the master TTL: $(grep -i '^cache-control' "$TMP/event-h1")"
echo "ok   EVENT at the start: subtitle playlist EVENT, 1 segment, no ENDLIST, max-age=1 (the master TTL)"
# It follows the video's growth once the master TTL has passed; ENDLIST once the video has it.
seen=""
for _ in $(seq 40); do
  curl -fsS --max-time 10 -o "$TMP/event-sub2" "$B$uri" || fail "GET $uri"
  n=$(segments "$TMP/event-sub2"); grep -q '^#EXT-X-ENDLIST' "$TMP/event-sub2" && n="$n+ENDLIST"
  case " $seen " in *" $n "*) ;; *) seen="$seen $n" ;; esac
  grep -q '^#EXT-X-ENDLIST' "$TMP/event-sub2" && break
  sleep 0.3
done
[ "$seen" = " 1 2 3+ENDLIST" ] || fail "the subtitle playlist went through$seen segments, not 1 2 3+ENDLIST"
echo "ok   EVENT grown: the subtitle playlist went through 1, 2, then 3 segments with ENDLIST, as the video's did (served: $(served curl))"

# en.vtt has 4 cues; those at 6 s and 8.5 s are only in segments 1 and 2, added 2 and 4 s after the first
# request. The players play 8 s before the subtitle track is checked, so the event has ended by then
# (a check that ran while it was still growing would count the cues of the segments so far).
for player in hlsjs videojs; do
  out=$(PLAY_MS=8000 EXPECT_LANGS=en MIN_CUES=4 bash "$CLIENTS/check_$player.sh" "$B/event/$player/master.m3u8") || fail "$player on the EVENT: $out"
  echo "$out"
  saw_growth "$player" || fail "$player: the EVENT did not grow while it played (origin served segment counts $(served "$player"))"
  echo "ok   $player on the EVENT: all 4 cues, those of segments added while it played too (origin served segment counts $(served "$player"))"
done
echo "discontinuity-event: all passed"

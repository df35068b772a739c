#!/usr/bin/env bash
# A live sliding window (no EXT-X-PLAYLIST-TYPE, old segments leaving the head, RFC 8216 §6.2.1) played
# through the proxy in hls.js and ffmpeg. A small python origin serves a 4-segment window that slides one
# 2 s segment every 2 s over a 32 s TS VOD made here with ffmpeg, and ENDLIST once it reaches the end. The
# subtitles have one cue per segment, "cue K" authored at 2K+0.5 s on the VOD's timeline. Checks: the
# subtitle playlist mirrors the video's EXT-X-MEDIA-SEQUENCE over three reloads, with segment URIs named by
# sequence number, each of which keeps its bytes (cues and X-TIMESTAMP-MAP) across reloads; line by line,
# MPEGTS + (cue - LOCAL) is the PTS of the video at the cue's authored time (within 0.1 s); ffmpeg (which
# keeps cue times as written) extracts every cue from its join point to the end, each once, at its
# authored time; hls.js shows consecutive cues from several reloads, each offset from its authored time by
# the same whole number of segments (hls.js counts time from the window it joined). Statelessness (SPEC:
# any instance answers a subtitle URL): a second proxy instance joining later, and a second viewer token,
# serve every listed segment with the same bytes; the origin 404s segments once they are two behind the
# window, and with subtitle_ttl_seconds 3 every PTS is read again meanwhile, so a segment mapped from
# anything but its own listed segment would lose its X-TIMESTAMP-MAP. Cue times follow the nominal
# contract of docs/requests.md: segment N starts at N x TARGETDURATION (here 2N s, the VOD's timeline).
# Ports 22000-22002 (CI_PROXY_PORT, CI_ORIGIN_PORT, CI_LATE_PORT), loopback only; about two minutes; stops what it starts.
set -euo pipefail
cd "$(dirname "$0")/../.."
PROXY_PORT=${CI_PROXY_PORT:-22000}; ORIGIN_PORT=${CI_ORIGIN_PORT:-22001}; LATE_PORT=${CI_LATE_PORT:-22002}
TOTAL=16; WINDOW=4; STEP=2
. .ci/lib.sh
ci_shape_check live-window TMP proxy.err

# ---- the VOD the window slides over: 2 s segments cut at forced key frames, PTS continuous.
mkdir -p "$TMP/live/stream/v0" "$TMP/live/subtitles"
ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i "testsrc=size=320x180:rate=24" -f lavfi -i "sine=frequency=440:sample_rate=48000" \
  -t $((TOTAL * STEP)) -c:v libx264 -preset ultrafast -profile:v baseline -pix_fmt yuv420p -force_key_frames "expr:gte(t,n_forced*$STEP)" \
  -c:a aac -b:a 64k -f hls -hls_time $STEP -hls_playlist_type vod -hls_segment_filename "$TMP/live/stream/v0/seg%03d.ts" \
  "$TMP/vod.m3u8" || fail "ffmpeg could not make the VOD"
[ "$(grep -c '^seg' "$TMP/vod.m3u8")" = $TOTAL ] || fail "the VOD has $(grep -c '^seg' "$TMP/vod.m3u8") segments, not $TOTAL"
grep '^#EXTINF' "$TMP/vod.m3u8" | sed 's/#EXTINF:\([0-9.]*\),/\1/' > "$TMP/durations"
printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x180,CODECS="avc1.42c00d,mp4a.40.2"\nv0/index.m3u8\n' > "$TMP/live/stream/master.m3u8"
{ printf 'WEBVTT\n\n'; for k in $(seq 0 $((TOTAL - 1))); do printf '%s --> %s\ncue %d\n\n' \
    "$(python3 -c "import sys; t=2*$k+0.5; print('00:00:%06.3f' % t if t < 60 else '00:01:%06.3f' % (t - 60))")" \
    "$(python3 -c "import sys; t=2*$k+1.5; print('00:00:%06.3f' % t if t < 60 else '00:01:%06.3f' % (t - 60))")" "$k"; done; } > "$TMP/live/subtitles/en.vtt"
for name in curl ffmpeg ffmpeg2 hlsjs; do ln -s stream "$TMP/live/$name"; done

# ---- the origin: /<name>/v0/index.m3u8 is the window at the time since the first request for <name>.
cat > "$TMP/origin.py" <<'PY'
import http.server, os, sys, time
root, port, total, window, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
durations = [l.strip() for l in open(sys.argv[6])]
starts = {}
class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k): super().__init__(*a, directory=root, **k)
    def log_message(self, *a): pass
    def do_GET(self):
        parts = self.path.split('?')[0].split('/')
        if len(parts) == 4 and parts[2] == 'v0' and parts[3].startswith('seg') and parts[1] in starts:
            # A live origin deletes its head: a segment two behind the window is gone.
            available = min(total, window + int((time.time() - starts[parts[1]]) / step))
            if int(parts[3][3:6]) < available - window - 1: return self.send_error(404)
        if len(parts) != 4 or parts[2:] != ['v0', 'index.m3u8']: return super().do_GET()
        name = parts[1]
        available = min(total, window + int((time.time() - starts.setdefault(name, time.time())) / step))
        first = available - window
        lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:%d' % round(step), '#EXT-X-MEDIA-SEQUENCE:%d' % first]
        for i in range(first, available): lines += ['#EXTINF:%s,' % durations[i], 'seg%03d.ts' % i]
        if available == total: lines.append('#EXT-X-ENDLIST')
        body = ('\n'.join(lines) + '\n').encode()
        with open(os.path.join(root, 'served-%s.log' % name), 'a') as log: log.write('%d\n' % first)
        self.send_response(200); self.send_header('Content-Type', 'application/vnd.apple.mpegurl')
        self.send_header('Content-Length', str(len(body))); self.send_header('Cache-Control', 'no-cache'); self.end_headers()
        self.wfile.write(body)
http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler).serve_forever()
PY
python3 "$TMP/origin.py" "$TMP/live" "$ORIGIN_PORT" $TOTAL $WINDOW $STEP "$TMP/durations" & started $!
wait_healthy --tries 50 "http://127.0.0.1:$ORIGIN_PORT/stream/master.m3u8" || true

cat > "$TMP/config.json" <<JSON
{
  "listen": { "host": "127.0.0.1", "port": $PROXY_PORT },
  "mounts": { "live": { "origin": "http://127.0.0.1:$ORIGIN_PORT", "segments": "proxy" } },
  "subtitles": [
    { "name": "live", "masters": ["/live/*/master.m3u8"],
      "tracks": [
        { "id": "en", "name": "English", "language": "en", "default": true, "autoselect": true,
          "source": "/subtitles/en.vtt", "mode": "segmented" } ] }
  ],
  "cache": { "master_ttl_seconds": 1, "subtitle_ttl_seconds": 3, "fallback_ttl_seconds": 1 },
  "log_level": "info"
}
JSON
sed "s/\"port\": $PROXY_PORT/\"port\": $LATE_PORT/" "$TMP/config.json" > "$TMP/late.json"
start_proxy "$TMP/config.json" "$TMP/proxy.out" "$TMP/proxy.err"
B="http://127.0.0.1:$PROXY_PORT"
wait_healthy "$B/healthz" || fail "the proxy did not start"
PTS0=$(ffprobe -v error -show_entries format=start_time -of csv=p=0 "$TMP/live/stream/v0/seg000.ts")

# The subtitle playlist URL of <name>; asking for it starts the window for <name> (origin and proxy both
# see media sequence 0 first, so segment N is the VOD's segment N, at 2N s on both timelines).
subtitle_uri() {
  curl -fsS --max-time 10 -o "$TMP/$1-master" "$B/live/$1/master.m3u8" || fail "GET the $1 master"
  uri=$(grep -m1 '^#EXT-X-MEDIA:TYPE=SUBTITLES' "$TMP/$1-master" | sed 's/.*URI="\([^"]*\)".*/\1/')
  [ -n "$uri" ] || fail "no subtitle rendition in the $1 master"
  curl -fsS --max-time 10 -o "$TMP/$1-sub0" "$B$uri" || fail "GET $uri"
  grep -q '^#EXT-X-MEDIA-SEQUENCE:0$' "$TMP/$1-sub0" || fail "$1: the first subtitle playlist is not at media sequence 0"
  echo "$uri"
}

# A subtitle segment, checked: MPEGTS + (cue - LOCAL) against the PTS of the video at the cue's authored
# time, and the cue is the one authored in this segment's window.
check_segment() {
  local file=$1 name=$2 n=${2%.vtt}
  python3 - "$file" "$PTS0" "$n" <<'PY' || fail "segment $name: $(tr '\n' '|' < "$file")"
import re, sys
text, pts0, n = open(sys.argv[1]).read(), float(sys.argv[2]), int(sys.argv[3])
def seconds(t): h, m, s = ('00:' + t).split(':')[-3:]; return int(h) * 3600 + int(m) * 60 + float(s)
m = re.search(r'X-TIMESTAMP-MAP=MPEGTS:(\d+),LOCAL:([0-9:.]+)', text)
assert m, 'no X-TIMESTAMP-MAP'
mpegts, local = int(m[1]), seconds(m[2])
cues = re.findall(r'([0-9:.]+) --> [0-9:.]+[^\n]*\ncue (\d+)', text)
assert [int(k) for _, k in cues] == [n], 'cues %s, not cue %d' % (cues, n)
for start, k in cues:
    assert abs(seconds(start) - (2 * int(k) + 0.5)) < 0.001, 'cue %s at %s' % (k, start)
    pts = mpegts + (seconds(start) - local) * 90000
    want = (pts0 + seconds(start)) * 90000
    assert abs(pts - want) <= 9000, 'cue %s maps to PTS %d, the video has it at %d' % (k, pts, want)
PY
}

# ---- 1. five reloads, checked line by line ----------------------------------------------------
uri=$(subtitle_uri curl)
dir=${uri%/*}
declare -A bodies=()
reloads=0; last=-1
for _ in $(seq 60); do
  curl -fsS --max-time 10 -o "$TMP/sub" "$B$uri" || fail "GET $uri"
  curl -fsS --max-time 10 -o "$TMP/video" "$B/live/curl/v0/index.m3u8" || fail "GET the video playlist"
  seq=$(sed -n 's/^#EXT-X-MEDIA-SEQUENCE:\([0-9]*\)$/\1/p' "$TMP/sub")
  vseq=$(sed -n 's/^#EXT-X-MEDIA-SEQUENCE:\([0-9]*\)$/\1/p' "$TMP/video")
  if [ "$seq" != "$last" ] && [ "$seq" = "$vseq" ]; then
    ! grep -q 'PLAYLIST-TYPE' "$TMP/sub" || fail "the live subtitle playlist has a PLAYLIST-TYPE"
    want=$(for i in $(seq "$seq" $((seq + WINDOW - 1))); do printf '%s.vtt ' "$i"; done)
    got=$(grep '^[^#]' "$TMP/sub" | tr '\n' ' ')
    [ "$got" = "$want" ] || fail "at media sequence $seq the subtitle playlist lists $got, not $want"
    for name in $got; do
      curl -fsS --max-time 10 -o "$TMP/seg" "$B$dir/$name" || fail "GET $name"
      body=$(cat "$TMP/seg")
      if [ -n "${bodies[$name]:-}" ] && [ "${bodies[$name]}" != "$body" ]; then fail "$name changed between reloads"; fi
      bodies[$name]=$body
      check_segment "$TMP/seg" "$name"
    done
    reloads=$((reloads + 1)); last=$seq
    echo "ok   reload at media sequence $seq: subtitle playlist $got(same sequence as the video), every segment mapped to its video PTS"
    [ $reloads -ge 5 ] && break
  fi
  sleep 0.5
done
[ $reloads -ge 5 ] || fail "saw only $reloads distinct windows"
echo "ok   five reloads: each subtitle segment kept its bytes ($(echo "${!bodies[@]}" | wc -w) segments checked)"

# ---- 1b. a second instance joining now, and a second viewer token: the same bytes -----------------
start_proxy "$TMP/late.json" "$TMP/late.out" "$TMP/late.err"
L="http://127.0.0.1:$LATE_PORT"
wait_healthy "$L/healthz" || fail "the second proxy did not start"
curl -fsS --max-time 10 -o "$TMP/token-master" "$B/live/curl/master.m3u8?token=second-viewer" || fail "GET the master with a token"
token_uri=$(grep -m1 '^#EXT-X-MEDIA:TYPE=SUBTITLES' "$TMP/token-master" | sed 's/.*URI="\([^"]*\)".*/\1/')
[ -n "$token_uri" ] && [ "$token_uri" != "$uri" ] || fail "the tokened master's subtitle URI is $token_uri"
curl -fsS --max-time 10 -o "$TMP/late-sub" "$L$uri" || fail "GET $uri from the second instance"
same=0
for name in $(grep '^[^#]' "$TMP/late-sub"); do
  curl -fsS --max-time 10 -o "$TMP/a.vtt" "$B$dir/$name" || fail "GET $name"
  curl -fsS --max-time 10 -o "$TMP/b.vtt" "$L$dir/$name" || fail "GET $name from the second instance"
  curl -fsS --max-time 10 -o "$TMP/t.vtt" "$B${token_uri%/*}/$name" || fail "GET $name with a token"
  cmp -s "$TMP/a.vtt" "$TMP/b.vtt" || fail "$name differs between the two instances: $(tr '\n' '|' < "$TMP/a.vtt") vs $(tr '\n' '|' < "$TMP/b.vtt")"
  cmp -s "$TMP/a.vtt" "$TMP/t.vtt" || fail "$name differs between two viewer tokens"
  check_segment "$TMP/b.vtt" "$name"
  same=$((same + 1))
done
[ $same -ge 3 ] || fail "the second instance listed only $same segments"
echo "ok   a second instance joining at $(sed -n 's/^#EXT-X-MEDIA-SEQUENCE://p' "$TMP/late-sub") and a second viewer token: $same segments byte-identical and mapped"

# ---- 2. ffmpeg: the whole live stream from its join point ----------------------------------------
subtitle_uri ffmpeg >/dev/null
sleep 4
out=$(EXPECT_LANGS=en MIN_CUES=1 bash "$CLIENTS/check_ffmpeg.sh" "$B/live/ffmpeg/master.m3u8") || fail "ffmpeg: $out"
echo "$out"
# check_ffmpeg keeps no file: extract again on a window of its own, keeping cue times as written.
subtitle_uri ffmpeg2 >/dev/null
timeout 180 ffmpeg -nostdin -hide_banner -loglevel error -strict experimental -copyts -i "$B/live/ffmpeg2/master.m3u8" \
  -map 0:s:0 -c:s webvtt -y "$TMP/ffmpeg.vtt" </dev/null || fail "ffmpeg could not extract the live subtitles"
result=$(python3 - "$TMP/ffmpeg.vtt" $TOTAL <<'PY'
import re, sys
text, total = open(sys.argv[1]).read(), int(sys.argv[2])
def seconds(t): h, m, s = ('00:' + t).split(':')[-3:]; return int(h) * 3600 + int(m) * 60 + float(s)
cues = [(seconds(s), int(k)) for s, k in re.findall(r'([0-9:.]+) --> [^\n]*\ncue (\d+)', text)]
ks = [k for _, k in cues]
bad = [(t, k) for t, k in cues if abs(t - (2 * k + 0.5)) > 0.001]
if not ks or ks != list(range(ks[0], total)) or bad or len(ks) < 6:
    print('cues %s (want each once, consecutive to %d, at 2K+0.5): mistimed %s' % (ks, total - 1, bad)); sys.exit(1)
print('cues %d to %d, %d in all, each once at 2K+0.5 s' % (ks[0], ks[-1], len(ks)))
PY
) || fail "ffmpeg: $result"
echo "ok   ffmpeg over the sliding window: $result"

# ---- 3. hls.js ------------------------------------------------------------------------------------
subtitle_uri hlsjs >/dev/null
cp -r "$CLIENTS" "$TMP/clients"
sed -i 's/slice(0, 2)/slice(0, 100000)/' "$TMP/clients/check_hlsjs.sh"
grep -q 'slice(0, 100000)' "$TMP/clients/check_hlsjs.sh" || fail "check_hlsjs.sh no longer lists cues with slice(0, 2): update this script"
out=$(PLAY_MS=12000 TRACK_MS=12000 VERBOSE=1 EXPECT_LANGS=en MIN_CUES=4 bash "$TMP/clients/check_hlsjs.sh" "$B/live/hlsjs/master.m3u8" 2> "$TMP/hlsjs.json") \
  || fail "hls.js: $out"
echo "$out"
result=$(python3 - "$TMP/hlsjs.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read(); o = json.loads(text[text.index('{'):])
track = next((t for t in (o.get('result') or {}).get('tracks', []) if t.get('lang') == 'en'), {})
cues = sorted((c[0], int(re.search(r'cue (\d+)', c[2]).group(1))) for c in (track.get('first') or []))
ks = [k for _, k in cues]
offsets = [round(t - (2 * k + 0.5), 3) for t, k in cues]
whole = offsets and abs(offsets[0] / 2 - round(offsets[0] / 2)) <= 0.05
if len(ks) < 4 or ks != list(range(ks[0], ks[0] + len(ks))) or max(offsets) - min(offsets) > 0.1 or not whole:
    print('cues %s at offsets %s (want 4+ consecutive cues, one offset, a whole number of 2 s segments)' % (ks, offsets)); sys.exit(1)
print('cues %d to %d, each %.3f s from its authored time (the window hls.js joined: %d segments in)' % (ks[0], ks[-1], offsets[0], round(-offsets[0] / 2)))
PY
) || fail "hls.js: $result"
echo "ok   hls.js over the sliding window: $result"
! grep -q 'live subtitle segment served without X-TIMESTAMP-MAP' "$TMP/proxy.out" "$TMP/proxy.err" "$TMP/late.out" "$TMP/late.err" \
  || fail "a live segment was served unmapped: $(grep -h 'without X-TIMESTAMP-MAP' "$TMP"/*.out "$TMP"/*.err | head -1)"
echo "live-window: all passed"

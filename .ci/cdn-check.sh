#!/usr/bin/env bash
# The CDN deployment test: two proxy instances serving the bundled sample (config.example.json) behind
# nginx as a round-robin load balancer with proxy_cache, and ffmpeg and hls.js playing through nginx with
# subtitles. It checks, from the logs rather than by assumption:
#   - both instances answered subtitle requests that came through nginx (each proxy's access log);
#   - every subtitle URL (playlists and files) is answered byte for byte the same, with the same ETag, by
#     either instance, so any instance can answer any subtitle URL the other one's master named;
#   - nginx's cache served repeats within max-age ($upstream_cache_status HIT in nginx's log, and the
#     X-Cache-Status header this config adds), and each cached subtitle URL reached a proxy once;
#   - a conditional revalidation works: If-None-Match gets 304 from a proxy directly, and through nginx
#     once a master's max-age (2 s) has passed (nginx asks with If-None-Match, the proxy answers 304,
#     nginx logs REVALIDATED).
# Loopback only; starts and stops everything it runs (trap on exit); about 40 s, bounded by timeouts.
# Needs the binary from `swift build` (HLS_PROXY_BIN, default .build/debug then .build/release), nginx
# (installed with apt-get if missing) and the shared player checks (CLIENTS, default ../shared/tools/real-clients).
# Ports: CDN_PORT (nginx, default 31200), then CDN_PORT+1 and CDN_PORT+2 for the two proxies.
set -euo pipefail
cd "$(dirname "$0")/.."
T0=$(date +%s)

CLIENTS=${CLIENTS:-../shared/tools/real-clients}
BIN=${HLS_PROXY_BIN:-}
if [ -z "$BIN" ]; then
  for b in .build/debug/hls-subtitle-proxy .build/release/hls-subtitle-proxy; do [ -x "$b" ] && BIN=$b && break; done
fi
[ -n "$BIN" ] && [ -x "$BIN" ] || { echo "FAIL cdn: no proxy binary (run swift build, or set HLS_PROXY_BIN)"; exit 1; }
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends nginx-light >/dev/null 2>&1 \
    || apt-get install -y -q --no-install-recommends nginx >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

LB=${CDN_PORT:-31200}; P1=$((LB + 1)); P2=$((LB + 2))
CI_NAME=cdn CI_WAIT_ON_EXIT=1
. .ci/lib.sh
ci_temp_dir TMP; chmod 755 "$TMP"
CI_LOGS="$TMP/nginx-access.log $TMP/error.log"

# ---- two proxies, one config, two ports ---------------------------------------------------------
start_proxy config.example.json "$TMP/proxy1.log" "$TMP/proxy1.err" --port "$P1"
start_proxy config.example.json "$TMP/proxy2.log" "$TMP/proxy2.err" --port "$P2"

# ---- nginx: round-robin upstream, proxy_cache that revalidates, cache status logged and sent ----
mkdir -p "$TMP/cache" "$TMP/logs"
{
  # As root, nginx's workers default to "nobody", who cannot write the temporary cache directory.
  [ "$(id -u)" = 0 ] && echo "user root;"
  cat <<EOF
worker_processes 1;
daemon off;
pid $TMP/nginx.pid;
error_log $TMP/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $TMP/body; proxy_temp_path $TMP/proxy_temp;
  fastcgi_temp_path $TMP/fcgi; uwsgi_temp_path $TMP/uwsgi; scgi_temp_path $TMP/scgi;
  log_format cdn '\$request_method \$uri \$status up=\$upstream_addr upstatus=\$upstream_status cache=\$upstream_cache_status';
  proxy_cache_path $TMP/cache levels=1:2 keys_zone=hls:4m max_size=64m inactive=10m use_temp_path=off;
  upstream proxies {
    server 127.0.0.1:$P1;
    server 127.0.0.1:$P2;
  }
  server {
    listen 127.0.0.1:$LB;
    access_log $TMP/nginx-access.log cdn;
    location / {
      proxy_pass http://proxies;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache hls;
      proxy_cache_revalidate on;
      proxy_cache_lock on;
      add_header X-Cache-Status \$upstream_cache_status always;
    }
  }
}
EOF
} > "$TMP/nginx.conf"
"$NGINX" -e "$TMP/error.log" -t -c "$TMP/nginx.conf" >/dev/null 2>&1 || { "$NGINX" -e "$TMP/error.log" -t -c "$TMP/nginx.conf"; fail "nginx config refused"; }
"$NGINX" -e "$TMP/error.log" -c "$TMP/nginx.conf" & started $!

for port in "$P1" "$P2" "$LB"; do
  wait_healthy "http://127.0.0.1:$port/healthz" || fail "nothing answers on 127.0.0.1:$port"
done
echo "ok   two proxies on :$P1 and :$P2 behind nginx $("$NGINX" -v 2>&1 | sed 's/.*nginx\///') on :$LB (round-robin, proxy_cache)"

# ---- players through nginx ----------------------------------------------------------------------
URL="http://127.0.0.1:$LB/sample/master.m3u8"
export EXPECT_LANGS=en,fr,es MIN_CUES=4
for player in ffmpeg hlsjs; do
  out=$(bash "$CLIENTS/check_$player.sh" "$URL") || { echo "$out"; fail "$player through nginx"; }
  echo "$out"
done
# Count the subtitle requests each proxy answered for nginx before anything else asks them directly.
sleep 0.3
n1=$(grep -c '"path":"/_hls-proxy/' "$TMP/proxy1.log" || true)
n2=$(grep -c '"path":"/_hls-proxy/' "$TMP/proxy2.log" || true)
[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] || fail "not both instances served subtitle requests (proxy1=$n1 proxy2=$n2)"
echo "ok   both instances served subtitle requests through nginx: proxy1=$n1 proxy2=$n2"

# nginx's cache: the second player's subtitle requests are HITs, and each cached URL reached a proxy once.
hits=$(grep -c '^GET /_hls-proxy/.* cache=HIT$' "$TMP/nginx-access.log" || true)
fills=$(grep -Ec '^GET /_hls-proxy/.* cache=(MISS|EXPIRED|REVALIDATED|STALE|UPDATING|BYPASS)$' "$TMP/nginx-access.log" || true)
urls=$(grep '^GET /_hls-proxy/' "$TMP/nginx-access.log" | awk '{print $2}' | sort -u | wc -l)
[ "$hits" -gt 0 ] || fail "no subtitle request was a cache HIT in nginx's log"
[ "$fills" -eq $((n1 + n2)) ] || fail "nginx went upstream $fills times for subtitles but the proxies logged $((n1 + n2))"
[ "$fills" -eq "$urls" ] || fail "$urls distinct subtitle URLs were fetched upstream $fills times (within max-age, once each)"
echo "ok   nginx cache: $urls subtitle URLs, each fetched from a proxy once, $hits repeats served as HIT"

# ---- any instance answers any subtitle URL --------------------------------------------------------
grep '^GET /_hls-proxy/' "$TMP/nginx-access.log" | awk '{print $2}' | sort -u > "$TMP/urls"
while read -r path; do
  curl -fsS --max-time 10 -D "$TMP/h1" -o "$TMP/b1" "http://127.0.0.1:$P1$path" || fail "proxy1 $path"
  curl -fsS --max-time 10 -D "$TMP/h2" -o "$TMP/b2" "http://127.0.0.1:$P2$path" || fail "proxy2 $path"
  cmp -s "$TMP/b1" "$TMP/b2" || fail "the instances answer $path with different bytes"
  e1=$(grep -i '^etag:' "$TMP/h1" | tr -d '\r'); e2=$(grep -i '^etag:' "$TMP/h2" | tr -d '\r')
  [ -n "$e1" ] && [ "$e1" = "$e2" ] || fail "the instances answer $path with different ETags ($e1 / $e2)"
done < "$TMP/urls"
echo "ok   each of the $(wc -l < "$TMP/urls") subtitle URLs: same bytes and same ETag from either instance"

# ---- cache headers, HIT within max-age, conditional revalidation ----------------------------------
SUB=$(grep -m1 '/index.m3u8$' "$TMP/urls") || fail "no subtitle playlist among the requests"
h=$(curl -fsS --max-time 10 -D - -o /dev/null "http://127.0.0.1:$LB$SUB" | tr -d '\r')
grep -qi '^cache-control: max-age=300$' <<<"$h" || fail "subtitle playlist through nginx lacks Cache-Control: max-age=300: $h"
grep -qi '^x-cache-status: HIT$' <<<"$h" || fail "a repeat of $SUB within max-age was not a cache HIT"
etag=$(grep -i '^etag:' <<<"$h" | sed 's/^[^:]*: *//')
code=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "http://127.0.0.1:$P1$SUB")
[ "$code" = 304 ] || fail "If-None-Match with the current ETag straight to a proxy got $code, not 304"
code=$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "http://127.0.0.1:$LB$SUB")
[ "$code" = 304 ] || fail "If-None-Match through nginx got $code, not 304"
echo "ok   $SUB: max-age=300, HIT on repeat, If-None-Match $etag -> 304 from a proxy and through nginx"

# The master's max-age is 2 s (cache.master_ttl_seconds): once it has passed, nginx revalidates with
# If-None-Match and the proxy answers 304, which nginx logs as REVALIDATED and serves from its copy.
M=/sample/master.m3u8
# nginx counts in whole seconds and keeps an entry fresh through the last second of its max-age: an
# entry stored at 10.9 s with max-age 2 is fresh until 13.0 s, so 3.2 s later it is always stale.
curl -fsS --max-time 10 -o /dev/null "http://127.0.0.1:$LB$M"
sleep 3.2
h=$(curl -fsS --max-time 10 -D - -o "$TMP/master" "http://127.0.0.1:$LB$M" | tr -d '\r')
grep -qi '^x-cache-status: REVALIDATED$' <<<"$h" || fail "an expired master was not revalidated by nginx: $h"
grep -q '^#EXT-X-MEDIA:TYPE=SUBTITLES' "$TMP/master" || fail "the revalidated master has no subtitle renditions"
sleep 0.3
r=$(cat "$TMP/proxy1.log" "$TMP/proxy2.log" | grep -c '"path":"/sample/master.m3u8","route":"master","status":304' || true)
[ "$r" -gt 0 ] || fail "no proxy logged a 304 for the master nginx revalidated"
echo "ok   master after its 2 s max-age: nginx revalidated (If-None-Match -> 304 from a proxy), served whole with subtitles"

echo "cdn check: all passed in $(( $(date +%s) - T0 )) s"

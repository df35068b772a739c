#!/usr/bin/env python3
"""The cold start: from a master request to the first subtitle segment's last byte, for assets nothing
has cached, through the proxy and straight from the origin.

    python3 bench/cold_start.py                                   # this tree's static release build
    PROXY_BIN=/path/to/hls-subtitle-proxy python3 bench/cold_start.py
    N=200 CUES=1500 python3 bench/cold_start.py
    WRAP="valgrind --tool=callgrind --callgrind-out-file=/tmp/cold.out" N=20 python3 bench/cold_start.py
                                                                  # where the proxy's time goes (times then mean nothing)
    ACCESS_LOG=/tmp/cold.log N=60 python3 bench/cold_start.py    # and each request's time in the proxy, by route
    SEGMENT_COPIES=20 ORIGIN_RATE=12.5m python3 bench/cold_start.py  # a 2 MB first segment from an
                                                                  # origin at 100 Mbit/s a connection

Each of N assets (distinct paths, so no cache of the proxy has seen them) is the fixture VOD
(Tests/Fixtures/vod-ts) with a 2-hour WebVTT sidecar (CUES cues, 1,500 by default: a film's dialogue)
at subs/en.vtt, served by nginx (one worker, sendfile, loopback). Through the proxy: the rewritten
master, the subtitle playlist it lists, the first WebVTT segment (the proxy fetches the master, the
variant playlist, the sidecar, which it parses, and the first video segment, for its PTS). Straight:
the same four origin bodies, one after another (master, variant playlist, first segment, sidecar).
Both on one keep-alive connection each, opened before the clock starts, alternating asset by asset.
Prints p50 and p90 of both and of the difference. Ports 23500 (nginx) and 23501 (proxy), loopback.
With ACCESS_LOG, the proxy writes its access log there and the p50 of each route's duration_ms and
origin_ms over the N assets is printed too.
SEGMENT_COPIES (1 by default) makes the first video segment that many copies of the fixture's (100 kB
each: 20 is the 2 MB a 4 s segment at 4 Mbit/s takes; the copies repeat its timestamps, which only the
PTS read looks at). ORIGIN_RATE (bytes a second, `k`/`m` suffixes: 12.5m is 100 Mbit/s) puts a relay
between nginx and both clients, the proxy and the straight one, that passes each connection's
responses at that rate, 16 kB at a time: an origin behind a network rather than on loopback (nginx's
own limit_rate lets the first second's worth out at once). Port ORIGIN_PORT + 2.
"""
import http.client
import os
import re
import shutil
import signal
import socket
import threading
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
N = int(os.environ.get("N", "100"))
CUES = int(os.environ.get("CUES", "1500"))
ORIGIN_PORT = int(os.environ.get("ORIGIN_PORT", "23500"))
PROXY_PORT = int(os.environ.get("PROXY_PORT", "23501"))
ACCESS_LOG = os.environ.get("ACCESS_LOG", "")
SEGMENT_COPIES = int(os.environ.get("SEGMENT_COPIES", "1"))
ORIGIN_RATE = os.environ.get("ORIGIN_RATE", "")
PROXY = os.environ.get("PROXY_BIN", os.path.join(ROOT, ".build/static/release/hls-subtitle-proxy"))
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def stamp(ms):
    return "%02d:%02d:%02d.%03d" % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60, ms % 1000)


def make_sidecar(path):
    """CUES cues spread over two hours, two lines each, as a film's subtitles are."""
    step = 7_200_000 // CUES
    with open(path, "w") as out:
        out.write("WEBVTT\n\n")
        for i in range(CUES):
            start = i * step
            out.write("%d\n%s --> %s\nLine %d of the dialogue, as a subtitle says it\n<i>and its second line</i>\n\n"
                      % (i + 1, stamp(start), stamp(start + step * 3 // 4), i))


def get(conn, path):
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    if response.status != 200:
        sys.exit("%s answered %d" % (path, response.status))
    return body


def first_uri(body, pattern):
    for line in body.decode().splitlines():
        if line and not line.startswith("#") and re.search(pattern, line):
            return line
    return None


def resolve(base, uri):
    return uri if uri.startswith("/") else base.rsplit("/", 1)[0] + "/" + uri


def through_proxy(conn, asset):
    master_path = "/cold/%s/master.m3u8" % asset
    start = time.perf_counter()
    master = get(conn, master_path)
    playlist = re.search(r'TYPE=SUBTITLES[^\n]*URI="([^"]+)"', master.decode()).group(1)
    playlist_body = get(conn, playlist)
    segment = resolve(playlist, first_uri(playlist_body, r"\.vtt"))
    vtt = get(conn, segment)
    elapsed = time.perf_counter() - start
    if not vtt.startswith(b"WEBVTT"):
        sys.exit("%s is not WebVTT" % segment)
    return elapsed


def straight(conn, asset):
    start = time.perf_counter()
    master = get(conn, "/%s/master.m3u8" % asset)
    variant = "/%s/%s" % (asset, first_uri(master, r"\.m3u8"))
    index = get(conn, variant)
    get(conn, resolve(variant, first_uri(index, r"\.ts")))
    get(conn, "/%s/subs/en.vtt" % asset)
    return time.perf_counter() - start


def rate_of(text):
    """Bytes a second from `12.5m`, `800k` or `100000`."""
    scale = {"k": 1e3, "m": 1e6}.get(text[-1:].lower(), 1)
    return float(text[:-1] if scale != 1 else text) * scale


def relay(listen_port, upstream_port, rate):
    """Forwards connections to upstream_port, passing what upstream sends at `rate` bytes a second."""
    server = socket.create_server(("127.0.0.1", listen_port))

    def pipe(source, sink, paced):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                for start in range(0, len(data), 16384):
                    piece = data[start:start + 16384]
                    sink.sendall(piece)
                    if paced:
                        time.sleep(len(piece) / rate)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def accept():
        while True:
            client, _ = server.accept()
            upstream = socket.create_connection(("127.0.0.1", upstream_port))
            for args in ((client, upstream, False), (upstream, client, True)):
                threading.Thread(target=pipe, args=args, daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()


def wait_for(port):
    for _ in range(600):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.05)
    sys.exit("nothing answered on port %d" % port)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def print_routes(path):
    """The p50 of each route's time in the proxy (duration_ms) and on origins (origin_ms), measured assets only."""
    import json
    time.sleep(0.2)  # the proxy writes its last lines as it answers
    routes = {}
    with open(path) as log:
        for line in log:
            if not line.startswith("{"):
                continue
            entry = json.loads(line)
            if "route" not in entry:
                continue  # the proxy's own log lines, in the same file
            if "warm" in entry.get("path", "") or entry.get("route") == "health" or "L2NvbGQvd2FybS" in entry.get("path", ""):
                continue
            routes.setdefault(entry["route"], []).append((entry["duration_ms"], entry["origin_ms"]))
    print("%-34s %10s %10s" % ("in the proxy, by route", "p50 ms", "origin p50"))
    for route, times in routes.items():
        print("%-34s %10.2f %10.2f" % ("  %s (%d)" % (route, len(times)), statistics.median(t[0] for t in times),
                                       statistics.median(t[1] for t in times)))


def main():
    if not os.access(PROXY, os.X_OK):
        sys.exit("no proxy binary at %s (build: swift build -c release --static-swift-stdlib "
                 "--scratch-path .build/static, or set PROXY_BIN)" % PROXY)
    # The port both clients fetch the origin's bodies from: nginx's own, or the paced relay's.
    served_port = ORIGIN_PORT + 2 if ORIGIN_RATE else ORIGIN_PORT
    work = tempfile.mkdtemp(prefix="cold-start.")
    os.chmod(work, 0o755)  # nginx's worker runs as another user
    processes = []
    try:
        www = os.path.join(work, "www")
        template = os.path.join(work, "template")
        shutil.copytree(os.path.join(ROOT, "Tests/Fixtures/vod-ts"), template)
        os.makedirs(os.path.join(template, "subs"))
        make_sidecar(os.path.join(template, "subs/en.vtt"))
        if SEGMENT_COPIES > 1:
            first = os.path.join(template, "v0/seg000.ts")
            with open(first, "rb") as source:
                one = source.read()
            with open(first, "wb") as out:
                out.write(one * SEGMENT_COPIES)
        # Every asset warm and one more that warms both servers' code paths (asset "warm").
        for asset in ["warm"] + ["a%d" % i for i in range(N)]:
            shutil.copytree(template, os.path.join(www, asset))
        with open(os.path.join(work, "nginx.conf"), "w") as conf:
            conf.write("""worker_processes 1;
daemon off;
pid %(w)s/nginx.pid;
error_log %(w)s/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    types { application/vnd.apple.mpegurl m3u8; text/vtt vtt; video/mp2t ts; }
    server { listen 127.0.0.1:%(p)d; root %(w)s/www; location = /healthz { return 200 "ok\\n"; } }
}
""" % {"w": work, "p": ORIGIN_PORT})
        processes.append(subprocess.Popen([NGINX, "-c", os.path.join(work, "nginx.conf"), "-p", work]))
        with open(os.path.join(work, "proxy.json"), "w") as conf:
            conf.write("""{
  "listen": { "host": "127.0.0.1", "port": %d },
  "mounts": { "cold": { "origin": "http://127.0.0.1:%d/" } },
  "subtitles": [ { "name": "cold", "masters": ["/cold/*/master.m3u8"], "group_id": "subs",
    "tracks": [ { "id": "en", "name": "English", "language": "en", "default": true, "source": "subs/en.vtt",
                  "mode": "segmented" } ] } ],
  "log_level": "%s",
  "access_log": %s
}
""" % (PROXY_PORT, served_port, os.environ.get("LOG_LEVEL", "info" if ACCESS_LOG else "error"), "true" if ACCESS_LOG else "false"))
        log = open(ACCESS_LOG, "w") if ACCESS_LOG else subprocess.DEVNULL
        processes.append(subprocess.Popen(os.environ.get("WRAP", "").split() + [PROXY, "--config", os.path.join(work, "proxy.json")],
                                          stdout=log, stderr=log if ACCESS_LOG else None))
        wait_for(ORIGIN_PORT)
        if ORIGIN_RATE:
            relay(ORIGIN_PORT + 2, ORIGIN_PORT, rate_of(ORIGIN_RATE))
        wait_for(PROXY_PORT)
        proxy = http.client.HTTPConnection("127.0.0.1", PROXY_PORT)
        origin = http.client.HTTPConnection("127.0.0.1", served_port)
        through_proxy(proxy, "warm")
        straight(origin, "warm")
        proxied, direct = [], []
        for i in range(N):
            asset = "a%d" % i
            if i % 2 == 0:
                proxied.append(through_proxy(proxy, asset))
                direct.append(straight(origin, asset))
            else:
                direct.append(straight(origin, asset))
                proxied.append(through_proxy(proxy, asset))
        overhead = [p - d for p, d in zip(proxied, direct)]
        size = os.path.getsize(os.path.join(template, "subs/en.vtt"))
        print("cold start, %d fresh assets, sidecar %d cues over 2 h (%d bytes), load average %s"
              % (N, CUES, size, os.getloadavg()[0]))
        print("first video segment %d bytes, origin %s" % (os.path.getsize(os.path.join(template, "v0/seg000.ts")),
                                                          "at %s bytes/s a connection" % ORIGIN_RATE if ORIGIN_RATE else "on loopback"))
        print("%-34s %10s %10s" % ("", "p50 ms", "p90 ms"))
        for name, values in (("through the proxy", proxied), ("straight from the origin", direct),
                             ("overhead (per asset, paired)", overhead)):
            print("%-34s %10.2f %10.2f" % (name, 1000 * statistics.median(values), 1000 * percentile(values, 0.9)))
        if ACCESS_LOG:
            print_routes(ACCESS_LOG)
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM if process is processes[-1] else signal.SIGQUIT)
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

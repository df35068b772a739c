#!/usr/bin/env python3
"""Mixed load against a running proxy, checking every status, sampling RSS and open fds every 10 s.

Usage: soak.py MINUTES PROXY_PORT PROXY_PID
The proxy must run scripts/soak.json (written by soak.sh). Exit status 0 when no response had an
unexpected status and RSS grew less than 5 % from the end of warm-up to the end.
"""
import http.client
import os
import re
import sys
import threading
import time

MINUTES = float(sys.argv[1])
PORT = int(sys.argv[2])
PID = int(sys.argv[3])
WORKERS = 8
SAMPLE_SECONDS = 10

# (path, expected status): masters, subtitle playlists and files, redirects, files, and faults.
FIXED = [
    ("/o/vod-ts/master.m3u8", 200),
    ("/o/vod-fmp4/master.m3u8", 200),
    ("/o/vod-ts/v0/seg000.ts", 302),
    ("/o/vod-ts/v1/index.m3u8", 302),
    ("/f/vod-ts/v0/seg001.ts", 200),
    ("/healthz", 200),
    ("/dead/master.m3u8", 502),        # origin refuses connections
    ("/o/missing/master.m3u8", 404),    # origin 404 passed through
    ("/nowhere/x.ts", 404),             # unknown mount
    ("/https/evil.example/x.m3u8", 403),  # not on the allowlist
]


def subtitle_paths(connection):
    """The synthesized URIs the rewritten masters point at, and their first segments."""
    paths = []
    for master in ("/o/vod-ts/master.m3u8", "/o/vod-fmp4/master.m3u8"):
        connection.request("GET", master)
        body = connection.getresponse().read().decode()
        for uri in re.findall(r'URI="(/_hls-proxy/[^"]+)"', body):
            paths.append((uri, 200))
            paths.append((uri.rsplit("/", 1)[0] + "/0.vtt", 200))
    return paths


class Totals:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.unexpected = {}

    def add(self, path, status, expected):
        with self.lock:
            self.requests += 1
            if status != expected:
                key = f"{path} -> {status} (expected {expected})"
                self.unexpected[key] = self.unexpected.get(key, 0) + 1


def worker(mix, deadline, totals, offset):
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    index = offset
    while time.monotonic() < deadline:
        path, expected = mix[index % len(mix)]
        index += 1
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            totals.add(path, response.status, expected)
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
        except (OSError, http.client.HTTPException) as error:
            totals.add(path, f"error {type(error).__name__}", expected)
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)


def sample():
    rss = 0
    with open(f"/proc/{PID}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    fds = len(os.listdir(f"/proc/{PID}/fd"))
    return rss, fds


def main():
    setup = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    mix = FIXED + subtitle_paths(setup)
    setup.close()
    totals = Totals()
    start = time.monotonic()
    deadline = start + MINUTES * 60
    threads = [threading.Thread(target=worker, args=(mix, deadline, totals, n)) for n in range(WORKERS)]
    for thread in threads:
        thread.start()
    samples = []
    print("elapsed_s  requests  rss_kb  fds")
    while time.monotonic() < deadline:
        time.sleep(min(SAMPLE_SECONDS, max(0.0, deadline - time.monotonic())))
        rss, fds = sample()
        elapsed = time.monotonic() - start
        samples.append((elapsed, rss, fds))
        print(f"{elapsed:9.0f}  {totals.requests:8d}  {rss:6d}  {fds:3d}", flush=True)
    for thread in threads:
        thread.join()
    warm = [s for s in samples if s[0] >= min(60.0, MINUTES * 60 / 5)]
    base = warm[0] if warm else samples[0]
    last = samples[-1]
    growth = (last[1] - base[1]) * 100.0 / base[1] if base[1] else 0.0
    unexpected = sum(totals.unexpected.values())
    print(f"requests {totals.requests}, unexpected statuses {unexpected}, "
          f"RSS after warm-up {base[1]} kB -> {last[1]} kB ({growth:+.1f} %), fds {base[2]} -> {last[2]}")
    for key, count in sorted(totals.unexpected.items()):
        print(f"  unexpected: {key} x{count}")
    ok = unexpected == 0 and growth < 5.0
    print("SOAK PASS" if ok else "SOAK FAIL")
    sys.exit(0 if ok else 1)


main()

#!/usr/bin/env python3
"""Lists one viewer's requests for a master through the proxy, the way a player walks it: the master,
every rendition and variant playlist it names, and every segment those list. Prints one line per
request: `STATUS PATH [LOCATION]`. A playlist the proxy answers with a redirect is read at its Location
to find its segments, which are listed under the proxy's path (relative URIs resolve against the
playlist's URI, RFC 8216 §4.1, taken here as the URL the player asked for), so a redirect mount's
mix holds its segments' 302s too. Used by bench/run.sh (ONLY=viewer).

    viewer_paths.py PORT /files/master.m3u8
"""
import http.client
import sys
import urllib.parse

port, master = int(sys.argv[1]), sys.argv[2]


def get(url):
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=10)
    target = parts.path + ("?" + parts.query if parts.query else "")
    conn.request("GET", target, headers={"Host": "bench"})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, response.getheader("Location"), body


def uris(body):
    for line in body.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            marker = 'URI="'
            start = line.find(marker)
            if start >= 0:
                end = line.find('"', start + len(marker))
                if end > start:
                    yield line[start + len(marker):end]
        else:
            yield line


base = f"http://127.0.0.1:{port}"
seen = []
queue = [base + master]
while queue:
    url = queue.pop(0)
    if url in seen:
        continue
    seen.append(url)
    status, location, body = get(url)
    path = urllib.parse.urlsplit(url)
    target = path.path + ("?" + path.query if path.query else "")
    print(status, target, location or "")
    if status not in (200, 301, 302, 307, 308):
        sys.exit(f"{target} answered {status}")
    playlist_body, playlist_url = body, url  # URIs resolve against the proxy URL, redirected or not
    if status != 200:
        if not target.endswith(".m3u8"):
            continue
        status, _, playlist_body = get(urllib.parse.urljoin(url, location))
    if not playlist_body.startswith(b"#EXTM3U"):
        continue
    for uri in uris(playlist_body):
        absolute = urllib.parse.urljoin(playlist_url, uri)
        # Only what the player asks of the proxy.
        if absolute.startswith(base):
            queue.append(absolute)

#!/usr/bin/env python3
"""Threads and descriptors of the proxy when an origin hangs.

Starts an origin that reads each request and never answers, and the proxy (a release binary) with a
mount on it, then fires COUNT distinct cold master requests at once (each its own connection, its own
query, so nothing is cached or coalesced). While they are in flight it samples the proxy's thread count
(/proc/PID/status) and open descriptors (/proc/PID/fd) every 20 ms, and prints the peaks and how the
requests were answered.

    bench/origin_exchanges.py BINARY [BINARY ...]     # e.g. an old build and this one
    COUNT=3000 ORIGIN_SECONDS=10 bench/origin_exchanges.py .build/release/hls-subtitle-proxy

Each binary runs with the descriptor limit this script inherits (printed); a build without
limits.max_origin_exchanges ignores nothing it does not know, since the config sets no new key. Ports
21100 (origin) and 21101 (proxy), loopback only. About ORIGIN_SECONDS + 5 s per binary.
"""
import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time

COUNT = int(os.environ.get("COUNT", "3000"))
ORIGIN_SECONDS = int(os.environ.get("ORIGIN_SECONDS", "10"))
ORIGIN_PORT = int(os.environ.get("ORIGIN_PORT", "21100"))
PROXY_PORT = int(os.environ.get("PROXY_PORT", "21101"))
STARTING_LIMIT = resource.getrlimit(resource.RLIMIT_NOFILE)


def hanging_origin(stop):
    """Accepts, reads the request head, never answers; closes everything when `stop` is set."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", ORIGIN_PORT))
    listener.listen(4096)
    listener.settimeout(0.1)
    held = []
    while not stop.is_set():
        try:
            connection, _ = listener.accept()
        except socket.timeout:
            continue
        held.append(connection)  # the request sits unread in the buffer: the origin "hangs"
    for connection in held:
        connection.close()
    listener.close()


def sample(pid):
    """(threads, open descriptors) of `pid`, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            threads = next(int(line.split()[1]) for line in status if line.startswith("Threads:"))
        return threads, len(os.listdir(f"/proc/{pid}/fd"))
    except (FileNotFoundError, ProcessLookupError, StopIteration):
        return None


async def one_request(index, deadline):
    """The status the proxy answered with, or 'no answer' / 'refused'."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", PROXY_PORT), 10)
    except (OSError, asyncio.TimeoutError):
        return "refused"
    try:
        writer.write(f"GET /m/master.m3u8?n={index} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), max(0.1, deadline - time.monotonic()))
        parts = line.split()
        return parts[1].decode() if len(parts) >= 2 else "no answer"
    except (OSError, asyncio.TimeoutError):
        return "no answer"
    finally:
        writer.close()


async def fire(pid):
    peaks = {"threads": 0, "fds": 0}
    done = asyncio.Event()

    async def sampler():
        while not done.is_set():
            current = sample(pid)
            if current:
                peaks["threads"] = max(peaks["threads"], current[0])
                peaks["fds"] = max(peaks["fds"], current[1])
            await asyncio.sleep(0.02)

    sampling = asyncio.create_task(sampler())
    started = time.monotonic()
    deadline = started + ORIGIN_SECONDS + 5
    shed_seconds = []

    async def timed(index):
        status = await one_request(index, deadline)
        if status == "503":
            shed_seconds.append(time.monotonic() - started)
        return status

    statuses = await asyncio.gather(*(timed(index) for index in range(COUNT)))
    done.set()
    await sampling
    counts = {}
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
    return peaks, counts, time.monotonic() - started, (max(shed_seconds) if shed_seconds else None)


def inherited_limit():
    """The proxy runs with the descriptor limit this script was started with, not the raised one."""
    resource.setrlimit(resource.RLIMIT_NOFILE, STARTING_LIMIT)


def run(binary):
    work = tempfile.mkdtemp(prefix="hls-origin-exchanges.")
    config = {
        "listen": {"host": "127.0.0.1", "port": PROXY_PORT},
        "mounts": {"m": {"origin": f"http://127.0.0.1:{ORIGIN_PORT}"}},
        "subtitles": [{"name": "s", "masters": ["/m/*.m3u8"],
                       "tracks": [{"id": "en", "name": "English", "language": "en", "source": "/en.vtt"}]}],
        "timeouts": {"origin_seconds": ORIGIN_SECONDS},
        "limits": {"max_connections": COUNT + 100},
        "log_level": "warn",
        "access_log": False,
    }
    path = os.path.join(work, "proxy.json")
    with open(path, "w") as file:
        json.dump(config, file)
    check = subprocess.run([binary, "--config", path, "--check-config"], capture_output=True, text=True, preexec_fn=inherited_limit)
    stop = threading.Event()
    origin = threading.Thread(target=hanging_origin, args=(stop,), daemon=True)
    origin.start()
    stderr_path = os.path.join(work, "stderr.log")
    stderr = open(stderr_path, "w")
    proxy = subprocess.Popen(
        [binary, "--config", path], stdout=subprocess.DEVNULL, stderr=stderr, preexec_fn=inherited_limit)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", PROXY_PORT), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        idle = sample(proxy.pid)
        peaks, counts, elapsed, last_shed = asyncio.run(fire(proxy.pid))
    finally:
        proxy.terminate()
        try:
            proxy.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proxy.kill()
            proxy.wait()
        stderr.close()
        stop.set()
        origin.join()
    with open(stderr_path) as file:
        errors = file.read()
    print(f"== {binary}")
    for line in check.stdout.strip().splitlines():
        print(f"   check-config: {line}")
    print(f"   idle: {idle[0]} threads, {idle[1]} descriptors")
    print(f"   {COUNT} cold masters on a hanging origin: peak {peaks['threads']} threads, {peaks['fds']} open descriptors")
    print(f"   answers: " + ", ".join(f"{status}: {count}" for status, count in sorted(counts.items())))
    if last_shed is not None:
        print(f"   every 503 arrived within {last_shed:.2f} s of the start")
    print(f"   run took {elapsed:.1f} s")
    problems = [line for line in errors.splitlines() if "EMFILE" in line or "Too many open files" in line or "pthread_create" in line]
    if problems:
        print(f"   proxy stderr: {len(problems)} lines about running out of descriptors or threads, e.g.: {problems[0][:200]}")
    shedding = [line for line in errors.splitlines() if "shedding" in line]
    if shedding:
        print(f"   proxy stderr: {len(shedding)} shedding warnings, e.g.: {shedding[0][:200]}")


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip())
        sys.exit(2)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # The client and the origin each hold COUNT sockets in this process.
    want = min(hard, max(soft, 2 * COUNT + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    print(f"descriptor limit (RLIMIT_NOFILE soft) for the proxy: {soft}; origin timeout {ORIGIN_SECONDS} s; {os.cpu_count()} cores")
    for binary in sys.argv[1:]:
        run(binary)


if __name__ == "__main__":
    main()

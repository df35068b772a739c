#!/usr/bin/env python3
"""Requests answered while SIGHUP reloads the config over and over: none may fail or come back short.

Usage: reload_under_load.py [BINARY] [SECONDS]
BINARY defaults to .build/debug/hls-subtitle-proxy, SECONDS (per phase) to 5. Starts the proxy on
127.0.0.1:29310 with a directory mount `m` on folder a/, then runs two phases with 4 client threads on
keep-alive connections fetching /m/hello.txt: first with no reloads, then with a SIGHUP every 50 ms
while the file flips between mount `m` on a/, mount `m` on b/ and (every third time) an invalid file.
Prints requests/s per phase, every answer that was not a whole 200 with one of the two bodies, and the
reload lines the proxy logged. Exits 1 if any request failed or a reload went unlogged.
"""
import http.client
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

PORT = 29310
BODIES = {b"from a\n", b"from b\n"}


def client(stop, counts, problems):
    connection = None
    while not stop.is_set():
        try:
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
            connection.request("GET", "/m/hello.txt")
            response = connection.getresponse()
            body = response.read()
            if response.status != 200 or body not in BODIES:
                problems.append(f"{response.status} {body[:60]!r}")
            counts[0] += 1
        except (OSError, http.client.HTTPException) as error:
            problems.append(f"{type(error).__name__}: {error}")
            connection = None


def phase(seconds, reload_step=None):
    stop = threading.Event()
    counts, problems = [0], []
    threads = [threading.Thread(target=client, args=(stop, counts, problems)) for _ in range(4)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    sent = 0
    while time.perf_counter() - start < seconds:
        if reload_step:
            reload_step(sent)
            sent += 1
            time.sleep(0.05)
        else:
            time.sleep(0.1)
    stop.set()
    for thread in threads:
        thread.join()
    return counts[0] / (time.perf_counter() - start), problems, sent


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/hls-subtitle-proxy"
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5
    root = tempfile.mkdtemp(prefix="reload-bench-")
    for name in ("a", "b"):
        os.makedirs(f"{root}/{name}")
        with open(f"{root}/{name}/hello.txt", "w") as file:
            file.write(f"from {name}\n")
    config = f"{root}/proxy.json"

    def write(text):
        # Written beside and renamed over, as a config management tool does: a reload never reads half a file.
        with open(config + ".new", "w") as file:
            file.write(text)
        os.replace(config + ".new", config)

    def valid(folder):
        return '{ "listen": { "port": %d }, "mounts": { "m": { "origin": "%s/%s" } } }' % (PORT, root, folder)

    write(valid("a"))
    log = open(f"{root}/stderr.log", "w")
    process = subprocess.Popen([os.path.abspath(binary), "--config", config, "--access-log", "off"],
                               stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.time() + 10
        while True:
            try:
                http.client.HTTPConnection("127.0.0.1", PORT, timeout=1).request("GET", "/healthz")
                break
            except OSError:
                if time.time() > deadline or process.poll() is not None:
                    raise SystemExit("the proxy did not start")
                time.sleep(0.05)

        def step(index):
            write('{ "mounts": 3 }' if index % 3 == 2 else valid("ab"[index % 2]))
            process.send_signal(signal.SIGHUP)

        quiet_rate, quiet_problems, _ = phase(seconds)
        busy_rate, busy_problems, sent = phase(seconds, step)
        time.sleep(0.5)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=15)
        log.close()
    lines = open(f"{root}/stderr.log").read().splitlines()
    applied = sum("reloaded configuration file" in line for line in lines)
    refused = sum("configuration reload refused" in line for line in lines)
    print(f"no reloads:        {quiet_rate:8.0f} requests/s, {len(quiet_problems)} failed")
    print(f"SIGHUP every 50ms: {busy_rate:8.0f} requests/s, {len(busy_problems)} failed; "
          f"{sent} signals sent, {applied} applied + {refused} refused logged")
    for problem in (quiet_problems + busy_problems)[:10]:
        print("  failed:", problem)
    # Signals sent close together may be delivered as one (POSIX does not queue them), so the log may
    # hold fewer lines than signals sent, never more; at least one of each kind must be there.
    ok = not quiet_problems and not busy_problems and applied > 0 and refused > 0 and applied + refused <= sent
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

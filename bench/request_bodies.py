#!/usr/bin/env python3
"""The proxy's memory while many clients send GET requests with large bodies.

Usage: request_bodies.py BINARY [BINARY ...] [--connections N] [--body-bytes B] [--port P]

For each binary: starts it on 127.0.0.1:P (default 24180) with a config of no mounts, opens N
connections (default 1,000), sends on each `GET /healthz` with a Content-Length body of B bytes
(default 1 MiB, the server's body limit): every body but its last byte on every connection first, so
all of them are in flight at once, then the last bytes; then reads every answer, closes every
connection, waits a second, and prints the proxy's VmRSS before, while every body is in flight, and
after, with its VmHWM (the peak).
Raw sockets only; loopback only. Takes a few seconds per binary.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time


def status_memory(pid):
    """VmRSS and VmHWM of a process, in MiB."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, rest = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                values[name] = int(rest.split()[0]) / 1024
    return values["VmRSS"], values["VmHWM"]


def wait_for_port(port, process, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the proxy exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the proxy did not start listening")


def read_status(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    return int(data.split(b" ")[1])


def measure(binary, connections, body_bytes, port):
    config = {"listen": {"host": "127.0.0.1", "port": port}, "mounts": {},
              "limits": {"max_connections": connections + 100}, "timeouts": {"header_seconds": 60}}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(config, file)
        config_path = file.name
    process = subprocess.Popen([binary, "--config", config_path, "--log-level", "error"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process)
        time.sleep(0.3)
        before, _ = status_memory(process.pid)
        head = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {body_bytes}\r\n\r\n".encode()
        body = b"b" * body_bytes
        sockets = []
        started = time.time()
        # Every body but its last byte first, so all of them are in flight at once; then the last bytes.
        for _ in range(connections):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(head)
            sock.sendall(body[:-1])
            sockets.append(sock)
        sent_seconds = time.time() - started
        time.sleep(2.0)
        held, _ = status_memory(process.pid)
        for sock in sockets:
            sock.sendall(body[-1:])
        answered = sum(1 for sock in sockets if read_status(sock) == 200)
        for sock in sockets:
            sock.close()
        time.sleep(1.0)
        after, peak = status_memory(process.pid)
        return {"before": before, "held": held, "peak": peak, "after": after,
                "answered": answered, "seconds": sent_seconds}
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        os.unlink(config_path)


def main():
    arguments = sys.argv[1:]
    options = {"--connections": 1000, "--body-bytes": 1 << 20, "--port": 24180}
    binaries = []
    index = 0
    while index < len(arguments):
        if arguments[index] in options and index + 1 < len(arguments):
            options[arguments[index]] = int(arguments[index + 1])
            index += 2
        else:
            binaries.append(arguments[index])
            index += 1
    if not binaries:
        raise SystemExit(__doc__)
    connections, body_bytes, port = options["--connections"], options["--body-bytes"], options["--port"]
    print(f"{connections} connections, each GET /healthz with a {body_bytes}-byte body, all in flight at once")
    print(f"{'binary':<60} {'before':>8} {'held':>8} {'peak':>8} {'after':>8} {'answered':>9} {'send s':>7}")
    for binary in binaries:
        result = measure(binary, connections, body_bytes, port)
        print(f"{binary:<60} {result['before']:>6.1f}MB {result['held']:>6.1f}MB {result['peak']:>6.1f}MB "
              f"{result['after']:>6.1f}MB {result['answered']:>9} {result['seconds']:>7.2f}")
    print("before/held/after: VmRSS with no client, with every body in flight, and 1 s after all closed; peak: VmHWM")


if __name__ == "__main__":
    main()

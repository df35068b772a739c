#!/usr/bin/env python3
"""Opens N keep-alive connections, sends one GET on each, reads each response, then holds them all idle.

Usage: idle_connections.py HOST PORT PATH COUNT
Prints "ready <count>" once every connection has had its response, then holds them until stdin closes
(or the process is killed), so the caller can measure the server's memory meanwhile.
"""
import resource
import socket
import sys


def read_response(sock):
    """Reads one response head and its Content-Length body; returns the status code."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before the response head")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed inside the body")
        body += chunk
    return int(head.split(b" ")[1])


def main():
    host, port, path, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
    sockets = []
    batch = 500
    # Connect and send in batches, then read the batch: keeps the listen backlog short.
    for start in range(0, count, batch):
        group = []
        for _ in range(min(batch, count - start)):
            sock = socket.create_connection((host, port))
            sock.sendall(request)
            group.append(sock)
        for sock in group:
            status = read_response(sock)
            if status >= 400:
                raise SystemExit(f"status {status} on connection {len(sockets)}")
            sockets.append(sock)
    print(f"ready {len(sockets)}", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()

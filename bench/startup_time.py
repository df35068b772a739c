#!/usr/bin/env python3
"""Times process start to the first 200 on a health URL, median of several starts.

Usage: startup_time.py ROUNDS PORT PATH -- COMMAND...
Each round starts COMMAND, polls http://127.0.0.1:PORT/PATH over fresh connections until it answers 200,
records the time since the spawn, then stops the process (SIGTERM, then SIGKILL) and waits for the port
to be free. Prints the median in milliseconds.
"""
import os
import signal
import socket
import statistics
import subprocess
import sys
import time


def answers_200(port, path):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            return sock.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def one_round(port, path, command):
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while not answers_200(port, path):
            if process.poll() is not None:
                raise SystemExit(f"{command[0]} exited with {process.returncode} before answering")
            if time.perf_counter() - start > 10:
                raise SystemExit(f"{command[0]} did not answer within 10 s")
        return (time.perf_counter() - start) * 1000
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def main():
    rounds, port, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    command = sys.argv[sys.argv.index("--") + 1:]
    times = []
    for _ in range(rounds):
        times.append(one_round(port, path, command))
        time.sleep(0.2)
    print(f"{statistics.median(times):.2f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""What clients that hold connections cost `fruitsite serve`.

    python3 Benchmarks/serve/clients.py --fruitsite .build/release/fruitsite
        [--stalled 1000] [--streams 10000]

On a copy of the sample site with a 20 MB asset: the server's threads and resident memory
idle; with STALLED clients that each ask for the asset and never read it; once the timeout
has closed them; with STREAMS open pages' event streams; and how long an edit takes to reach
every one of those streams. Raises this process's descriptor limit to its hard limit, which
must hold STREAMS plus a few hundred.

A benchmark, not a test: it exits non-zero only when the server cannot start.
"""

import argparse
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
import browser_support  # noqa: E402  (a process's threads and memory, as the tests read them)

CLIP_SIZE = 20 * 1024 * 1024
TIMEOUT = 10


def row(label, pid):
    fields = browser_support.process_status(pid)
    print(f"  {label:<44} {fields['Threads']:>7} {fields['VmRSS'] / 1024:>9.1f}", flush=True)


def open_socket(port, request, receive_buffer=None):
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    connection.connect(("127.0.0.1", port))
    connection.sendall(request)
    return connection


def first_event(connection, pending):
    """The version of the next `data:` event, reading past the head and heartbeats."""
    while True:
        if pending.startswith(b"HTTP/"):
            end = pending.find(b"\r\n\r\n")
            if end >= 0:
                del pending[: end + 4]
                continue
        else:
            end = pending.find(b"\n\n")
            if end >= 0:
                message = bytes(pending[:end])
                del pending[: end + 2]
                if message.startswith(b"data: "):
                    return json.loads(message[6:])["version"]
                continue
        chunk = connection.recv(65536)
        if not chunk:
            raise RuntimeError("a stream ended")
        pending += chunk


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fruitsite", required=True)
    parser.add_argument("--stalled", type=int, default=1000)
    parser.add_argument("--streams", type=int, default=10000)
    arguments = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    work = tempfile.mkdtemp(prefix="fruitsite-clients-")
    try:
        for name in ("Content", "Templates"):
            shutil.copytree(os.path.join(ROOT, name), os.path.join(work, name))
        with open(os.path.join(work, "Templates", "assets", "clip.mp4"), "wb") as file:
            file.write(os.urandom(CLIP_SIZE))
        server = subprocess.Popen(
            [os.path.abspath(arguments.fruitsite), "serve", "--port", "0"],
            cwd=work, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            match = re.search(r":(\d+)/", server.stdout.readline())
            if not match:
                raise SystemExit("error: fruitsite serve did not start")
            threading.Thread(target=server.stdout.read, daemon=True).start()
            port, pid = int(match.group(1)), server.pid
            host = f"Host: 127.0.0.1:{port}\r\n\r\n".encode("ascii")
            print(f"fruitsite serve with clients that hold connections ({CLIP_SIZE >> 20} MB asset):")
            print(f"  {'':<44} {'threads':>7} {'RSS (MB)':>9}")
            row("idle", pid)

            stalled = [
                open_socket(port, b"GET /assets/clip.mp4 HTTP/1.1\r\n" + host, 4096)
                for _ in range(arguments.stalled)]
            time.sleep(3)
            row(f"{arguments.stalled:,} clients asking, never reading", pid)
            time.sleep(TIMEOUT + 2)
            row(f"{TIMEOUT + 5} s later (timeout {TIMEOUT} s)", pid)
            for connection in stalled:
                connection.close()

            streams = []
            for _ in range(arguments.streams):
                connection = open_socket(port, b"GET /__fruitsite/events HTTP/1.1\r\n" + host)
                connection.settimeout(60)
                streams.append((connection, bytearray()))
            versions = [first_event(connection, pending) for connection, pending in streams]
            row(f"{arguments.streams:,} open pages' event streams", pid)
            entry = os.path.join(work, "Content", "apple.md")
            started = time.monotonic()
            with open(entry, "a", encoding="utf-8") as file:
                file.write("\nA new line.\n")
            for (connection, pending), version in zip(streams, versions):
                while first_event(connection, pending) <= version:
                    pass
            elapsed = (time.monotonic() - started) * 1000
            print(f"  an edit reached all {arguments.streams:,} open pages in {elapsed:,.0f} ms"
                  " (save to the last stream's event, build included)")
            for connection, _ in streams:
                connection.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

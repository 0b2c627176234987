"""`fruitsite serve` under clients that hold connections: ones that ask for a large file and
never read it, and open pages' event streams by the hundred. Each costs the server a socket,
not a thread or a copy of the file, and a client that takes nothing for the timeout (10 s) is
closed. No browser: raw sockets against the real binary."""

import json
import os
import re
import socket
import time
from urllib.parse import urlsplit

import pytest

import browser_support as support
from test_serve import Served

CLIP_SIZE = 20 * 1024 * 1024
TIMEOUT = 10


@pytest.fixture
def served_with_clip(fruitsite_bin, tmp_path):
    support.copy_sample_in_one_language(tmp_path)
    (tmp_path / "Templates" / "assets" / "clip.mp4").write_bytes(os.urandom(CLIP_SIZE))
    running = Served(fruitsite_bin, tmp_path)
    yield running
    running.stop()


def connect(url: str, receive_buffer: int | None = None) -> socket.socket:
    parts = urlsplit(url)
    connection = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    connection.connect((parts.hostname, parts.port))
    return connection


def request(connection: socket.socket, url: str) -> None:
    parts = urlsplit(url)
    connection.sendall(
        f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode("ascii"))


def test_clients_that_never_read_hold_no_copy_and_no_thread(served_with_clip):
    pid = served_with_clip.process.pid
    before = support.process_status(pid)
    clients = []
    for _ in range(100):
        client = connect(served_with_clip.url, receive_buffer=4096)
        request(client, served_with_clip.url + "assets/clip.mp4")
        clients.append(client)
    time.sleep(2)
    held = support.process_status(pid)
    # One thread per connection would be 100 more; a copy of the file per client 2 GB more.
    assert held["Threads"] <= before["Threads"] + 2, (before, held)
    assert held["VmRSS"] - before["VmRSS"] < 64 * 1024, (before, held)

    # Past the timeout without taking a byte, each is closed: what was in flight arrives,
    # then the end, long before the whole file.
    time.sleep(TIMEOUT + 2)
    for client in clients:
        client.settimeout(30)
        received = 0
        while chunk := client.recv(1 << 20):
            received += len(chunk)
        assert 0 < received < CLIP_SIZE
        client.close()

    # The server still answers, as a client that reads gets the whole file.
    reader = connect(served_with_clip.url)
    request(reader, served_with_clip.url + "assets/clip.mp4")
    reader.settimeout(30)
    data = b""
    while b"\r\n\r\n" not in data:
        data += reader.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    while len(body) < length:
        body += reader.recv(1 << 20)
    assert length == CLIP_SIZE and len(body) == CLIP_SIZE
    reader.close()


def read_event(stream: socket.socket, pending: bytearray) -> dict:
    """The next `data:` event of a stream, skipping heartbeats."""
    while True:
        end = pending.find(b"\n\n")
        if end >= 0:
            message = bytes(pending[:end])
            del pending[: end + 2]
            if message.startswith(b"data: "):
                return json.loads(message[6:])
            continue
        chunk = stream.recv(65536)
        assert chunk, "the stream ended"
        pending += chunk


def test_open_pages_each_hold_a_socket_not_a_thread(served_with_clip):
    pid = served_with_clip.process.pid
    before = support.process_status(pid)
    streams = []
    for _ in range(500):
        stream = connect(served_with_clip.url)
        request(stream, served_with_clip.url + "__fruitsite/events")
        stream.settimeout(30)
        pending = bytearray()
        while b"\r\n\r\n" not in pending:
            pending += stream.recv(65536)
        head, _, rest = bytes(pending).partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200 ") and b"text/event-stream" in head
        streams.append((stream, bytearray(rest)))
    first = [read_event(stream, pending)["version"] for stream, pending in streams]
    held = support.process_status(pid)
    assert held["Threads"] <= before["Threads"] + 2, (before, held)

    # An edit reaches every open page.
    path = served_with_clip.work / "Content" / "apple.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nA new line.\n", encoding="utf-8")
    for (stream, pending), seen in zip(streams, first):
        assert read_event(stream, pending)["version"] > seen
        stream.close()

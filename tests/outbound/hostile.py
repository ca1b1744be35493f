"""Receivers that misbehave, on loopback addresses, for the courier's tests.

Each is a plain socket server: ``answer`` gets the bytes of one request and
the connection, and does with it what the receiver is made to do."""

from __future__ import annotations

import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

Answer = Callable[[bytes, socket.socket, "Receiver"], None]


@dataclass
class Receiver:
    answer: Answer
    host: str = "127.0.0.1"
    tls: ssl.SSLContext | None = None
    requests: list[bytes] = field(default_factory=list)
    open_now: int = 0  # connections accepted and not closed yet
    sent: int = 0  # bytes written to clients
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopped: threading.Event = field(default_factory=threading.Event)

    def start(self) -> str:
        self.server = socket.create_server((self.host, 0))
        threading.Thread(target=self._accept, daemon=True).start()
        scheme = "https" if self.tls else "http"
        return f"{scheme}://{self.host}:{self.server.getsockname()[1]}/hook"

    def stop(self) -> None:
        self.stopped.set()
        self.server.close()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        with self.lock:
            self.open_now += 1
        try:
            if self.tls is not None:
                connection = self.tls.wrap_socket(connection, server_side=True)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length")), 0)  # fmt: skip
            while len(body) < length:
                body += connection.recv(65536)
            with self.lock:
                self.requests.append(head + b"\r\n\r\n" + body)
            self.answer(data, connection, self)
        except OSError:
            pass
        finally:
            connection.close()
            with self.lock:
                self.open_now -= 1


def silent(_: bytes, connection: socket.socket, receiver: Receiver) -> None:
    """Read the request, then never answer (until the test ends)."""
    while not receiver.stopped.wait(0.2):
        pass


def trickle(_: bytes, connection: socket.socket, receiver: Receiver) -> None:
    """Answer a byte every half second, for ever: no read ever waits long."""
    for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 10_000_000:
        if receiver.stopped.is_set():
            return
        connection.sendall(bytes([byte]))
        with receiver.lock:
            receiver.sent += 1
        time.sleep(0.5)


def endless(_: bytes, connection: socket.socket, receiver: Receiver) -> None:
    """200, then a body of 400 MiB, as fast as the client reads it."""
    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 419430400\r\n\r\n")
    chunk = b"x" * 65536
    for _ in range(400 * 16):
        connection.sendall(chunk)
        with receiver.lock:
            receiver.sent += len(chunk)


def ok(status: int = 200, headers: str = "") -> Answer:
    def answer(_: bytes, connection: socket.socket, receiver: Receiver) -> None:
        connection.sendall(f"HTTP/1.1 {status} X\r\nContent-Length: 2\r\n{headers}\r\nok".encode())

    return answer


def wait_for(check: Callable[[], bool], timeout: float = 60) -> None:
    """Wait until ``check()`` holds (a bound for a broken run, not a timing check)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"still not so after {timeout} s"
        time.sleep(0.02)


def raw(head: bytes) -> Answer:
    """Answer with ``head`` exactly as given (a status line and headers, then a body)."""

    def answer(_: bytes, connection: socket.socket, receiver: Receiver) -> None:
        connection.sendall(head)

    return answer

"""A webhook receiver on 127.0.0.1 for the tests: it keeps every request and answers
with the statuses it is told, in order (then 200)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    status: int

    @property
    def event(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed


@dataclass
class Receiver:
    statuses: list[int] = field(default_factory=list)  # answered first, in order
    hang_s: float = 0.0  # the first request waits this long before it is answered
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> str:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    first = not receiver.received
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    entry = Received(dict(self.headers.items()), body, status)
                    receiver.received.append(entry)
                if first and receiver.hang_s:
                    time.sleep(receiver.hang_s)
                self.send_response(status)
                if status in (301, 302, 307):
                    self.send_header("Location", "http://127.0.0.1:9/elsewhere")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def accepted(self) -> list[Received]:
        with self.lock:
            return [r for r in self.received if 200 <= r.status < 300]

    def wait_for(self, check: Any, timeout: float = 60) -> None:
        """Wait until ``check()`` holds (a bound for a broken run, not a timing check)."""
        deadline = time.monotonic() + timeout
        while not check():
            assert time.monotonic() < deadline, f"not received in {timeout} s: {self.received}"
            time.sleep(0.05)

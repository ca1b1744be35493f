"""The gunicorn worker that ``stacks-api serve`` runs: gevent, hardened.

- Every client socket gets a timeout (``STACKS_READ_TIMEOUT_S``, 30 s): a
  client that announces a body and never sends it, or stops reading a
  response, is cut off instead of holding its greenlet for ever.
- gunicorn's own refusals (request line or headers too long, malformed
  requests) are answered as problem details, like every other error.
"""

from __future__ import annotations

import json
import os
import socket
from typing import Any

from gunicorn import util
from gunicorn.workers.base_async import AsyncWorker
from gunicorn.workers.ggevent import GeventWorker

from ..model import codes

READ_TIMEOUT_S = float(os.environ.get("STACKS_READ_TIMEOUT_S", "30"))


def write_problem(sock: socket.socket, status: int, reason: str, message: str) -> None:
    """gunicorn's error page, as RFC 9457 problem details."""
    problem = codes.body(codes.for_status(status), message or reason)
    problem["status"] = status  # the status gunicorn sends, whatever the table says
    body = json.dumps(problem).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin1") + body)


class Worker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker with socket timeouts and problem-details refusals."""

    def init_process(self) -> None:
        util.write_error = write_problem
        super().init_process()

    def handle(self, listener: Any, client: socket.socket, addr: Any) -> None:
        client.settimeout(READ_TIMEOUT_S)
        AsyncWorker.handle(self, listener, client, addr)

"""One POST with a deadline for the whole exchange.

HTTP clients bound each read by a timeout, so a receiver that trickles a byte
every few seconds keeps a request alive for ever. Here the socket is
non-blocking and every wait (connect, TLS handshake, send, read) is given only
what is left of one deadline, so an attempt ends by then whatever the other
side does. The answer's head is read up to ``MAX_HEAD`` bytes and its body up
to a cap (then the connection is closed), redirects are never followed (a 3xx
is an answer like any other), and the connection is never reused
(``Connection: close``). It works the same in threads and under gevent.
"""

from __future__ import annotations

import errno
import os
import re
import select
import socket
import ssl
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from .addresses import Target

MAX_HEAD = 16 * 1024  # status line and headers
CHUNK = 16 * 1024
DIGITS = re.compile(r"[0-9]+")  # ASCII only: str.isdigit() also takes "²" and "٣"


def number(text: str | None, most: int) -> int | None:
    """A header's value as a whole number of ASCII digits, at most ``most`` (None
    when it is not one: a receiver may send anything)."""
    if text is None or len(text) > len(str(most)) or not DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if value <= most else None


@dataclass(frozen=True)
class Answer:
    """What came back: the status and headers (names in lower case), the body as
    far as it was read, or why there was no answer (``error``)."""

    status: int | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""
    error: str | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class _Late(Exception):
    """The deadline passed."""


class _Broken(Exception):
    """The other side sent something that is not HTTP."""


def post(
    target: Target,
    headers: Mapping[str, str],
    body: bytes,
    deadline_s: float,
    max_body: int,
    tls: ssl.SSLContext | None = None,
) -> Answer:
    """POST ``body`` to ``target``; the answer, or an ``Answer`` with ``error``
    (``timeout``, ``refused``, ``tls``, ``broken``, ...). Never raises: whatever
    the other side sends ends as an answer or an error."""
    try:
        return _post(target, headers, body, deadline_s, max_body, tls)
    except Exception as failure:  # a fault of ours on a hostile answer is still an outcome
        return Answer(error=f"unreadable answer: {type(failure).__name__}")


def _post(
    target: Target,
    headers: Mapping[str, str],
    body: bytes,
    deadline_s: float,
    max_body: int,
    tls: ssl.SSLContext | None,
) -> Answer:
    started = time.monotonic()
    deadline = started + deadline_s
    sock: socket.socket | None = None
    status: int | None = None
    got: dict[str, str] = {}
    kept = b""
    try:
        sock = _connect(target, deadline, tls)
        _send_all(sock, _request(target, headers, body), deadline)
        status, got, kept = _read_head(sock, deadline)
        kept = _read_body(sock, kept, got, deadline, max_body)
        return Answer(status, got, kept, None, time.monotonic() - started)
    except _Late:
        error = "timeout"
    except ssl.SSLError as failure:
        error = f"tls: {failure.reason or 'handshake failed'}"
    except _Broken as failure:
        error = f"broken answer: {failure}"
    except ConnectionRefusedError:
        error = "connection refused"
    except OSError as failure:
        error = type(failure).__name__ if not failure.strerror else failure.strerror.lower()
    finally:
        if sock is not None:
            sock.close()
    # A deadline met while the body was still coming: the status was answered all the same.
    return Answer(status, got, kept, None if status else error, time.monotonic() - started)


def _request(target: Target, headers: Mapping[str, str], body: bytes) -> bytes:
    default_port = 443 if target.scheme == "https" else 80
    host = f"[{target.host}]" if ":" in target.host else target.host
    if target.port != default_port:
        host += f":{target.port}"
    lines = [f"POST {target.path} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(body)}",
             "Connection: close"]  # fmt: skip
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise _Late
    return left


def _wait(sock: socket.socket, writing: bool, deadline: float) -> None:
    """Wait until ``sock`` can be read (or written), at most until the deadline."""
    waiting_on: list[socket.socket] = [sock]
    nothing: list[socket.socket] = []
    if writing:
        ready = select.select(nothing, waiting_on, nothing, _left(deadline))
    else:
        ready = select.select(waiting_on, nothing, nothing, _left(deadline))
    if not any(ready):
        raise _Late


def _connect(target: Target, deadline: float, tls: ssl.SSLContext | None) -> socket.socket:
    family = socket.AF_INET6 if ":" in target.address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setblocking(False)
    code = sock.connect_ex((target.address, target.port))
    if code not in (0, errno.EINPROGRESS, errno.EAGAIN, errno.EALREADY):
        sock.close()
        raise OSError(code, os.strerror(code))
    try:
        _wait(sock, True, deadline)
        code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if code:
            raise OSError(code, os.strerror(code))
        if target.scheme != "https":
            return sock
        context = tls or ssl.create_default_context()
        secure = context.wrap_socket(sock, server_hostname=target.host,
                                     do_handshake_on_connect=False)  # fmt: skip
    except BaseException:
        sock.close()
        raise
    while True:
        try:
            secure.do_handshake()
            return secure
        except ssl.SSLWantReadError:
            _wait(secure, False, deadline)
        except ssl.SSLWantWriteError:
            _wait(secure, True, deadline)
        except BaseException:
            secure.close()
            raise


def _send_all(sock: socket.socket, data: bytes, deadline: float) -> None:
    view = memoryview(data)
    while view:
        try:
            sent = sock.send(view)
            view = view[sent:]
        except (BlockingIOError, ssl.SSLWantWriteError):
            _wait(sock, True, deadline)
        except ssl.SSLWantReadError:
            _wait(sock, False, deadline)


def _recv(sock: socket.socket, deadline: float) -> bytes:
    """Some bytes (empty at the end of the stream), waiting at most until the deadline."""
    while True:
        pending = isinstance(sock, ssl.SSLSocket) and sock.pending()
        try:
            return sock.recv(CHUNK if not pending else max(pending, CHUNK))
        except (BlockingIOError, ssl.SSLWantReadError):
            _wait(sock, False, deadline)
        except ssl.SSLWantWriteError:
            _wait(sock, True, deadline)


def _read_head(sock: socket.socket, deadline: float) -> tuple[int, dict[str, str], bytes]:
    """The status, the headers and whatever of the body came with them."""
    data = b""
    while b"\r\n\r\n" not in data:
        if len(data) > MAX_HEAD:
            raise _Broken("the head is too long")
        chunk = _recv(sock, deadline)
        if not chunk:
            raise _Broken("the connection closed before the head ended")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    first, *lines = head.decode("latin-1").split("\r\n")
    parts = first.split(" ", 2)
    status = number(parts[1], 599) if len(parts) >= 2 and parts[0].startswith("HTTP/") else None
    if status is None or status < 100 or len(parts[1]) != 3:
        raise _Broken("no status line")
    headers = {}
    for line in lines:
        name, colon, value = line.partition(":")
        if colon:
            headers[name.strip().lower()] = value.strip()
    return status, headers, rest


def _read_body(
    sock: socket.socket, kept: bytes, headers: Mapping[str, str], deadline: float, cap: int
) -> bytes:
    """The body up to ``cap`` bytes (the rest is never read), or what came of it
    before the deadline."""
    length = number(headers.get("content-length"), 10**15)
    wanted = cap if length is None else min(cap, length)
    try:
        while len(kept) < wanted:
            chunk = _recv(sock, deadline)
            if not chunk:
                break
            kept += chunk
    except (_Late, OSError):
        pass  # the head came: the status stands, the body is what arrived
    return kept[:cap]

"""``GET /api/v1/games/{id}/socket``: a WebSocket on one game (RFC 6455, text frames
of JSON, one message a frame; the messages are ``api.socket_session``'s).

The upgrade is answered on gunicorn's own socket (simple-websocket speaks the
protocol; each connection reads on a greenlet of its own under gevent). The
upgrade is limited per address (``STACKS_LIMIT_SOCKET``), the socket then per
caller (``api.socket_limits``); a plain GET of it (no ``Upgrade``) is a 426
problem, which is also where the OpenAPI document describes it.
"""

from __future__ import annotations

import contextlib
import socket
import time
from typing import Any

from flask import Flask, Response, current_app, request
from flask.views import MethodView
from flask_limiter.util import get_remote_address
from simple_websocket import ConnectionClosed, Server
from wsproto.events import Ping

from ..model.refusals import Refusal
from .blueprint import Blueprint
from .games import problems, service
from .socket_limits import CallerLimits
from .socket_session import Session
from .stream import counted

PATH = "/api/v1/games/<game_id>/socket"
ENDPOINT = "games.socket"  # the upgrade's view (api.limits counts it as a stream)
MAX_MESSAGE = 16 * 1024  # bytes; an action is well under 1 KiB
CLOSE_WAIT_S = 2.0  # how long a closing socket waits for the client's close frame
BACKLOG = 32  # messages read ahead of the session at most
BACKLOG_WAIT_S = 0.01

blp = Blueprint("socket", __name__, url_prefix="/api/v1/games",
                description="Play over one WebSocket")  # fmt: skip


@blp.route("/<game_id>/socket")
class SocketDoc(MethodView):
    @problems(404, 426, 429)
    @blp.response(101, description="Switching Protocols: the WebSocket is open")
    @blp.doc(operationId="openSocket", security=[])
    def get(self, game_id: str) -> Any:
        """A WebSocket on the game: moves, chat and every change, one connection

        Open it with an `Upgrade: websocket` request (RFC 6455). Send
        `{"type": "hello", "token": "..."}` first (a seat's token, a player key,
        an app's or a personal token; null or none for a spectator; never in the
        URL): the answer is `{"type": "state", "view"}`, the view this GET of
        the game gives you. Then `{"type": "action", "id", "version", "action"}`
        is answered `{"type": "result", "id", "version", "events"}` or `{"type":
        "refused", "id", "problem"}` (the problem HTTP would answer); `view`
        (answered with the `view`), `chat` (`text`), `resign` and `claim`
        (`outcome`) likewise; `ping` gets `pong`.
        Every change of the game comes as `{"type": "events", "version",
        "events"}` in order, and the table's presence as `{"type": "presence",
        ...}`. An `id` answered before is answered again, never applied twice.
        Close codes: 4400 a bad first message, 4401 a refused or revoked
        credential, 4429 frames sent on past the address's limit (each refused
        with `rate_limited` first) or too many sockets opened with one
        credential. docs/api.md has the whole protocol.
        A plain GET, without the upgrade, is refused with 426.
        """
        raise Refusal("upgrade_required", "this route is a WebSocket: open it with "
                      "Upgrade: websocket")  # fmt: skip


class PacedServer(Server):  # type: ignore[misc]  # simple-websocket has no types
    """simple-websocket's server, read at the session's pace. Its reader loops on
    ``recv`` while data is there, and under gevent a ``recv`` that has data never
    yields: a client sending frames without pause would hold the whole worker, and
    the unread messages pile up in memory. So after each read it yields to the
    worker's other greenlets, and it reads no more while ``BACKLOG`` messages wait
    for the session (TCP then holds the sender back)."""

    def _handle_events(self) -> bool:
        going = bool(super()._handle_events())
        time.sleep(0)  # gevent's: a yield
        while going and self.connected and len(self.input_buffer) >= BACKLOG:
            time.sleep(BACKLOG_WAIT_S)
        return going


class Adapter:
    """simple-websocket's server as the session uses it."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.closing = False  # our close frame is sent: nothing more goes out

    @property
    def open(self) -> bool:
        return not self.closing and bool(self.server.connected)

    def send(self, text: str) -> None:
        try:
            self.server.send(text)
        except ConnectionClosed:
            raise OSError("closed") from None

    def receive(self, timeout: float | None) -> str | bytes | None:
        try:
            received: str | bytes | None = self.server.receive(timeout=timeout)
        except ConnectionClosed:
            return None
        return received

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            with contextlib.suppress(ConnectionClosed):
                self.server.close(code, reason[:120])

    def linger(self) -> None:
        """Reads on until the client answers the close frame (or a short while):
        a TCP socket closed with the client's messages unread is reset, and the
        reset can take the close frame, and its code, with it."""
        self.server.thread.join(CLOSE_WAIT_S)
        if self.server.thread.is_alive():
            with contextlib.suppress(OSError):
                self.server.sock.shutdown(socket.SHUT_RDWR)  # wakes the reader

    def ping(self) -> None:
        """A protocol ping (its pong is noted by simple-websocket's reader)."""
        self.server.pong_received = False
        try:
            self.server.sock.send(self.server.ws.send(Ping()))
        except OSError:
            self.server.connected = False

    def heard_since_ping(self) -> bool:
        return bool(self.server.pong_received)


def upgrade(game_id: str) -> Response:
    """The WebSocket's view: the game must exist; then the session runs to its end."""
    games = service()
    games.play.require(game_id)  # a 404 before the upgrade
    sock = request.environ.get("gunicorn.socket")
    if sock is not None:
        sock.settimeout(None)  # the session's own pings and silence rule bound it
    server = PacedServer(request.environ, max_message_size=MAX_MESSAGE)
    config = current_app.config
    adapter = Adapter(server)
    limits = None
    if config["RATE_LIMITS"]:
        limits = CallerLimits(games.store.budgets, get_remote_address(), config["LIMIT_ACT"],
                              config["LIMIT_STREAM"])  # fmt: skip
    try:
        with counted(games.open_streams):
            Session(adapter, games, game_id, limits, config["SSE_KEEPALIVE_S"]).run()
    finally:
        adapter.close(1000, "")
        adapter.linger()
    return _after(server.mode)


def _after(mode: str) -> Response:
    """What the WSGI server is handed once the socket is done with: gunicorn must not
    write a response on a socket that has spoken WebSocket since."""

    class Done(Response):
        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            if mode == "gunicorn":
                raise StopIteration  # gunicorn closes the connection, writing nothing
            return super().__call__(*args, **kwargs)

    return Done()


def install(app: Flask) -> None:
    """The upgrade's route, beside the documented GET (matched only by WebSocket
    requests)."""
    app.add_url_rule(PATH, endpoint=ENDPOINT, view_func=upgrade, websocket=True)

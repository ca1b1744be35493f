"""One WebSocket on one game (API contract 5.13): the messages each way.

The client's first message says who it is (``hello`` with a token, or none for
a spectator) and is answered with the view ``GET /games/{id}`` would give it.
After that the session reads the client's messages and answers each one
(``result``, ``refused``, ``pong``), while a follower sends every change of the
game as it happens (``events``, each as that viewer's event stream carries it;
``state`` again after a gap) and the presence of the table (``presence``).
Every message does what its HTTP route does through the same service, with the
route's own scope check, limits and problems: nothing here decides a rule.

Sending is serialised (one lock); the session ends when the client closes, goes
silent for ``SILENT_S`` (a ping every ``PING_S``), sends past its limits (4429),
or its credential is revoked (4401).
"""

from __future__ import annotations

import functools
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from marshmallow import Schema, ValidationError

from ..model import codes
from ..model.events import Event
from ..model.refusals import Refusal
from ..service import GameService
from ..service.ports import Unavailable
from .schemas import ActionRequestSchema
from .scopes import GAME, require
from .table_schemas import ClaimSchema, SaySchema

log = logging.getLogger(__name__)

PING_S = 20.0
SILENT_S = 60.0
HELLO_S = 10.0  # how long a new socket may wait before it says hello
LONGEST_ID = 64
DEEPEST = 6  # levels of nesting in a message; an action's has 3
GRACE = 20  # frames a socket may send past its caller's limit, each refused, before it closes
RETRY_OPEN_S = 10
NORMAL, REVOKED, FLOODED, BAD = 1000, 4401, 4429, 4400  # close codes


class Socket(Protocol):
    """What the session needs of a WebSocket (``api.socket`` gives one)."""

    def send(self, text: str) -> None: ...

    def receive(self, timeout: float | None) -> str | bytes | None: ...

    def close(self, code: int, reason: str) -> None: ...

    def ping(self) -> None: ...

    def heard_since_ping(self) -> bool: ...

    @property
    def open(self) -> bool: ...


def decoded(raw: str | bytes) -> dict[str, Any] | None:
    """A frame's message: one JSON object nested at most ``DEEPEST`` deep, else None
    (a frame of nothing but brackets would otherwise exhaust the decoder's stack)."""
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict):
        return None
    values: list[Any] = [message]
    for _ in range(DEEPEST):  # one level of containers at a time
        inner: list[Any] = []
        for value in values:
            inner += value.values() if isinstance(value, dict) else value
        values = [v for v in inner if isinstance(v, dict | list)]
        if not values:
            return message
    return None


def _loaded(schema: Schema, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` as the route's own schema loads it, or the route's 422 problem."""
    try:
        loaded: dict[str, Any] = schema.load(body)
    except ValidationError as err:
        errors = err.messages if isinstance(err.messages, dict) else None
        raise Refusal("validation_error", "the message's fields are not accepted",
                      errors) from None  # fmt: skip
    return loaded


def problem_of(refusal: Refusal) -> dict[str, Any]:
    """The problem document HTTP would answer ``refusal`` with (and the seconds its
    ``Retry-After`` would say, as ``retry_after``)."""
    problem = codes.body(refusal.code, refusal.detail, refusal.errors)
    if refusal.retry_after is not None:
        problem["retry_after"] = refusal.retry_after
    return problem


class Limits(Protocol):
    """What a socket may spend, counted per caller (``api.socket_limits``)."""

    def frame(self) -> bool:
        """Spend one frame received; whether the caller had one left."""

    def opened(self, token: str | None) -> bool:
        """Spend one socket opened with ``token``; whether it had one left."""


class Session:
    def __init__(self, socket: Socket, games: GameService, game_id: str,
                 limits: Limits | None, keepalive_s: float) -> None:  # fmt: skip
        self.socket, self.games, self.game_id = socket, games, game_id
        self.keepalive_s = keepalive_s
        self.token: str | None = None
        self.seat: int | None = None
        self.version = 0
        self._send_lock = threading.Lock()
        self._limits = limits  # None: limits are off
        self._refused_over = 0  # frames refused as past the limits
        self._heard = time.monotonic()
        self._ended = threading.Event()
        self._ended_hook: Callable[[], None] | None = None  # wakes the follower

    # -- the session -------------------------------------------------------

    def run(self) -> None:
        """Until the socket closes or must be closed."""
        if not self._hello():
            return
        watch = self.games.revocations.watch(
            self.token, lambda: self.close(REVOKED, "the credential was revoked")
        )
        follower = threading.Thread(target=self._follow, daemon=True, name="socket-follower")
        follower.start()
        try:
            self._read()
        finally:
            self._ended.set()
            if self._ended_hook is not None:
                self._ended_hook()
            if watch is not None:
                watch.close()

    def _hello(self) -> bool:
        """The first message: who the client is; answered with its view."""
        message = self._next(HELLO_S)
        if message is None and self._refused_over:  # refused as past the limits
            self.close(FLOODED, "too many messages: reconnect later")
            return False
        if message is None or message.get("type") != "hello":
            self.close(BAD, "the first message must be hello")
            return False
        token = message.get("token")
        if token is not None and not isinstance(token, str):
            self.close(BAD, "hello's token must be a string or null")
            return False
        try:
            require(token, "GET", GAME)
            view = self.games.play.view(self.game_id, token)
        except Refusal as refusal:
            self._send({"type": "refused", "id": None, "problem": problem_of(refusal)})
            self.close(REVOKED if refusal.code == "unauthorized" else BAD, refusal.code)
            return False
        except Unavailable:  # a store blip: not counted as an opening, so retry freely
            self.close(NORMAL, "the store cannot be reached: reconnect")
            return False
        # Counted per credential once it is known: a person's reconnections after a
        # blip cost their own budget, never that of others behind the same address.
        if self._limits is not None and not self._limits.opened(token):
            self._refuse(None, Refusal("rate_limited", "too many sockets opened",
                                       retry_after=RETRY_OPEN_S))  # fmt: skip
            self.close(FLOODED, "too many sockets opened")
            return False
        self.token, self.version = token, view["version"]
        self.seat = view["you"]["seat"] if "you" in view else None
        self._send({"type": "state", "view": view})
        return True

    def _read(self) -> None:
        """Each message the client sends, answered in turn; pings and silence."""
        next_ping = time.monotonic() + PING_S
        while self.socket.open and not self._ended.is_set():
            now = time.monotonic()
            if now >= next_ping:
                if self.socket.heard_since_ping():
                    self._heard = now
                if now - self._heard >= SILENT_S:
                    self.close(NORMAL, "silent too long")
                    return
                self.socket.ping()
                next_ping = now + PING_S
            message = self._next(max(0.05, next_ping - time.monotonic()))
            if message is not None:
                self._answer(message)

    def _next(self, timeout: float) -> dict[str, Any] | None:
        """The next message, decoded (None: none came, or one that is no JSON
        object, which is answered as refused). Every frame is counted before it is
        decoded, whatever it holds; past the caller's limit the socket closes."""
        raw = self.socket.receive(timeout)
        if raw is None:
            return None
        self._heard = time.monotonic()
        over = self._limits is not None and not self._limits.frame()
        if over:
            self._refused_over += 1
            if self._refused_over > GRACE:  # refused, and sending on regardless: a flood
                self.close(FLOODED, "too many messages")
                return None
        message = decoded(raw)
        if message is None:
            self._refuse(None, Refusal("bad_request", "a message is one JSON object, "
                                       f"nested at most {DEEPEST} deep"))  # fmt: skip
        elif over:  # answered as HTTP answers a 429: nothing done, when to ask again
            said = message.get("id")
            self._refuse(said, Refusal("rate_limited", "too many messages from your address: "
                                       "wait and send it again", retry_after=1))  # fmt: skip
            return None
        return message

    # -- the client's messages ----------------------------------------------

    def _answer(self, message: dict[str, Any]) -> None:
        kind, said = message.get("type"), message.get("id")
        if kind == "ping":
            self._send({"type": "pong"})
            return
        handler = HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            self._refuse(said, Refusal("bad_request", f"no message type {kind!r}"))
            return
        if not isinstance(said, str) or not 0 < len(said) <= LONGEST_ID:
            self._refuse(None, Refusal("validation_error", f"id must be 1 to {LONGEST_ID} "
                                       "characters", {"id": ["1 to 64 characters"]}))  # fmt: skip
            return
        try:
            answer = handler(self, message)
        except Refusal as refusal:
            self._refuse(said, refusal)
            return
        except Unavailable:
            self._refuse(said, Refusal("store_unavailable", "the store cannot be reached"))
            return
        except Exception:  # as a 500 would be: logged, answered, the session lives on
            log.exception("socket: a %s message failed", kind)
            self._refuse(said, Refusal("internal_error", "the server failed to do that"))
            return
        self._send({"type": "result", "id": said, **answer})

    def _action(self, message: dict[str, Any]) -> dict[str, Any]:
        version, action = message.get("version"), message.get("action")
        if not isinstance(version, int) or isinstance(version, bool):
            raise Refusal("validation_error", "version must be the game's version you saw",
                          {"version": ["an integer"]})  # fmt: skip
        require(self.token, "POST", f"{GAME}/actions")
        body = _loaded(ActionRequestSchema(), action if isinstance(action, dict) else {})
        body.pop("expected_version", None)
        done = self.games.play.act(self.game_id, self.token, body, expected_version=version,
                                   idempotency_key=f"socket:{message['id']}",
                                   events_only=True)  # fmt: skip
        return {"version": done["version"], "events": done["events"]}

    def _view(self, message: dict[str, Any]) -> dict[str, Any]:
        """The view now, as ``GET /games/{id}`` gives this socket's credential."""
        require(self.token, "GET", GAME)
        view = self.games.play.view(self.game_id, self.token)
        return {"version": view["version"], "view": view}

    def _chat(self, message: dict[str, Any]) -> dict[str, Any]:
        require(self.token, "POST", f"{GAME}/chat")
        body = _loaded(SaySchema(), {"text": message.get("text")})
        said = self.games.chat.say(self.game_id, self.token, body["text"],
                                   once_key=f"socket:{message['id']}")  # fmt: skip
        return {"version": said["version"], "events": [said]}

    def _resign(self, message: dict[str, Any]) -> dict[str, Any]:
        require(self.token, "POST", f"{GAME}/resign")
        view = self.games.concede.resign(self.game_id, self.token,
                                         once_key=f"socket:{message['id']}")  # fmt: skip
        return {"version": view["version"], "events": []}

    def _claim(self, message: dict[str, Any]) -> dict[str, Any]:
        require(self.token, "POST", f"{GAME}/claim")
        body = _loaded(ClaimSchema(), {k: message[k] for k in ("outcome",) if k in message})
        view = self.games.concede.claim(self.game_id, self.token, body.get("outcome"),
                                        once_key=f"socket:{message['id']}")  # fmt: skip
        return {"version": view["version"], "events": []}

    # -- what the server sends ----------------------------------------------

    def _follow(self) -> None:
        """Every change of the game after the view sent, as this viewer's event stream
        carries it, and the table's presence; the session's own part of it ends
        with the session."""
        try:
            feed, _ = self.games.play.follow(self.game_id, self.version, self.seat is None)
        except (Unavailable, KeyError):
            self.close(NORMAL, "the game cannot be followed now: reconnect")
            return
        tick = self.games.people.ticker(self.game_id, self.seat)
        tick()  # what the view showed already
        # A spectator's socket is counted among the watchers, as its stream would be.
        watcher = secrets.token_hex(8)
        watching = (functools.partial(self.games.play.watching, self.game_id, watcher)
                    if self.seat is None else None)  # fmt: skip
        self._ended_hook = feed.interrupt
        next_tick = time.monotonic()
        try:
            while not self._ended.is_set():
                if time.monotonic() >= next_tick:
                    next_tick = time.monotonic() + self.keepalive_s
                    if watching is not None:
                        watching(time.time() + 3 * self.keepalive_s)
                    for change in tick():
                        self._send(change)
                batch = feed.next_batch(timeout=max(0.0, next_tick - time.monotonic()))
                if batch:
                    self._tell(batch)
        except Unavailable:
            self.close(NORMAL, "the store went away: reconnect")
        finally:
            feed.close()
            if watching is not None:
                watching(None)
            tick()  # the socket's end is its seat's last sighting

    def _tell(self, batch: list[Event]) -> None:
        """A batch of events, one message per version, none skipped."""
        by_version: dict[int, list[Event]] = {}
        for event in batch:
            by_version.setdefault(event["version"], []).append(event)
        for version in sorted(by_version):
            if version <= self.version:
                continue
            self.version = version
            self._send({"type": "events", "version": version, "events": by_version[version]})

    def _refuse(self, said: Any, refusal: Refusal) -> None:
        self._send({"type": "refused", "id": said if isinstance(said, str) else None,
                    "problem": problem_of(refusal)})  # fmt: skip

    def _send(self, message: dict[str, Any]) -> None:
        with self._send_lock:
            if self.socket.open:
                try:
                    self.socket.send(json.dumps(message))
                except OSError:
                    self._ended.set()

    def close(self, code: int, reason: str) -> None:
        with self._send_lock:
            if self.socket.open:
                self.socket.close(code, reason)
        self._ended.set()
        if self._ended_hook is not None:
            self._ended_hook()


HANDLERS: dict[str, Callable[[Session, dict[str, Any]], dict[str, Any]]] = {
    "action": Session._action,
    "view": Session._view,
    "chat": Session._chat,
    "resign": Session._resign,
    "claim": Session._claim,
}

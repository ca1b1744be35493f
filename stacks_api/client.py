"""A Python client for the HTTP API.

>>> api = Client("http://127.0.0.1:8000")
>>> game = api.create("sequence", players=2, seats=[{}, {"bot": "greedy"}])
>>> me = api.join(game["id"], "Ada")
>>> view = api.view(game["id"], me.token, wait=10)
>>> result = api.act(game["id"], me.token, view["you"]["legal_actions"][0], wait=10)

Actions carry an ``Idempotency-Key`` of their own, so the client retries them
safely after a lost connection or a 503: the server acts once and answers the
retry with the first outcome. They also carry ``If-Match`` with the version of
the game the client last saw (a view or an action's answer), so an action meant
for one moment is refused (412) rather than played at another. Every join and
rematch sends entropy of the client's own for the deal, and the seat keeps it
beside the commitment seen before the join, to verify the game later. A 429
(nothing was done) is always retried. Every retry waits at least the server's
``Retry-After``, plus a random share of an exponential back-off, so many
clients refused together do not return together.
``follow`` iterates over a game's event stream and reconnects with
``Last-Event-ID``, so no event is lost or repeated. ``socket`` opens a WebSocket
on a game instead (``GameSocket``): moves at the cost of a message, and every
change of the game as it happens; a message refused as past the limits is sent
again, with the same id, once the refusal's ``retry_after`` has passed.
"""

from __future__ import annotations

import json
import random
import secrets
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import requests

JSON = dict[str, Any]
RETRYABLE = (requests.ConnectionError, requests.Timeout)
UNSTORED = frozenset({"presence"})  # events sent live only, without an id
BACKOFF_S = 0.25  # the first retry's back-off; it doubles with each retry
MOST_WAITS = 60  # rate-limited socket messages waited out and sent again, at most
MAX_BACKOFF_S = 8.0


def retry_delay(attempt: int, retry_after: str | None, rng: random.Random) -> float:
    """How long to wait before retry ``attempt`` (0 first): at least the server's
    Retry-After, plus "full jitter" of an exponential back-off."""
    try:
        floor = max(0.0, float(retry_after)) if retry_after is not None else 0.0
    except ValueError:  # an HTTP date, which this server never sends
        floor = 1.0
    return floor + rng.uniform(0, min(MAX_BACKOFF_S, BACKOFF_S * 2**attempt))


class ApiError(Exception):
    """A refusal: the problem details the server answered with."""

    def __init__(self, problem: JSON) -> None:
        super().__init__(f"{problem.get('status')} {problem.get('code')}: {problem.get('detail')}")
        self.problem = problem
        self.status: int = problem.get("status", 0)
        self.code: str = problem.get("code", "")


@dataclass(frozen=True)
class Seat:
    """A seat taken with ``join``: keep the token, the server shows it only once;
    ``commitment`` (seen before joining) and ``entropy`` (sent) check the deal
    once the game is over (``stacks-api verify``)."""

    seat: int
    team: int | None
    token: str
    commitment: str | None = None
    entropy: str | None = None


class Client:
    """The API at ``base_url`` (scheme, host and port)."""

    def __init__(self, base_url: str, timeout: float = 15.0, retries: int = 6) -> None:
        self.base = base_url.rstrip("/") + "/api/v1"
        self.timeout, self.retries = timeout, retries
        self.session = requests.Session()
        self._rng = random.Random()
        self._seen: dict[str, int] = {}  # game id -> the newest version this client saw

    # -- games ------------------------------------------------------------------

    def health(self) -> JSON:
        return self._call("GET", "/health")

    def create(self, variant: str, players: int, **body: Any) -> JSON:
        """A new game (``seats``, ``options``, ``seed``, ``position`` as the API takes
        them); its view, with ``host_token`` added."""
        created = self._call(
            "POST", "/games", json={"variant": variant, "players": players, **body}
        )
        return {**created["game"], "host_token": created["host_token"]}

    def games(self, status: str = "waiting", variant: str | None = None, page: int = 1) -> JSON:
        params = {"status": status, "page": page, **({"variant": variant} if variant else {})}
        return self._call("GET", "/games", params=params)

    def join(self, game_id: str, name: str, seat: int | None = None) -> Seat:
        """Take a seat, sending entropy of our own for the deal."""
        before = self._call("GET", f"/games/{game_id}")
        commitment = (before.get("fairness") or {}).get("commitment")
        entropy = secrets.token_hex(16)
        body: JSON = {"name": name, "entropy": entropy, **({} if seat is None else {"seat": seat})}
        joined = self._call("POST", f"/games/{game_id}/players", json=body)
        self._seen.pop(game_id, None)  # the join made a version this client has not seen
        return Seat(joined["seat"], joined["team"], joined["token"], commitment, entropy)

    def rematch(self, game_id: str, token: str) -> tuple[JSON, Seat]:
        """The finished game's next game (its view) and our seat in it."""
        entropy = secrets.token_hex(16)
        answer = self._call("POST", f"/games/{game_id}/rematch", token=token,
                            json={"entropy": entropy})  # fmt: skip
        game = answer["game"]
        commitment = (game.get("fairness") or {}).get("commitment")
        return game, Seat(answer["seat"], None, answer["token"], commitment, entropy)

    def view(self, game_id: str, token: str | None = None, wait: int | None = None) -> JSON:
        """The game as ``token``'s seat sees it; with ``wait``, once a human must act."""
        seen: JSON = self._call("GET", f"/games/{game_id}", token=token, wait=wait)
        self._seen[game_id] = seen["version"]
        return seen

    def act(
        self,
        game_id: str,
        token: str,
        action: JSON,
        expected_version: int | None = None,
        wait: int | None = None,
    ) -> JSON:
        """Apply one action; ``{"game", "events"}``. Retried safely on connection errors.
        Only if the game is at ``expected_version``, by default the version this
        client last saw of it (a 412 ``stale_version`` otherwise: look again)."""
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        version = self._seen.get(game_id) if expected_version is None else expected_version
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        done: JSON = self._call(
            "POST", f"/games/{game_id}/actions", json=action, token=token, wait=wait,
            headers=headers, retry=True,
        )  # fmt: skip
        self._seen[game_id] = done["game"]["version"]
        return done

    def socket(self, game_id: str, token: str | None = None) -> GameSocket:
        """A WebSocket on the game, for ``token``'s seat (or a spectator)."""
        return GameSocket(self.base.removesuffix("/api/v1"), game_id, token, self.timeout)

    def cancel(self, game_id: str, token: str) -> JSON:
        """Cancel a game: the host token before the deal; after it, each person's
        seat token counts as that person's agreement."""
        return self._call("DELETE", f"/games/{game_id}", token=token)

    def events(self, game_id: str, after: int = 0) -> list[JSON]:
        events: list[JSON] = self._call("GET", f"/games/{game_id}/events", params={"after": after})[
            "events"
        ]
        return events

    def follow(self, game_id: str, after: int = 0) -> Iterator[JSON]:
        """Every event after version ``after`` as it happens, until the game ends.

        Reconnects after a dropped connection (or the server's stream time limit)
        from the last whole version received.
        """
        last = after
        while True:
            try:
                for version, event in self._stream(game_id, last):
                    if version is not None:
                        last = version
                    yield event
                    if _ends(event):
                        return
            except RETRYABLE:
                time.sleep(0.5)
                continue
            if self.view(game_id)["status"] in ("finished", "cancelled", "aborted"):
                return  # the stream ended with the game, and we have every event

    # -- plumbing ----------------------------------------------------------------

    def _stream(self, game_id: str, after: int) -> Iterator[tuple[int | None, JSON]]:
        """(version, event) per event; the version only on a version's last event.

        A version's events are held back until its last one (the one with an
        ``id``) arrives, so a dropped connection never splits a version: the
        resume sends it again, whole.
        """
        headers = {"Accept": "text/event-stream", "Last-Event-ID": str(after)}
        url = f"{self.base}/games/{game_id}/events"
        with self.session.get(url, headers=headers, stream=True, timeout=(self.timeout, 60)) as r:
            if r.status_code != 200:
                raise ApiError(_problem(r))
            data: list[str] = []
            version: int | None = None
            held: list[JSON] = []
            for raw in r.iter_lines():
                line = raw.decode()
                if line.startswith("data: "):
                    data.append(line[6:])
                elif line.startswith("id: "):
                    version = int(line[4:])
                elif line == "" and data:
                    event = json.loads("\n".join(data))
                    if version is None and event.get("type") in UNSTORED:
                        yield None, event  # never stored, never part of a version
                        data = []
                        continue
                    held.append(event)
                    if version is not None:
                        for event in held[:-1]:
                            yield None, event
                        yield version, held[-1]
                        held = []
                    data, version = [], None

    def _call(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        wait: int | None = None,
        headers: dict[str, str] | None = None,
        retry: bool = False,
        **kwargs: Any,
    ) -> JSON:
        headers = dict(headers or {})
        retry = retry or method == "GET"  # a read is always safe to repeat
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if wait is not None:
            headers["Prefer"] = f"wait={wait}"
        timeout = self.timeout + (wait or 0)
        for attempt in range(self.retries + 1):
            try:
                response = self.session.request(
                    method, self.base + path, headers=headers, timeout=timeout, **kwargs
                )
            except RETRYABLE:
                if not retry or attempt == self.retries:
                    raise
                time.sleep(retry_delay(attempt, None, self._rng))
                continue
            # 503: retry what is safe to retry; 429: nothing was done, so always.
            again = response.status_code == 429 or (response.status_code == 503 and retry)
            if again and attempt < self.retries:
                time.sleep(retry_delay(attempt, response.headers.get("Retry-After"), self._rng))
                continue
            if response.status_code >= 400:
                raise ApiError(_problem(response))
            body: JSON = response.json()
            return body
        raise AssertionError("unreachable")


class GameSocket:
    """One WebSocket on a game (docs/api.md, "Play over one socket"): what a seat (or,
    with no token, a spectator) sees, moves at the cost of a message, and every
    change as it happens.

    >>> table = api.socket(game["id"], me.token)
    >>> table.act(table.view["you"]["legal_actions"][0])  # {"version", "events"}
    >>> table.next_message(timeout=5)  # {"type": "events", ...}, presence, ...

    ``view`` is the view the socket opened with; ``version`` the newest version
    heard. Each request has an id of its own: after a lost connection the client
    opens a new socket and sends it again, and the server answers it once more
    without applying it twice.
    """

    def __init__(self, base_url: str, game_id: str, token: str | None = None,
                 timeout: float = 15.0) -> None:  # fmt: skip
        scheme, rest = base_url.rstrip("/").split("://", 1)
        self.url = f"{'wss' if scheme == 'https' else 'ws'}://{rest}/api/v1/games/{game_id}/socket"
        self.token, self.timeout = token, timeout
        self.heard: list[JSON] = []  # what came meanwhile, oldest first
        self._open()

    def _open(self) -> None:
        from simple_websocket import Client as WebSocket  # only socket users need it

        self._ws = WebSocket.connect(self.url)
        self._send({"type": "hello", "token": self.token})
        first = self._message(self.timeout)
        if first is None:
            raise TimeoutError(f"the server said nothing for {self.timeout} s")
        if first["type"] != "state":
            raise ApiError(first.get("problem", {"code": "unknown", "detail": str(first)}))
        self.view: JSON = first["view"]
        self.version: int = self.view["version"]

    def act(self, action: JSON, version: int | None = None) -> JSON:
        """Play ``action`` at ``version`` (the newest heard, by default)."""
        return self._ask({"type": "action", "action": action,
                          "version": self.version if version is None else version})  # fmt: skip

    def look(self) -> JSON:
        """The view now (a message, not a request): ``view`` is set to it."""
        self.view = self._ask({"type": "view"})["view"]
        return self.view

    def say(self, text: str) -> JSON:
        return self._ask({"type": "chat", "text": text})

    def resign(self) -> JSON:
        return self._ask({"type": "resign"})

    def claim(self, outcome: str = "win") -> JSON:
        return self._ask({"type": "claim", "outcome": outcome})

    def next_message(self, timeout: float | None = None) -> JSON | None:
        """The next message heard (events, presence, state), or None after ``timeout``."""
        if self.heard:
            return self.heard.pop(0)
        return self._message(timeout)

    def close(self) -> None:
        self._ws.close()

    def _ask(self, message: JSON) -> JSON:
        """Send ``message`` with an id and wait for its answer (once more on a new
        socket if the connection is lost meanwhile)."""
        message = {**message, "id": uuid.uuid4().hex}
        from simple_websocket import ConnectionClosed

        reopened = limited = 0
        while True:
            try:
                self._send(message)
                while True:
                    answer = self._receive()
                    if answer.get("id") == message["id"]:
                        break
            except ConnectionClosed:
                if reopened:
                    raise
                reopened += 1
                self._open()
                continue
            problem = answer.get("problem", {})
            if problem.get("code") == "rate_limited" and limited < MOST_WAITS:
                # Nothing was done: the same id again once the server says.
                time.sleep(max(1.0, float(problem.get("retry_after", 1))))
                limited += 1
                continue
            if answer["type"] == "refused":
                raise ApiError(problem)
            return answer

    def _send(self, message: JSON) -> None:
        self._ws.send(json.dumps(message))

    def _receive(self) -> JSON:
        """The next message, within ``timeout``; events and presence heard on the way
        are kept in ``heard``."""
        message = self._message(self.timeout)
        if message is None:
            raise TimeoutError(f"the server said nothing for {self.timeout} s")
        if message["type"] in ("events", "presence", "state"):
            self.heard.append(message)
        return message

    def _message(self, timeout: float | None) -> JSON | None:
        raw = self._ws.receive(timeout)
        if raw is None:
            return None
        message: JSON = json.loads(raw)
        if message["type"] == "events":
            self.version = max(self.version, message["version"])
        elif message["type"] == "state":
            self.version = message["view"]["version"]
        return message


def _problem(response: requests.Response) -> JSON:
    try:
        problem: JSON = response.json()
        return problem
    except ValueError:
        return {"status": response.status_code, "code": "unknown", "detail": response.text[:200]}


def _ends(event: dict[str, Any]) -> bool:
    """Whether an event ends its game (a resignation, or a days game's forfeit, does
    once one side is left)."""
    kind = event["type"]
    return kind in ("game_over", "cancelled", "aborted") or (
        kind in ("resigned", "timeout") and "result" in event
    )

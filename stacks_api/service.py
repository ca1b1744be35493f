"""The game server's domain: lobby, seats, actions, bots, views. No HTTP in here.

A game lives in the store as one JSON record:

    id, variant, players, status (waiting|active|finished|cancelled), version,
    practice, created_at, host (hash of the host token), bot_seed,
    seats: [{name, bot, options (the bot's), token (hash)}], game (the engine's to_dict)

Every state change bumps ``version`` by one and appends that change's public
events, each stamped with the version, in the same atomic store write. The
record also keeps ``to_move`` and ``deadline`` (the engine's), so waiting need
not load the game, and ``due_at``: when the game next needs a background worker
(now if a bot is to move, else the deadline, else None). The store writes that
into its work queue in the same atomic step as the record.

Requests never compute a bot move: a background runner claims each due game
and calls ``advance`` (``stacks_api.workers.runner``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import bots
from .engine import Game, IllegalAction, SetupError, create_game, load_game
from .problems import Refusal, validation_error
from .store import Change, EventFeed, GameStore, Record, StoreDegraded, StoreUnavailable
from .tokens import matches, new_token, token_hash
from .workers import offload
from .workers.runner import Jobs

JSON = dict[str, Any]
# One background job advances a game for at most this long, then queues it
# again, so a game of bots alone cannot keep a worker from the other games.
BOT_BUDGET_S = 5.0
# A worker that keeps losing the race to commit gives up and queues the game again.
MAX_CONFLICTS = 5

# The engine's refusal codes, in the server's vocabulary.
_ENGINE_CODES = {
    "bad_action": "validation_error",
    "not_your_turn": "not_your_turn",
    "illegal_action": "illegal_action",
    "game_over": "game_not_active",
}


def _not_found(game_id: str) -> Refusal:
    return Refusal("not_found", f"no game with id {game_id!r}")


def _idempotency_slot(seat: int, key: str) -> str:
    """Where a seat's Idempotency-Key is remembered: built from the seat and a digest,
    so the client's text never becomes part of a storage key."""
    return f"{seat}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"


class _Stale(Exception):
    """The game moved on while a worker was deciding: decide again."""


@dataclass(frozen=True)
class _Step:
    """One background change decided on a snapshot: close an expired window
    (no seat), or a bot seat's action."""

    version: int
    seat: int | None = None
    action: JSON | None = None


class GameService:
    """Operations on games, each one atomic against the store."""

    def __init__(
        self,
        store: GameStore,
        jobs: Jobs,
        clock: Callable[[], float] = time.time,
        bot_budget_s: float = BOT_BUDGET_S,
    ) -> None:
        self.store = store
        self.jobs = jobs
        self.clock = clock
        self.bot_budget_s = bot_budget_s

    # -- lobby ---------------------------------------------------------------

    def create(self, body: JSON) -> tuple[JSON, str]:
        """Create a game; returns its spectator view and the host token."""
        players, seed, position = body["players"], body.get("seed"), body.get("position")
        try:  # the engine checks the player count before anything is sized by it
            game = create_game(
                body["variant"],
                players=players,
                seed=secrets.randbits(63) if seed is None else seed,
                options=body.get("options"),
                position=position,
            )
        except SetupError as err:
            raise validation_error(err.field, err.message) from None
        seats = body.get("seats") or [{}] * players
        if len(seats) != players:
            raise validation_error(
                "seats", f"give one seat per player: {players}, not {len(seats)}"
            )
        for seat in seats:
            if seat.get("bot") is None:
                if seat.get("options"):
                    raise validation_error("seats", "options are for bot seats")
                continue
            if seat["bot"] not in bots.NAMES:
                names = ", ".join(bots.BOTS)
                raise validation_error("seats", f"unknown bot {seat['bot']!r}; choose from {names}")
            problem = bots.check_options(seat["bot"], seat.get("options") or {})
            if problem:
                raise validation_error("seats", problem)
        host = new_token()
        record: Record = {
            "id": secrets.token_hex(8),
            "variant": game.variant,
            "players": players,
            "status": "waiting",
            "version": 0,
            "practice": seed is not None or position is not None,
            "created_at": self.clock(),
            "updated_at": self.clock(),
            "host": token_hash(host),
            "bot_seed": secrets.randbits(63),
            "seats": [
                {
                    "name": f"{s['bot']} bot" if s.get("bot") else None,
                    "bot": s.get("bot"),
                    "options": s.get("options") or {},
                    "token": None,
                }
                for s in seats
            ],
            "game": game.to_dict(),
        }
        events: list[JSON] = []
        self._bump(record, [{"type": "created"}], events)
        if not self._free_seats(record):
            self._start(record, game, events)
        self._settle(record, game)
        self.store.create(record, events)
        self._schedule(record)
        return self._render(record, game, None), host

    def list_games(
        self, status: str, variant: str | None, page: int, page_size: int
    ) -> tuple[list[JSON], int]:
        """A lobby page: the games' summaries, and how many games there are."""
        records, total = self.store.list_games(status, variant, (page - 1) * page_size, page_size)
        return [self._summary(r) for r in records], total

    def join(self, game_id: str, name: str, seat: int | None) -> JSON:
        """Take a free human seat; the game starts when the last one is taken."""
        token = new_token()

        def decide(record: Record) -> tuple[Change, JSON]:
            free = self._free_seats(record)
            if record["status"] in ("finished", "cancelled"):
                raise Refusal("game_not_active", f"the game is {record['status']}")
            if seat is not None and not 0 <= seat < record["players"]:
                raise validation_error("seat", f"seat must be from 0 to {record['players'] - 1}")
            if not free:
                raise Refusal("game_full", "every seat of this game is taken")
            chosen = free[0] if seat is None else seat
            if chosen not in free:
                raise Refusal("seat_taken", f"seat {chosen} is already taken")
            record["seats"][chosen].update(name=name, token=token_hash(token))
            events: list[JSON] = []
            self._bump(record, [{"type": "joined", "seat": chosen, "name": name}], events)
            game = load_game(record["game"])
            if len(free) == 1:
                self._start(record, game, events)
                self._settle(record, game)
            return Change(record, events), {
                "seat": chosen,
                "team": game.team_of(chosen),
                "token": token,
            }

        return self._update(game_id, decide)

    def cancel(self, game_id: str, host_token: str | None) -> JSON:
        def decide(record: Record) -> tuple[Change, JSON]:
            if host_token is None or not matches(host_token, record["host"]):
                raise Refusal("unauthorized", "only the host token may cancel this game")
            if record["status"] in ("finished", "cancelled"):
                raise Refusal("game_not_active", f"the game is already {record['status']}")
            record["status"] = "cancelled"
            events: list[JSON] = []
            self._bump(record, [{"type": "cancelled"}], events)
            return Change(record, events), self._render(record, load_game(record["game"]), None)

        return self._update(game_id, decide)

    # -- playing -------------------------------------------------------------

    def view(self, game_id: str, token: str | None, wait_s: float = 0) -> JSON:
        """The game as ``token``'s seat (or a spectator) sees it; never computes.

        With ``wait_s``, first waits (up to that long) until a human must act.
        """
        record = self._load(game_id)
        seat = self._seat_of(record, token)
        if wait_s > 0:
            record = self.wait_for_humans(record, wait_s)
        return self._render(record, load_game(record["game"]), seat)

    def wait_for_humans(self, record: Record, wait_s: float) -> Record:
        """The game once a human seat must act or it is over, or after ``wait_s``."""
        if self._human_must_act(record):
            return record
        deadline = time.monotonic() + wait_s
        feed = self.store.feed(record["id"], record["version"])
        try:
            while (left := deadline - time.monotonic()) > 0:
                if feed.next_batch(timeout=min(left, 1.0)):
                    record = self._load(record["id"])
                    if self._human_must_act(record):
                        break
        finally:
            feed.close()
        return record

    def act(
        self,
        game_id: str,
        token: str | None,
        action: JSON,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        wait_s: float = 0,
    ) -> JSON:
        """Apply one action for ``token``'s seat; atomic. Bots answer in the background.

        With an idempotency key, the first outcome (the response, or the refusal)
        is stored in the same atomic write and replayed to every retry. With
        ``wait_s``, the answer waits until a human must act (up to that long) and
        its events run from the action up to then.
        """
        fingerprint = hashlib.sha256(
            json.dumps([action, expected_version], sort_keys=True).encode()
        ).hexdigest()

        def decide(record: Record) -> tuple[Change, JSON]:
            # Authentication comes first: a refused token stores nothing.
            seat = self._seat_of(record, token)
            if seat is None:
                raise Refusal("unauthorized", "send this seat's token as 'Bearer <token>'")
            slot = None if idempotency_key is None else _idempotency_slot(seat, idempotency_key)
            if slot is not None:
                prior = self.store.recall(game_id, slot)
                if prior is not None:
                    if prior["fingerprint"] != fingerprint:
                        raise Refusal(
                            "idempotency_key_reused",
                            "this Idempotency-Key was already used for a different request",
                        )
                    return Change(None), prior["outcome"]
            try:
                change, outcome = self._apply_action(record, seat, action, expected_version)
            except Refusal as refusal:
                if slot is None:
                    raise
                change, outcome = Change(None), {"refusal": refusal.to_dict()}
            if slot is not None:
                change.remember = (slot, {"fingerprint": fingerprint, "outcome": outcome})
            return change, outcome

        outcome = self._update(game_id, decide)
        if "refusal" in outcome:
            raise Refusal.from_dict(outcome["refusal"])
        if "problem" in outcome:  # remembered by an earlier release (kept for 24 h)
            raise Refusal.from_dict(outcome["problem"])
        response: JSON = outcome["response"]
        if wait_s > 0:
            response = self._waited(game_id, response, wait_s)
        return response

    def _waited(self, game_id: str, response: JSON, wait_s: float) -> JSON:
        """The action's response brought up to when a human must act."""
        acted = response["game"]
        record = self.wait_for_humans(self._load(game_id), wait_s)
        if record["version"] == acted["version"]:
            return response
        first = response["events"][0]["version"] if response["events"] else acted["version"]
        events = [
            e
            for e in self.store.events_after(game_id, first - 1)
            if e["version"] <= record["version"]
        ]
        seat = acted["you"]["seat"]
        return {"game": self._render(record, load_game(record["game"]), seat), "events": events}

    def _apply_action(
        self, record: Record, seat: int, action: JSON, expected_version: int | None
    ) -> tuple[Change, JSON]:
        if record["status"] != "active":
            raise Refusal("game_not_active", f"the game is {record['status']}")
        if expected_version is not None and expected_version != record["version"]:
            raise Refusal(
                "stale_version",
                f"the game is at version {record['version']}, not {expected_version}",
            )
        game = load_game(record["game"])
        events: list[JSON] = []
        now = self.clock()
        expired = game.expire(now)  # a window past its deadline closes first
        if expired:
            self._bump(record, expired, events)
        try:
            applied = game.apply(seat, action, now=now)
        except IllegalAction as err:
            raise Refusal(_ENGINE_CODES[err.code], err.message) from None
        self._bump(record, applied, events)
        self._settle(record, game)
        response = {"game": self._render(record, game, seat), "events": events}
        return Change(record, events), {"response": response}

    def events(self, game_id: str, after: int) -> list[JSON]:
        self.require(game_id)
        return self.store.events_after(game_id, after)

    def require(self, game_id: str) -> None:
        """Refuse with not_found unless the game exists."""
        self._load(game_id)

    def follow(self, game_id: str, after: int) -> tuple[EventFeed, bool]:
        """A feed of the game's events after version ``after`` as they are written, and
        whether the game has already ended (then nothing more will come)."""
        feed = self.store.feed(game_id, after)  # subscribe before reading the state
        record = self.store.load(game_id)
        return feed, record is None or record["status"] in ("finished", "cancelled")

    def open_streams(self, process: str, open_here: int) -> int:
        """Report this process's open event streams; the server's total."""
        return self.store.count_streams(process, open_here, self.clock())

    def health(self) -> str:
        """The store's kind, once it has taken a write; a 503 problem otherwise."""
        try:
            self.store.ping()
        except StoreDegraded:
            raise Refusal(
                "degraded", f"the {self.store.kind} store answers but refuses writes"
            ) from None
        except StoreUnavailable:
            raise Refusal(
                "store_unavailable", f"the {self.store.kind} store cannot be reached"
            ) from None
        return self.store.kind

    # -- background work -----------------------------------------------------

    def advance(self, game_id: str, renew: Callable[[], bool] = lambda: True) -> None:
        """A runner's work on a game it holds: close expired windows and let bots act
        until a human must.

        Each step decides on a snapshot, outside any lock or transaction, and
        commits only if the game is still at that snapshot's version; otherwise
        it decides again on the new state. ``renew()`` after each step keeps the
        runner's lease (and says whether to go on). After ``bot_budget_s`` of
        work, or too many lost races, the runner lets the game go: it is still
        due, so the most overdue game is taken next, whichever it is.
        """
        started, conflicts = time.monotonic(), 0
        while time.monotonic() - started < self.bot_budget_s and conflicts < MAX_CONFLICTS:
            snapshot = self.store.load(game_id)
            if snapshot is None or snapshot["status"] != "active":
                return
            step = self._next_step(snapshot)
            if step is None:
                return  # a human must act; a deadline, if any, is the game's entry
            try:
                # This loop goes on with the game: its commits ring for nobody.
                decide = functools.partial(self._commit_step, step=step)
                self._update(game_id, decide, wake=False)
            except _Stale:
                conflicts += 1
            if not renew():
                return  # the lease was lost (another runner has the game) or we stop

    def _next_step(self, snapshot: Record) -> _Step | None:
        """What the game needs next from a worker, if anything; bots think here."""
        game = load_game(snapshot["game"])
        if game.expire(self.clock()):
            return _Step(snapshot["version"])
        seat = self._bot_to_move(snapshot, game)
        if seat is None:
            return None
        stored = snapshot["seats"][seat]
        rng = random.Random(f"{snapshot['bot_seed']}:{snapshot['version']}")
        view = game.view(seat)
        action = offload(bots.choose, stored["bot"], view, rng, stored["options"])
        return _Step(snapshot["version"], seat, action)

    def _commit_step(self, fresh: Record, step: _Step) -> tuple[Change, JSON]:
        if fresh["version"] != step.version:
            raise _Stale
        game = load_game(fresh["game"])
        events: list[JSON] = []
        now = self.clock()
        expired = game.expire(now)
        if expired:
            self._bump(fresh, expired, events)
        elif step.seat is not None and step.action is not None:
            self._bump(fresh, game.apply(step.seat, step.action, now=now), events)
        self._settle(fresh, game)
        return Change(fresh, events), {}

    def _schedule(self, record: Record) -> None:
        """Tell the runners when a write left the game needing one (its entry in the
        work queue is already written, with the record)."""
        if record.get("due_at") is not None:
            self.jobs.wake()

    # -- internals -----------------------------------------------------------

    def _load(self, game_id: str) -> Record:
        record = self.store.load(game_id)
        if record is None:
            raise _not_found(game_id)
        return record

    def _update(
        self,
        game_id: str,
        decide: Callable[[Record], tuple[Change, JSON]],
        wake: bool = True,
    ) -> JSON:
        """A compare-and-set through the store, then a word to the runners if the game
        needs one (``wake=False``: the caller is the runner that holds the game)."""
        written: list[Record] = []

        def deciding(record: Record) -> tuple[Change, JSON]:
            change, result = decide(record)
            written[:] = [] if change.record is None else [change.record]
            if change.record is not None:
                change.record["updated_at"] = self.clock()
            return change, result

        try:
            result = self.store.update(game_id, deciding)
        except KeyError:
            raise _not_found(game_id) from None
        if written and wake:
            self._schedule(written[0])
        return result

    @staticmethod
    def _bots_to_move(record: Record) -> bool:
        return any(record["seats"][s]["bot"] for s in record.get("to_move", ()))

    @staticmethod
    def _human_must_act(record: Record) -> bool:
        if record["status"] != "active":
            return True
        return any(record["seats"][s]["bot"] is None for s in record.get("to_move", ()))

    @staticmethod
    def _free_seats(record: Record) -> list[int]:
        return [i for i, s in enumerate(record["seats"]) if s["bot"] is None and s["token"] is None]

    @staticmethod
    def _seat_of(record: Record, token: str | None) -> int | None:
        if token is None:
            return None
        for i, seat in enumerate(record["seats"]):
            if matches(token, seat["token"]):
                return i
        raise Refusal("unauthorized", "this token belongs to no seat of this game")

    @staticmethod
    def _bump(record: Record, new: list[JSON], events: list[JSON]) -> None:
        """One state change: the next version, stamped on each of its events."""
        record["version"] += 1
        events += [{"version": record["version"], **e} for e in new]

    def _start(self, record: Record, game: Game, events: list[JSON]) -> None:
        record["status"] = "active"
        self._bump(record, [{"type": "started", "to_move": game.to_move}], events)

    @staticmethod
    def _bot_to_move(record: Record, game: Game) -> int | None:
        waiting = [s for s in game.to_move if record["seats"][s]["bot"]]
        return waiting[0] if waiting else None

    def _settle(self, record: Record, game: Game) -> None:
        """Bring the record's copies of the game's state up to date after a change."""
        record["game"] = game.to_dict()
        if game.result is not None and record["status"] == "active":
            record["status"] = "finished"
        active = record["status"] == "active"
        record["to_move"] = game.to_move if active else []
        record["deadline"] = game.deadline if active else None
        due = self.clock() if self._bots_to_move(record) else record["deadline"]
        record["due_at"] = due if active else None

    @staticmethod
    def _summary(record: Record) -> JSON:
        return {
            "id": record["id"],
            "variant": record["variant"],
            "status": record["status"],
            "players": record["players"],
            "version": record["version"],
            "practice": record["practice"],
            "created_at": record["created_at"],
            "seats": [
                {
                    "seat": i,
                    "name": s["name"],
                    "bot": s["bot"],
                    "free": s["bot"] is None and s["token"] is None,
                }
                for i, s in enumerate(record["seats"])
            ],
        }

    @staticmethod
    def _render(record: Record, game: Game, seat: int | None) -> JSON:
        """The HTTP view: the engine's view plus the server's own fields."""
        view = game.view(seat)
        status = record["status"]
        view.update(
            id=record["id"],
            status=status,
            version=record["version"],
            practice=record["practice"],
        )
        for player in view["players"]:
            stored = record["seats"][player["seat"]]
            player.update(name=stored["name"], bot=stored["bot"])
        if status != "active":
            view["to_move"] = []
            if "you" in view:
                view["you"]["legal_actions"] = []
        return view

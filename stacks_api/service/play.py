"""Playing a game: a seat's view (waiting, if asked, until a person must act), one
action with its idempotency, and the game's events."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass, replace

from ..engine import IllegalAction
from ..model.events import Event
from ..model.record import GONE, JSON, GameRecord
from ..model.refusals import Refusal
from ..runtime import metrics
from ..store import Change, EventFeed
from . import replay
from .archiving import document
from .changes import settled, stamped, with_secrets
from .chat import TableOnly, is_spectators
from .people import People
from .seals import closed, require_open
from .table import Caller, Table, seat_of
from .views import UNKNOWN, people_digest, people_tag, render

# The engine's refusal codes, in the server's vocabulary.
ENGINE_CODES = {
    "bad_action": "validation_error",
    "not_your_turn": "not_your_turn",
    "illegal_action": "illegal_action",
    "game_over": "game_not_active",
}


# How many sent views a process keeps (a few KB each).
SHOWN_KEPT = 2048


def idempotency_slot(seat: int, key: str) -> str:
    """Where a seat's Idempotency-Key is remembered: built from the seat and a digest,
    so the client's text never becomes part of a storage key."""
    return f"{seat}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"


@dataclass(frozen=True, slots=True)
class Shown:
    """A view as the API sends it: its JSON text, and what its entity tag names."""

    text: str
    version: int
    seat: int | None  # None: a spectator's view
    people: str = ""  # the digest of what it shows of its people (views.people_tag)


class Play:
    def __init__(self, table: Table, people: People) -> None:
        self.table = table
        self.people = people
        # The views this process sent last, by game and bearer token, each with the
        # snapshot it was rendered from: a view is a function of the stored record
        # and the seat, so while the snapshot is the same the text is too.
        self._shown: dict[tuple[str, str | None], tuple[bytes, Shown, GameRecord]] = {}

    def view(self, game_id: str, token: str | None, wait_s: float = 0) -> JSON:
        """The game as ``token``'s seat (or a spectator) sees it; never computes. An
        away seat that asks is back (its person is there again).

        With ``wait_s``, first waits (up to that long) until a human must act.
        """
        return self._view(game_id, self.table.caller(token), wait_s)[0]

    def shown(self, game_id: str, token: str | None, wait_s: float = 0) -> Shown:
        """``view`` as its JSON text: the same request on the same stored record is
        answered with the text sent before (a player key is still checked)."""
        caller = self.table.caller(token)
        key = (game_id, token)
        snapshot = self.table.store.snapshot(game_id) if wait_s <= 0 else None
        if snapshot is not None:
            kept = self._shown.get(key)
            if kept is not None and kept[0] == snapshot:
                sent, record = kept[1], kept[2]
                if sent.seat is not None:
                    self.people.seen(game_id, sent.seat)
                if people_digest(record.players, self.people.shown(record)) == sent.people:
                    return sent
        view, seat, record, same = self._view(game_id, caller, wait_s, snapshot)
        shown = Shown(json.dumps(view), view["version"], None if "you" not in view else seat,
                      people_tag(view))  # fmt: skip
        if snapshot is not None and same:
            if len(self._shown) >= SHOWN_KEPT:
                del self._shown[next(iter(self._shown))]  # the oldest
            self._shown[key] = (snapshot, shown, record)
        return shown

    def _view(
        self, game_id: str, caller: Caller, wait_s: float, snapshot: bytes | None = None
    ) -> tuple[JSON, int | None, GameRecord, bool]:
        """The view, the caller's seat, the record it shows, and whether the view is
        of ``snapshot`` unchanged (not when it was None, the seat came back or the
        view waited). The caller's seat is seen (``people``)."""
        store = self.table.store
        record = self.table.load(game_id) if snapshot is None else store.parse(snapshot)
        seat = seat_of(record, caller)
        if seat is None:
            require_open(self.table, record, caller)
        same = snapshot is not None
        if seat is not None:
            self.people.seen(game_id, seat)
            if record.seats[seat].state == "away":
                record, same = self.back(game_id, seat), False
        if wait_s > 0:
            record, same = self.wait_for_humans(record, wait_s), False
        view = render(record, self.table.game(record), seat, self.people.shown(record))
        if record.duplicate and record.ended:
            # Rendered without the deal's secrets (``render``) unless its whole group
            # is over now, which the record alone does not tell: never kept.
            same = False
            if record.fairness is not None and not closed(self.table, record):
                view["fairness"] = record.fairness.public(ended=True)
        return view, seat, record, same

    def require_open(self, game_id: str, token: str | None, seats_too: bool = False) -> bool:
        """Refuse all but the game's own seats (and them too with ``seats_too``)
        while it is a closed duplicate board (``service.seals``); whether it is one
        (answer its seats privately)."""
        record, caller = self.table.load(game_id), self.table.caller(token)
        return require_open(self.table, record, caller, seats_too)

    def seat_for(self, game_id: str, token: str | None) -> int | None:
        """The seat ``token`` holds in the game (None: no token, or none of its seats)."""
        if token is None:
            return None
        try:
            return seat_of(self.table.load(game_id), self.table.caller(token))
        except Refusal:
            return None

    def wait_for_humans(self, record: GameRecord, wait_s: float) -> GameRecord:
        """The game once a human seat must act or it is over, or after ``wait_s``."""
        if record.human_must_act():
            return record
        deadline = time.monotonic() + wait_s
        feed = self.table.store.feed(record.id, record.version)
        try:
            while (left := deadline - time.monotonic()) > 0:
                if feed.next_batch(timeout=min(left, 1.0)):
                    record = self.table.load(record.id)
                    if record.human_must_act():
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
        events_only: bool = False,
    ) -> JSON:
        """Apply one action for ``token``'s seat; atomic. Bots answer in the background.

        With an idempotency key, the first outcome (the response, or the refusal)
        is stored in the same atomic write and replayed to every retry. With
        ``wait_s``, the answer waits until a human must act (up to that long) and
        its events run from the action up to then. ``events_only`` (a socket,
        which hears the game as it changes): the answer is the new ``version`` and
        the action's ``events``, with no view rendered; and one that names the
        game's current version, which no applied action can have left as it was,
        is decided without reading a first outcome (a round trip saved a move).
        """
        caller = self.table.caller(token)
        fingerprint = hashlib.sha256(
            json.dumps([action, expected_version], sort_keys=True).encode()
        ).hexdigest()

        def decide(record: GameRecord) -> tuple[Change, JSON]:
            # Authentication comes first: a refused token stores nothing.
            seat = self.table.acting_seat(record, caller)
            slot = None if idempotency_key is None else idempotency_slot(seat, idempotency_key)
            fresh = (events_only and expected_version is not None
                     and self._current(record, expected_version))  # fmt: skip
            if slot is not None and not fresh:
                prior = self.table.store.recall(game_id, slot)
                if prior is not None:
                    if prior["fingerprint"] != fingerprint:
                        raise Refusal(
                            "idempotency_key_reused",
                            "this Idempotency-Key was already used for a different request",
                        )
                    return Change(None), prior["outcome"]
            try:
                change, outcome = self._apply(record, seat, action, expected_version, events_only)
            except Refusal as refusal:
                if slot is None:
                    raise
                change, outcome = Change(None), {"refusal": refusal.to_dict()}
            if slot is not None:
                change.remember = (slot, {"fingerprint": fingerprint, "outcome": outcome})
            written[:] = [] if change.record is None else [change.record]
            return change, outcome

        written: list[GameRecord] = []  # the record the action made (its people are shown)
        outcome = self.table.update(game_id, decide)
        if "refusal" in outcome:
            raise Refusal.from_dict(outcome["refusal"])
        if "problem" in outcome:  # remembered by an earlier release (kept for 24 h)
            raise Refusal.from_dict(outcome["problem"])
        response: JSON = outcome["response"]
        if events_only:
            metrics.ACTIONS.labels(variant=response["variant"], by="person").inc()
            return response
        metrics.ACTIONS.labels(variant=response["game"]["variant"], by="person").inc()
        if wait_s > 0:
            response = self._waited(game_id, response, wait_s)
            written.clear()  # the game moved on: its seats as they are now
        self._with_people(game_id, response["game"], written[0] if written else None)
        return response

    def _with_people(self, game_id: str, view: JSON, record: GameRecord | None) -> None:
        """The view's people as they are now (its seat's person was just seen)."""
        if "you" in view:
            self.people.seen(game_id, view["you"]["seat"])
        people = self.people.shown(record or self.table.load(game_id))
        for player in view["players"]:
            player.update(people.get(player["seat"], UNKNOWN))

    def _apply(
        self,
        record: GameRecord,
        seat: int,
        action: JSON,
        expected_version: int | None,
        events_only: bool = False,
    ) -> tuple[Change, JSON]:
        if record.status != "active":
            raise Refusal("game_not_active", f"the game is {record.status}")
        if record.seats[seat].state in GONE:
            raise Refusal("game_not_active", f"your seat has {record.seats[seat].state}: "
                                             "the stand-in bot plays it")  # fmt: skip
        if expected_version is not None and not self._current(record, expected_version):
            raise Refusal(
                "stale_version", f"the game is at version {record.version}, not {expected_version}"
            )
        game = self.table.game(record)
        events: list[Event] = []
        now = self.table.clock()
        expired = game.expire(now)  # a window past its deadline closes first
        if expired:
            record = stamped(record, expired, events)
        try:
            applied = game.apply(seat, action, now=now)
        except IllegalAction as err:
            raise Refusal(ENGINE_CODES[err.code], err.message) from None
        record, back = _present(record, seat)
        record = settled(stamped(record, back + applied, events), game, now, events)
        if events_only:
            moved = {"variant": record.variant, "version": record.version, "events": events}
            return Change(record, events), {"response": moved}
        response = {"game": render(record, game, seat), "events": events}
        return Change(record, events), {"response": response}

    def _current(self, record: GameRecord, expected: int) -> bool:
        """Whether the game is as the client expects: at that version, or later only by
        chat (nothing a player acts on)."""
        if expected == record.version:
            return True
        if expected > record.version:
            return False
        later = self.table.store.events_after(record.id, expected)
        return bool(later) and all(e["type"] == "chat" for e in later)

    def back(self, game_id: str, seat: int) -> GameRecord:
        """The away seat's person is back: event ``back``, and its turns run on the
        normal clock again (the server no longer plays them at once)."""

        def decide(record: GameRecord) -> tuple[Change, JSON]:
            if record.seats[seat].state != "away":
                return Change(None), {}
            events: list[Event] = []
            record, back = _present(record, seat)
            record = stamped(record, back, events)
            if record.status == "active":
                record = settled(record, self.table.game(record), self.table.clock(), events)
            return Change(record, events), {}

        self.table.update(game_id, decide)
        return self.table.load(game_id)

    def _waited(self, game_id: str, response: JSON, wait_s: float) -> JSON:
        """The action's response brought up to when a human must act."""
        acted = response["game"]
        record = self.wait_for_humans(self.table.load(game_id), wait_s)
        if record.version == acted["version"]:
            return response
        first = response["events"][0]["version"] if response["events"] else acted["version"]
        events = [
            e
            for e in self.table.store.events_after(game_id, first - 1)
            if e["version"] <= record.version
        ]
        seat = acted["you"]["seat"]
        return {"game": render(record, self.table.game(record), seat), "events": events}

    def events(self, game_id: str, after: int, watch: bool = False) -> tuple[str, list[Event]]:
        """The game's variant, and its events after version ``after`` (while the game
        is on, the spectators' chat only to a spectator who ``watch``-es)."""
        variant, events = self.table.events_after(game_id, after)
        record = self.table.load(game_id)
        if record.ended:
            return variant, self._told(record, events)
        return variant, events if watch else [e for e in events if not is_spectators(e)]

    def _told(self, record: GameRecord, events: list[Event]) -> list[Event]:
        """An ended game's events as they are served: a duplicate board's ending is
        told with the deal's secrets once its whole group has ended (never before:
        they dealt the other tables too)."""
        if record.duplicate and not closed(self.table, record):
            return with_secrets(record, events)
        return events

    def record(self, game_id: str, sealed: bool = False) -> JSON:
        """The record document of an ended game (docs/records.md); of a ``sealed``
        duplicate board, without the seed that dealt its group."""
        record = self.table.store.load(game_id)
        if record is None:
            return self.table.kept(game_id)
        if not record.ended:
            raise Refusal("game_not_active", f"a game has a record once it has ended; "
                                             f"this one is {record.status}")  # fmt: skip
        return document(record, self.table.store.events_after(game_id, 0), sealed)

    def position(self, game_id: str, version: int) -> JSON:
        """An ended game as a spectator saw it right after ``version`` (a replay)."""
        return replay.position(self.record(game_id), version)

    def require(self, game_id: str) -> GameRecord:
        """The game's record; refuse with not_found unless the game exists."""
        return self.table.load(game_id)

    def follow(self, game_id: str, after: int, watch: bool = False) -> tuple[EventFeed, bool]:
        """A feed of the game's events after version ``after`` as they are written, and
        whether the game has already ended (then nothing more will come). Only a
        spectator who ``watch``-es is sent the spectators' chat."""
        record = self.table.store.load(game_id)
        if record is None or record.ended:  # its events are all there will be
            return Replayed(self.events(game_id, after, watch)[1]), True
        feed: EventFeed = self.table.store.feed(game_id, after)  # subscribe, then read
        record = self.table.store.load(game_id)
        ended = record is None or record.ended
        return (feed if watch or ended else TableOnly(feed)), ended

    def watching(self, game_id: str, watcher: str, until: float | None) -> None:
        """Count a spectator's stream among the game's spectators until ``until``
        (None: it closed)."""
        self.table.store.watch(game_id, watcher, until)


class Replayed:
    """The feed of an ended game: its events once, then nothing (waited for as any
    feed waits, so that a follower looping on it does not spin)."""

    def __init__(self, events: list[Event]) -> None:
        self._events = events
        self._woken = threading.Event()

    def next_batch(self, timeout: float) -> list[Event]:
        batch, self._events = self._events, []
        if not batch:
            self._woken.wait(timeout)
            self._woken.clear()
        return batch

    def interrupt(self) -> None:
        self._woken.set()

    def close(self) -> None:
        return None


def _present(record: GameRecord, seat: int) -> tuple[GameRecord, list[JSON]]:
    """The seat's person acted: no timeouts in a row any more, and back if away."""
    stored = record.seats[seat]
    if stored.state != "away" and stored.timeouts == 0:
        return record, []
    back = [{"type": "back", "seat": seat}] if stored.state == "away" else []
    return record.with_seat(seat, replace(stored, state="human", timeouts=0)), back

"""What a view shows of each person beside the rules: whether they are here
(presence) and, in a days game, the vacation days their account has left.

**Presence.** A person is ``online`` while a stream of theirs is open or a request
of theirs came within ``ONLINE_S``, ``away`` within ``AWAY_S``, ``offline`` after
that; ``seen_at`` is when they were last seen, rounded to the minute. Each
request of a seat's token (or of a key linked to the seat), each keep-alive of a
stream that sent one, and that stream's end mark the seat seen: written to the
store at once at most every ``WRITE_EVERY_S`` by each process, and a sighting in
between within ``FLUSH_EVERY_S`` (so the store is at most about a second
behind). In a game with neither a clock nor days, a person to move who has not
been seen for ``CLAIMABLE_S`` (three minutes past being online) may be claimed
(``concede.claim``), to the second.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..model.record import JSON, GameRecord
from ..runtime.ttl_cache import TtlCache
from .ports import Unavailable
from .table import Table

ONLINE_S = 60.0
AWAY_S = 600.0
CLAIMABLE_S = 240.0


@dataclass(frozen=True)
class Times:
    """How long a person counts as online and away, and after how long unseen they
    may be claimed (the contract's 60 s, 10 minutes, 4 minutes; tests shorten them)."""

    online_s: float = ONLINE_S
    away_s: float = AWAY_S
    claimable_s: float = CLAIMABLE_S


CONTRACT = Times()
WRITE_EVERY_S = 15.0  # keep-alives come every 15 s: an open stream stays online
FLUSH_EVERY_S = 1.0  # a sighting in between is written this soon
BANKS_KEPT_S = 30.0  # a view's vacation days may lag the bank this long
BOTS_KEPT_S = 600.0  # which accounts are bots (it never changes for a seated one)
# A view's presence may lag the store this long (a sighting is written only every
# WRITE_EVERY_S anyway): a busy game's moves and views read it once a second.
SEEN_KEPT_S = 1.0
WRITTEN_KEPT = 20_000  # (game, seat) pairs whose last write a process remembers


def presence_of(seen: float | None, now: float, times: Times = CONTRACT) -> str:
    """``online``, ``away`` or ``offline``, for a person last seen at ``seen``."""
    if seen is None or now - seen > times.away_s:
        return "offline"
    return "online" if now - seen <= times.online_s else "away"


class People:
    def __init__(self, table: Table, times: Times = CONTRACT) -> None:
        self.table = table
        self.times = times
        self._written: dict[tuple[str, int], float] = {}
        self._pending: dict[tuple[str, int], float] = {}  # sightings not written yet
        self._flusher: threading.Thread | None = None
        self._lock = threading.Lock()
        self._banks = TtlCache[dict[str, float]](BANKS_KEPT_S, size=4096)
        self._bots = TtlCache[set[str]](BOTS_KEPT_S, size=4096)
        self._shown_seen = TtlCache[dict[int, float]](SEEN_KEPT_S, size=4096, clock=table.clock)

    def seen(self, game_id: str, seat: int) -> None:
        """The seat's person is here now. Written at once at most every
        ``WRITE_EVERY_S``; a sighting in between is kept as pending and written by
        ``flush`` (a second later at most), so the store is never more than about
        a second behind a person's last sighting (a claim is exact to the second)."""
        now = self.table.clock()
        key = (game_id, seat)
        with self._lock:
            if now - self._written.get(key, -WRITE_EVERY_S) < WRITE_EVERY_S:
                self._pending[key] = now
                self._start_flusher()
                return
            if len(self._written) >= WRITTEN_KEPT:
                self._written.clear()
            self._written[key] = now
            self._pending.pop(key, None)
        self.table.store.presence.seen(game_id, seat, now)
        self._shown_seen.forget(game_id)

    def flush(self) -> int:
        """Write the sightings kept as pending; how many."""
        with self._lock:
            pending, self._pending = self._pending, {}
        for (game_id, seat), at in pending.items():
            try:
                self.table.store.presence.seen(game_id, seat, at)
            except Unavailable:  # the next sighting writes again
                continue
            self._shown_seen.forget(game_id)
        return len(pending)

    def _start_flusher(self) -> None:
        """One thread (under gevent, a greenlet) a process writes pending sightings
        every ``FLUSH_EVERY_S`` (called with the lock held)."""
        if self._flusher is None:
            self._flusher = threading.Thread(target=self._flush_forever, daemon=True,
                                             name="stacks-api-presence")  # fmt: skip
            self._flusher.start()

    def _flush_forever(self) -> None:
        while True:
            time.sleep(FLUSH_EVERY_S)
            self.flush()

    def last_seen(self, game_id: str) -> dict[int, float]:
        """Each seat's last sighting: the store's, or this process's own if later."""
        seen = self.table.store.presence.of(game_id)
        with self._lock:
            mine = [(seat, at) for (game, seat), at in self._pending.items() if game == game_id]
        for seat, at in mine:
            seen[seat] = max(at, seen.get(seat, at))
        return seen

    def ticker(self, game_id: str, seat: int | None) -> Callable[[], list[JSON]]:
        """For a game's stream: each call marks the stream's seat (if any) seen and
        answers ``presence`` events (``seat``, ``presence``, ``seen_at``) for every
        seat whose presence changed since the last call. The first call only
        notes what the view already shows, so a stream starts with the game's
        own events."""
        told: dict[int, str] | None = None
        untimed = False  # whether the game has neither clock nor days (claims apply)

        def tick() -> list[JSON]:
            nonlocal told, untimed
            if seat is not None:
                self.seen(game_id, seat)
            now, events, first = self.table.clock(), [], told is None
            if first:
                record = self.table.store.load(game_id)
                untimed = record is not None and _untimed(record)
            told = {} if told is None else told
            for where, at in sorted(self.last_seen(game_id).items()):
                state = presence_of(at, now, self.times)
                if told.get(where) != state:
                    told[where] = state
                    claim = at + self.times.claimable_s if untimed and state != "online" else None
                    events.append({"type": "presence", "seat": where, "presence": state,
                                   "seen_at": round(at / 60) * 60,
                                   "claimable_at": claim})  # fmt: skip
            return [] if first else events

        return tick

    def shown(self, record: GameRecord) -> dict[int, dict[str, object]]:
        """Each person's presence, ``seen_at``, (a days game) vacation days left and
        whether the account is a bot account, by seat (a bot level's seat shows none
        of them)."""
        now = self.table.clock()
        seen = (
            {}
            if record.ended
            else self._shown_seen.get(record.id, lambda: self.last_seen(record.id))
        )
        banks, bots = self._vacations(record), self._bot_accounts(record)
        claims = record.status == "active" and _untimed(record)
        shown: dict[int, dict[str, object]] = {}
        for seat, held in enumerate(record.seats):
            if held.state in ("free", "bot"):
                continue
            at = seen.get(seat)
            left = banks.get(held.player_id) if held.player_id is not None else None
            presence = None if record.ended else presence_of(at, now, self.times)
            # A claim's moment, to the second, once its person is no longer online
            # (while they are, it moves with every sighting: it would only churn).
            since = record.created_at if at is None else at  # as ``concede.claim`` counts
            claimable = claims and presence != "online"
            shown[seat] = {
                "presence": presence,
                "seen_at": None if at is None else round(at / 60) * 60,
                "vacation_days_left": None if left is None else int(left),
                "bot_account": held.player_id in bots,
                "claimable_at": since + self.times.claimable_s if claimable else None,
            }
        return shown

    def _bot_accounts(self, record: GameRecord) -> set[str]:
        """The seats' accounts that are bot accounts (an account that has sat in a
        game never becomes one: kept long)."""
        accounts = _accounts(record)
        if not accounts or self.table.archive is None:
            return set()
        archive = self.table.archive
        return self._bots.get(accounts, lambda: archive.accounts.bots_among(list(accounts)))

    def _vacations(self, record: GameRecord) -> dict[str, float]:
        accounts = _accounts(record)
        if record.days is None or not accounts or self.table.archive is None:
            return {}
        archive = self.table.archive
        return self._banks.get(accounts, lambda: archive.vacations.banks(accounts))


def _untimed(record: GameRecord) -> bool:
    """Whether a game has neither a turn clock nor days: its absent people can be
    claimed (``concede.claim``)."""
    clocked = record.game.get("options", {}).get("turn_seconds") is not None
    return record.days is None and not clocked


def _accounts(record: GameRecord) -> tuple[str, ...]:
    """The accounts seated at the game, in one order (a cache's key)."""
    return tuple(sorted({s.player_id for s in record.seats if s.player_id}))

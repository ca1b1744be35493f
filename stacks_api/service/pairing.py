"""Quick pairing: a player asks for a game and is seated with others who asked for
the same kind of game, of close rating.

A seek waits in its pool (variant, players, rated or not, turn clock or days a
turn: days seeks pair among themselves, never with live ones). A pass
over a pool, made whenever a seek is added or read and by the background
workers every second, takes the oldest seek first and seats it with the
closest-rated others whose ranges all overlap; a seek's range widens the longer
it waits (``WIDTH``, ``WIDEN_PER_S``). The store pairs a group only if every one
of its seeks still waits (a compare-and-set), so racing passes in any number of
processes pair nobody twice; a withdrawn or expired seek is in no group.

A group's game is created with each seat held for its player's account: each
player then takes it by joining with their key (and entropy, which a committed
deal needs after its commitment is shown). A seat nobody takes within
``RESERVED_S`` cancels the game. A process that dies between pairing and
creating the game leaves the seeks paired to a game that does not exist yet: the
next read of any of them (after ``RECOVER_AFTER_S``) creates it.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import replace

from ..engine import SetupError, create_game
from ..model.record import JSON, Seat
from ..model.refusals import Refusal, validation_error
from ..model.seeks import Seek
from ..model.tokens import new_token, token_hash
from ..runtime import metrics
from ..store import SeekBoard
from .lobby import Lobby, committed
from .rated_pairs import PAIR_LIMIT, at_limit
from .rematch import RESERVED_S
from .table import Table

RATED_CLOCK_S = 60  # a rated seek's turn clock when it names none
WIDTH = 100.0  # rating points either side a new seek accepts
WIDEN_PER_S = 10.0  # and how fast that widens while it waits
RECOVER_AFTER_S = 10.0
WAIT_S = 120.0  # how long a seek waits by default (its ``wait_s``, up to 600)
LONGEST_WAIT_S = 600.0  # a days seek may wait up to a day (the schema's bound)


def pool_of(body: JSON) -> str:
    """The pool a seek waits in: only seeks of the same pool are paired."""
    kind = "rated" if body.get("rated") else "casual"
    pace = f"d{body['days']}" if body.get("days") else str(int(body.get("turn_seconds") or 0))
    return f"{body['variant']}:{body['players']}:{kind}:{pace}"


def width(seek: Seek, now: float) -> float:
    return WIDTH + WIDEN_PER_S * max(0.0, now - seek.since)


def groups(seeks: list[Seek], size: int, now: float) -> list[list[Seek]]:
    """Groups of ``size`` seeks to seat together: the oldest seek first, each with
    the closest-rated others, every two within both one's ranges; one seek per
    player and per group. Candidates are read outward from the oldest seek's
    place in rating order, so a pass over a large pool stays quick."""
    ladder = sorted(seeks, key=lambda s: (s.rating, s.id))
    place = {s.id: n for n, s in enumerate(ladder)}
    taken: set[str] = set()
    found = []
    for anchor in sorted(seeks, key=lambda s: (s.since, s.id)):
        if anchor.id in taken:
            continue
        group = [anchor]
        for other in _nearest(ladder, place[anchor.id], width(anchor, now)):
            if other.id in taken or other.player_id in {s.player_id for s in group}:
                continue
            if all(_close(other, s, now) for s in group):
                group.append(other)
            if len(group) == size:
                found.append(group)
                taken.update(s.id for s in group)
                break
    return found


def _nearest(ladder: list[Seek], at: int, reach: float) -> Iterator[Seek]:
    """The seeks around ``ladder[at]`` nearest in rating first, within ``reach``."""
    rating = ladder[at].rating
    below, above = at - 1, at + 1
    while True:
        gap_below = rating - ladder[below].rating if below >= 0 else None
        gap_above = ladder[above].rating - rating if above < len(ladder) else None
        if (
            gap_below is not None
            and gap_below <= reach
            and (gap_above is None or gap_below <= gap_above)
        ):
            yield ladder[below]
            below -= 1
        elif gap_above is not None and gap_above <= reach:
            yield ladder[above]
            above += 1
        else:
            return


def _close(a: Seek, b: Seek, now: float) -> bool:
    return abs(a.rating - b.rating) <= min(width(a, now), width(b, now))


class Pairing:
    def __init__(self, table: Table, lobby: Lobby) -> None:
        self.table = table
        self.lobby = lobby

    @property
    def board(self) -> SeekBoard:
        return self.table.store.seeks

    def seek(self, player_id: str, body: JSON) -> JSON:
        """Add the player's seek (one at a time) and try to pair it at once. A rated
        seek is always clocked (``RATED_CLOCK_S`` unless it names a clock), so a
        game a stranger abandons ends by itself."""
        if body.get("days") is not None:
            if body.get("turn_seconds"):
                raise validation_error("days", "a seek has days a turn or a clock, not both")
        elif body.get("wait_s", WAIT_S) > LONGEST_WAIT_S:
            raise validation_error("wait_s", f"a seek waits at most {LONGEST_WAIT_S:g} s "
                                             "(a days seek, a day)")  # fmt: skip
        elif body.get("rated") and not body.get("turn_seconds"):
            body = {**body, "turn_seconds": RATED_CLOCK_S}
        archive = self.table.archive
        assert archive is not None  # the caller's key was found in it
        player = archive.accounts.player(player_id)
        assert player is not None
        if player["bot"]:
            raise Refusal("bot_account", "a bot account never pairs with people: challenge "
                                         "it, or have it accept challenges")  # fmt: skip
        try:  # the variant checks the player count
            create_game(body["variant"], body["players"], 0, _clock(body.get("turn_seconds")))
        except SetupError as err:
            raise validation_error(err.field, err.message) from None
        now = self.table.clock()
        rating = archive.ratings.of(player_id).get(body["variant"], {}).get("rating", 1500)
        seek = Seek(
            id=secrets.token_hex(8), player_id=player_id, name=player["name"],
            pool=pool_of(body), variant=body["variant"], players=body["players"],
            rated=bool(body.get("rated")), turn_seconds=body.get("turn_seconds") or None,
            days=body.get("days"),
            rating=rating, since=now, expires_at=now + body.get("wait_s", WAIT_S),
        )  # fmt: skip
        held = self.board.add(seek)
        if held is not None:
            raise Refusal("already_seeking", f"you already wait for a game: seek {held.id}")
        self.pair(seek.pool, now)
        return self._shown(self.board.get(seek.id) or seek)

    def status(self, player_id: str, seek_id: str) -> JSON:
        """The player's seek, after a pass over its pool."""
        seek = self._own(player_id, seek_id)
        now = self.table.clock()
        if seek.waiting:
            self.pair(seek.pool, now)
            seek = self._own(player_id, seek_id)
        elif seek.status == "paired" and now >= (seek.closed_at or now) + RECOVER_AFTER_S:
            # Made already (nothing happens), or lost with its process.
            group = [s for s in map(self.board.get, seek.group) if s is not None]
            if len(group) == seek.players:  # else forgotten: closed over an hour ago
                self._open(seek, group)
        return self._shown(seek)

    def _shown(self, seek: Seek) -> JSON:
        """The seek as its player sees it: once paired into a rated game that two of
        its accounts may not rate today, it says so (``service.rated_pairs``)."""
        unrated = None
        record = self.table.store.load(seek.game_id) if seek.rated and seek.game_id else None
        if record is not None:
            unrated = record.unrated
            accounts = [s.player_id for s in record.seats if s.player_id is not None]
            if record.status == "waiting" and any(
                at_limit(self.table.store, a, b, self.table.clock())
                for n, a in enumerate(accounts) for b in accounts[n + 1:]
            ):  # fmt: skip
                unrated = PAIR_LIMIT
        return {**seek.shown(), "unrated": unrated}

    def withdraw(self, player_id: str, seek_id: str) -> JSON:
        self._own(player_id, seek_id)
        seek = self.board.close(seek_id, "withdrawn", self.table.clock())
        if seek is None:
            raise Refusal("not_found", f"you have no seek with id {seek_id!r}")
        if seek.status == "paired":
            raise Refusal("game_started", f"you were paired already: game {seek.game_id}")
        return self._shown(seek)

    def run(self, now: float) -> int:
        """A pass over every pool (the background workers' part); games made."""
        return sum(self.pair(pool, now) for pool in self.board.pools())

    def pair(self, pool: str, now: float) -> int:
        """Expire the pool's stale seeks and seat every group it has; games made."""
        waiting = []
        for seek in self.board.waiting(pool):
            if now >= seek.expires_at:
                self.board.close(seek.id, "expired", now)
            else:
                waiting.append(seek)
        made = 0
        for group in groups(waiting, waiting[0].players if waiting else 0, now):
            game_id = secrets.token_hex(8)
            if self.board.pair([s.id for s in group], game_id, now):
                self._open(replace(group[0], game_id=game_id), group)
                made += 1
                for seek in group:
                    wait = max(0.0, now - seek.since)
                    metrics.PAIRING_WAIT_SECONDS.labels(pool=pool).observe(wait)
        return made

    def _open(self, seek: Seek, group: list[Seek]) -> None:
        """Create the game ``seek`` was paired into, seating ``group`` in order (nothing
        if it exists): each seat held for its player."""
        assert seek.game_id is not None  # paired
        game = create_game(seek.variant, seek.players, secrets.randbits(63),
                           _clock(seek.turn_seconds))  # fmt: skip
        seats = tuple(Seat("reserved", name=s.name, player_id=s.player_id) for s in group)
        record, events = self.lobby.opened(
            seek.game_id, game, seats, token_hash(new_token()), committed(seek.players),
            unlisted=True, rated=seek.rated, days=seek.days,
        )  # fmt: skip
        record = replace(record, due_at=self.table.clock() + RESERVED_S)
        if self.table.create(record, events) is not None:
            self.table.schedule(record)
            for s in group:
                self.table.store.index_player_game(s.player_id, record.id, self.table.clock())

    def _own(self, player_id: str, seek_id: str) -> Seek:
        seek = self.board.get(seek_id)
        if seek is None or seek.player_id != player_id:
            raise Refusal("not_found", f"you have no seek with id {seek_id!r}")
        return seek


def _clock(turn_seconds: int | None) -> JSON | None:
    """A game's options for a turn clock (None: unclocked)."""
    return {"turn_seconds": turn_seconds} if turn_seconds else None

"""The path every change of a game takes: read its record, decide, compare-and-set
it through the store, then tell the runners if the game now needs one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..engine import Game, restore_game
from ..model import scopes
from ..model.events import Event
from ..model.grants import Holder
from ..model.record import JSON, GameRecord
from ..model.refusals import Refusal
from ..model.tokens import is_player_key, matches
from ..runtime.ttl_cache import LastKnown, TtlCache
from ..store import Change, GameStore
from .archiving import archivable
from .ports import Archive, Jobs, Unavailable
from .rated_pairs import within_limit
from .replay import final_record

Decide = Callable[[GameRecord], tuple[Change, JSON]]
CLOSED_KEPT_S = 2.0


def not_found(game_id: str) -> Refusal:
    return Refusal("not_found", f"no game with id {game_id!r}")


@dataclass(frozen=True)
class Caller:
    """Who sent a request: its bearer token (a seat's or host's token, a player key,
    an app's or a personal token), the player a key or token acts for, and what it
    may do (``model.scopes``: a key, everything)."""

    token: str | None = None
    player_id: str | None = None
    scopes: frozenset[str] = scopes.EVERYTHING


class Table:
    """The store, the archive, the clock and the runners, as every part of the
    service uses them."""

    def __init__(
        self,
        store: GameStore,
        jobs: Jobs,
        clock: Callable[[], float],
        archive: Archive | None = None,
    ) -> None:
        self.store = store
        self.jobs = jobs
        self.clock = clock
        self.archive = archive
        # Whether an account is closed, asked again at most every few seconds: a seat
        # linked to a closed account is refused as soon as the operator closes it.
        self._closed = TtlCache[bool](CLOSED_KEPT_S, size=4096)
        # What the archive last said of each key, token and account: while its
        # database is away, the accounts it knew keep playing on the live store
        # (nothing about them can change meanwhile: changing it needs the database).
        self._known_keys = LastKnown[str | None](Unavailable)
        self._known_grants = LastKnown[Holder | None](Unavailable)
        self._known_closed = LastKnown[bool](Unavailable)
        # Where the callers already looked up for the request being served are kept
        # (the HTTP layer gives one dict a request; None: no request, nothing kept),
        # so that a request's scope check and its route read a token's grant once.
        self.request_callers: Callable[[], dict[str, Caller] | None] = lambda: None

    def load(self, game_id: str) -> GameRecord:
        """The game's record: the live store's, else (once it has let an ended game
        go) the archive's."""
        return self.find(game_id)[0]

    def find(self, game_id: str) -> tuple[GameRecord, bool]:
        """The game's record, and whether it came from the archive (rebuilt from
        its record document)."""
        record = self.store.load(game_id)
        if record is not None:
            return record, False
        return final_record(self.kept(game_id)), True

    def archive_for(self, what: str) -> Archive:
        """The archive, for a part of the service that needs it (``what`` it keeps:
        accounts, ratings, analyses); 501 on a server built without one."""
        if self.archive is None:
            raise Refusal("not_implemented", f"this server keeps no {what}")
        return self.archive

    def ratings_of(self, player_id: str | None) -> dict[str, float]:
        """A player's rating in each variant they were rated in (none: no account)."""
        if player_id is None or self.archive is None:
            return {}
        rated = self.archive.ratings.of(player_id)
        return {variant: float(r["rating"]) for variant, r in rated.items()}

    def kept(self, game_id: str) -> JSON:
        """The record document of a game the archive keeps."""
        found = None if self.archive is None else self.archive.games.document(game_id)
        if found is None:
            raise not_found(game_id)
        return found

    def events_after(self, game_id: str, version: int) -> tuple[str, list[Event]]:
        """The game's variant and its public events after ``version``, from wherever
        the game is."""
        record = self.store.load(game_id)
        if record is not None:
            return record.variant, self.store.events_after(game_id, version)
        document = self.kept(game_id)
        return document["variant"], [e for e in document["events"] if e["version"] > version]

    def caller(self, token: str | None) -> Caller:
        """The request's caller; a player key or a granted token is looked up once a
        request (a revoked one is refused from the next request on)."""
        known = self.request_callers()
        if known is None or token is None:
            return self._look_up(token)
        if token not in known:
            known[token] = self._look_up(token)
        return known[token]

    def look_up(self, token: str | None) -> Caller:
        """The caller ``token`` names now, looked up afresh (never a request's copy)."""
        return self._look_up(token)

    def _look_up(self, token: str | None) -> Caller:
        archive = self.archive
        if token is not None and scopes.is_granted_token(token):
            held = None if archive is None else self._known_grants.get(
                token, lambda: archive.grants.holder(token)
            )  # fmt: skip
            if held is None:
                raise Refusal("unauthorized", "this token is unknown, expired or was revoked")
            return Caller(token, held.player_id, held.scopes)
        if token is None or not is_player_key(token):
            return Caller(token)
        player = None if archive is None else self._known_keys.get(
            token, lambda: archive.accounts.player_of(token)
        )  # fmt: skip
        if player is None:
            raise Refusal("unauthorized", "this player key is unknown or was revoked")
        return Caller(token, player)

    def acting_seat(self, record: GameRecord, caller: Caller) -> int:
        """The caller's seat, for acting in the game or talking at it: refused
        without a token, with another's, and for a seat whose account was closed."""
        seat = own_seat(record, caller)
        self.refuse_closed(record.seats[seat].player_id)
        return seat

    def refuse_closed(self, player_id: str | None) -> None:
        """403 ``account_closed`` when ``player_id`` names a closed (or deleted) account."""
        if player_id is not None and self.archive is not None and self._is_closed(player_id):
            raise Refusal("account_closed", "this seat's account was closed")

    def _is_closed(self, player_id: str) -> bool:
        def look() -> bool:
            assert self.archive is not None
            found = self.archive.accounts.player(player_id)
            return found is None or bool(found["closed"])

        def known() -> bool:
            try:
                return self._known_closed.get(player_id, look)
            except Unavailable:  # never asked here: its seat was taken open, and a
                return False  # closing, which needs the database, cannot come meanwhile

        return self._closed.get(player_id, known)

    @staticmethod
    def game(record: GameRecord) -> Game:
        """The record's game, as our own store kept it (not checked again)."""
        return restore_game(record.game)

    def update(self, game_id: str, decide: Decide, wake: bool = True) -> JSON:
        """A compare-and-set through the store, then a word to the runners if the game
        needs one (``wake=False``: the caller is the runner that holds the game)."""
        written: list[GameRecord] = []

        def deciding(record: GameRecord) -> tuple[Change, JSON]:
            change, result = decide(record)
            if change.record is not None:
                change.record = replace(change.record, updated_at=self.clock())
                if record.status == "waiting" and change.record.status == "active":
                    change.record = self._starting(change.record)
                change.archive = archivable(record, change.record)
            written[:] = [] if change.record is None else [change.record]
            return change, result

        try:
            result = self.store.update(game_id, deciding)
        except KeyError:
            raise not_found(game_id) from None
        if written and wake:
            self.schedule(written[0])
        if written and written[0].ended:
            self.jobs.ended()
        return result

    def create(self, record: GameRecord, events: list[Event]) -> GameRecord | None:
        """Store a new game (one that starts at once is checked as every start is);
        the record stored, or None if a game of its id exists already."""
        if record.status == "active":
            record = self._starting(record)
        return record if self.store.create(record, events) else None

    def _starting(self, record: GameRecord) -> GameRecord:
        """A game about to start: a rated one within its pairs' daily limit, or unrated."""
        return within_limit(self.store, record, self.game(record), self.clock())

    def schedule(self, record: GameRecord) -> None:
        """Tell the runners when a write left the game needing one (its entry in the
        work queue is already written, with the record)."""
        if record.due_at is not None and record.status == "active":
            self.jobs.wake()


def own_seat(record: GameRecord, caller: Caller) -> int:
    """The caller's seat, refused without a token or with another's."""
    seat = seat_of(record, caller)
    if seat is None:
        raise Refusal("unauthorized", "send this seat's token as 'Bearer <token>'")
    return seat


def seat_of(record: GameRecord, caller: Caller) -> int | None:
    """The seat the caller's token holds, or that its player key is linked to (None:
    no token, a spectator); refused if it holds none."""
    if caller.token is None and caller.player_id is None:
        return None
    for i, seat in enumerate(record.seats):
        if caller.token is not None and matches(caller.token, seat.token):
            return i
        if caller.player_id is not None and seat.player_id == caller.player_id:
            return i
    raise Refusal("unauthorized", "this token belongs to no seat of this game")

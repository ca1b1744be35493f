"""Ratings that mean something: two accounts rate at most ``MOST_A_DAY`` games
together in ``WINDOW_S``.

A rated game is counted for each pair of accounts on opposing sides the moment
it starts (the store's ``rated_pairs``, by game id, so a decision made again
counts it once). Past a pair's limit the game is played unrated, and its record
says why (``unrated``: ``pair_limit``) before anyone moves; a challenge between
a pair at its limit says so when it is shown. A game that ends before each side
made five moves of its own rates nobody (``competition.ratings``): archived, it
gives its count back (``unused``), so aborted openings cost a pair nothing.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from ..engine import Game
from ..model.record import JSON, GameRecord
from ..store import GameStore
from .changes import side_of

MOST_A_DAY = 3
WINDOW_S = 86_400.0
PAIR_LIMIT = "pair_limit"


def pair(a: str, b: str) -> str:
    """Two accounts, in one order."""
    return ":".join(sorted((a, b)))


def pairs_of(record: GameRecord, game: Game) -> list[str]:
    """Each pair of the game's accounts that sit on opposing sides."""
    return _opposed([(side_of(game, s), seat.player_id) for s, seat in enumerate(record.seats)])


def pairs_in(document: JSON) -> list[str]:
    """``pairs_of`` a record document (an ended game)."""
    return _opposed([(s["seat"] if s.get("team") is None else s["team"], s.get("player_id"))
                     for s in document["seats"]])  # fmt: skip


def _opposed(seated: list[tuple[int, str | None]]) -> list[str]:
    """The pairs of accounts among ``(side, account)`` on different sides."""
    accounts = [(side, who) for side, who in seated if who is not None]
    found = {pair(a, b) for (side_a, a), (side_b, b) in combinations(accounts, 2)
             if side_a != side_b and a != b}  # fmt: skip
    return sorted(found)


def within_limit(store: GameStore, record: GameRecord, game: Game, now: float) -> GameRecord:
    """A rated game that starts now: counted for each of its pairs, or, when one of
    them has reached its limit, played unrated (and saying why)."""
    if not record.rated:
        return record
    pairs = pairs_of(record, game)
    if not pairs or store.rated_pairs.claim(record.id, pairs, now, MOST_A_DAY, WINDOW_S):
        return record
    return replace(record, rated=False, unrated=PAIR_LIMIT)


def unused(store: GameStore, document: JSON) -> None:
    """An ended rated game that rated nobody (a side made fewer than five moves of
    its own, or it was aborted) gives its pairs' counts back."""
    pairs = pairs_in(document)
    if pairs:
        store.rated_pairs.release(document["id"], pairs)


def at_limit(store: GameStore, a: str, b: str, now: float) -> bool:
    """Whether two accounts began ``MOST_A_DAY`` rated games together lately."""
    return store.rated_pairs.count(pair(a, b), now, WINDOW_S) >= MOST_A_DAY

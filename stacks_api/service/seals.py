"""Duplicate boards closed to everyone but their own seats.

Every game of a duplicate group (a round of a duplicate event, or the games of a
duplicate challenge) is dealt the same cards: whoever saw one table's cards would
know the others'. So while any game of the group is still played, each game shows
nothing of itself (its view, events, record, replay, chat, analysis, result) to
anyone but the people seated in it, anonymous spectators and the group's other
players included, and it stays in the live store: the archive, and with it
every history, rating and listing, learns of it only once the group is over.

Its own seats see it end, but not the seed that dealt it (in their view, their
events and their record), nor a replay or an analysis (both re-deal from the
seed): that seed dealt the group's other tables too, and is revealed when the last
of them has ended. So a duplicate board's secrets are never written into its
events or views (``changes``, ``views``): what serves them adds them once its
group is over (``Play``), and whatever forgets to shows too little, never too much.
"""

from __future__ import annotations

from ..model.record import GameRecord
from ..model.refusals import Refusal
from .table import Caller, Table, seat_of


def closed(table: Table, record: GameRecord) -> bool:
    """Whether the game is a duplicate board whose group is still being played."""
    group = record.duplicate
    if not group:
        return False
    if not record.ended:
        return True
    if "tournament" in group:
        archive = table.archive
        found = None if archive is None else archive.tournaments.get(group["tournament"])
        return found is not None and not found.round_over(group["round"])
    return any(not _over(table, other) for other in group.get("games", ()) if other != record.id)


def require_open(table: Table, record: GameRecord, caller: Caller, seats_too: bool = False) -> bool:
    """Whether the game is closed; then refuse anyone but its own seats (and them
    too with ``seats_too``: what would re-deal its cards)."""
    if not closed(table, record):
        return False
    try:
        seat = seat_of(record, caller)
    except Refusal:  # a token of no seat here
        seat = None
    if seat is None:
        raise Refusal("duplicate_closed", "this game is a duplicate board: it shows nothing "
                      "to anyone but its own players until every table dealt the same cards "
                      "has ended")  # fmt: skip
    if seats_too:
        raise Refusal("duplicate_closed", "a duplicate board's replay and analysis re-deal "
                      "its cards from the seed, which is revealed once every table dealt "
                      "the same cards has ended")  # fmt: skip
    return True


def _over(table: Table, game_id: str) -> bool:
    record = table.store.load(game_id)
    return record is None or record.ended  # gone from the live store: archived, so over

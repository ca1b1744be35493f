"""A player's name in the games the archive keeps, rewritten: when an operator
renames the account, or its player deletes it (the seat then shows
``DELETED_NAME``). The seats' rows and the record documents (their seats,
``joined`` events and chat lines) change together, inside the caller's
transaction. Names are
not part of what ``verify`` checks, so a rewritten record still verifies.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, or_, select, update

from ..model.record import JSON
from .models import ArchivedGame, GameSeat, Player
from .packing import pack, unpack

DELETED_NAME = "deleted player"


def rename_seats(
    connection: Connection, player_id: str, name: str, games: Iterable[str] | None = None
) -> int:
    """Give the player's seats ``name`` in every archived game (or in ``games``);
    how many games changed."""
    query = select(GameSeat.game_id, GameSeat.seat).where(GameSeat.player_id == player_id)
    if games is not None:
        query = query.where(GameSeat.game_id.in_(list(games)))
    seats: dict[str, set[int]] = {}
    for row in connection.execute(query):
        seats.setdefault(row.game_id, set()).add(row.seat)
    for game_id, mine in seats.items():
        blob = connection.scalar(select(ArchivedGame.document).where(ArchivedGame.id == game_id))
        if blob is not None:
            document = _renamed(unpack(blob), mine, name)
            connection.execute(
                update(ArchivedGame)
                .where(ArchivedGame.id == game_id)
                .values(document=pack(document))
            )
    if seats:
        connection.execute(
            update(GameSeat).where(GameSeat.player_id == player_id,
                                   GameSeat.game_id.in_(list(seats))).values(name=name)
        )  # fmt: skip
    return len(seats)


def settle_names(connection: Connection, games: dict[str, float], players: set[str]) -> None:
    """Newly archived ``games`` (id: when each began) with seats of ``players``: a
    deleted player's seat shows ``DELETED_NAME``, and a seat of a game that began
    before its account was renamed takes the new name."""
    rows = connection.execute(
        select(Player.id, Player.name, Player.deleted_at, Player.renamed_at).where(
            Player.id.in_(list(players)),
            or_(Player.deleted_at.is_not(None), Player.renamed_at.is_not(None)),
        )
    ).all()
    for row in rows:
        if row.deleted_at is not None:
            rename_seats(connection, row.id, DELETED_NAME, games)
        else:
            older = [g for g, began in games.items() if began < row.renamed_at]
            if older:
                rename_seats(connection, row.id, row.name, older)


def _renamed(document: JSON, seats: set[int], name: str) -> JSON:
    """The document with ``seats`` named ``name``: the seats, their ``joined`` events
    and the lines of chat they said."""
    for seat in document.get("seats", []):
        if seat.get("seat") in seats:
            seat["name"] = name
    for event in document.get("events", []):
        said = event.get("type") == "chat" and "spectator" not in event
        if (event.get("type") == "joined" or said) and event.get("seat") in seats:
            event["name"] = name
    return document

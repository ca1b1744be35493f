"""A tournament, its entries and its rounds' tables as the archive keeps them, and
what of them everyone may see."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .record import JSON

# Statuses a tournament ends in: nothing about it changes any more.
ENDED = ("finished", "cancelled")


@dataclass(frozen=True)
class Entry:
    """A person (``player_id``) or a creator's bot (``bot``: its level) in a
    tournament; ``entry`` names it in the tables."""

    entry: str
    player_id: str | None
    bot: str | None
    name: str
    rating: float
    joined_at: float = 0.0
    withdrawn_at: float | None = None

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None

    def to_json(self) -> JSON:
        return asdict(self)


@dataclass(frozen=True)
class Board:
    """One table of a round: its entries in seat order, and its game (None: a bye,
    scored when it is made). The server seed deals the game and stays secret until
    the game's record shows it."""

    round: int
    board: int
    seats: tuple[str, ...]
    game_id: str | None
    server_seed: str | None
    made_at: float = 0.0
    ended_at: float | None = None
    points: tuple[float, ...] | None = None  # each seat's, once the game has ended

    @property
    def bye(self) -> bool:
        return self.game_id is None

    def shown(self) -> JSON:
        return {
            "round": self.round, "board": self.board, "seats": list(self.seats),
            "game_id": self.game_id, "made_at": self.made_at, "ended_at": self.ended_at,
            "points": None if self.points is None else list(self.points),
        }  # fmt: skip


@dataclass(frozen=True)
class Tournament:
    """A swiss (``rounds``) or an arena (``minutes``); read whole, with its entries
    (in the order they joined) and every table so far (by round, then board)."""

    id: str
    name: str
    creator: str
    variant: str
    system: str  # swiss or arena
    rounds: int | None
    minutes: int | None
    players: int  # a table's
    rated: bool
    turn_seconds: float
    days: int | None
    max_players: int
    starts_at: float
    status: str = "upcoming"  # then running, finished or cancelled
    round: int = 0  # the latest round made (an arena's latest wave)
    created_at: float = 0.0
    ended_at: float | None = None
    entries: tuple[Entry, ...] = ()
    tables: tuple[Board, ...] = ()

    @property
    def ended(self) -> bool:
        return self.status in ENDED

    def active(self) -> list[Entry]:
        """The entries not withdrawn."""
        return [e for e in self.entries if e.active]

    def columns(self) -> JSON:
        """The tournament's own fields, as a listing shows them (no entries, no tables)."""
        own = asdict(self)
        del own["entries"], own["tables"]
        return own

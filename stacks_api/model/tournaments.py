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
    entropy: str | None = None  # a person's, mixed into a duplicate event's deals

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
    # A duplicate table's comparison, once its game has ended: the game's moves
    # ("turns") and each seat's sequences or chips at the end ("progress").
    detail: JSON | None = None

    @property
    def bye(self) -> bool:
        return self.game_id is None

    def shown(self, hidden: bool = False) -> JSON:
        """As everyone sees it; ``hidden``: without its result (a duplicate round's
        results stay closed until the round is over)."""
        ended = self.points is not None and not hidden
        return {
            "round": self.round, "board": self.board, "seats": list(self.seats),
            "game_id": self.game_id, "made_at": self.made_at,
            "ended_at": self.ended_at if ended else None,
            "points": list(self.points) if ended and self.points is not None else None,
        }  # fmt: skip


@dataclass(frozen=True)
class Tournament:
    """A swiss or a duplicate event (``rounds``) or an arena (``minutes``); read
    whole, with its entries (in the order they joined) and every table so far (by
    round, then board). A duplicate event's ``seeds`` deal its rounds, one each,
    drawn when it is made and kept secret until each round is over."""

    id: str
    name: str
    creator: str
    variant: str
    system: str  # swiss, arena or duplicate
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
    seeds: tuple[str, ...] = ()

    @property
    def ended(self) -> bool:
        return self.status in ENDED

    def active(self) -> list[Entry]:
        """The entries not withdrawn."""
        return [e for e in self.entries if e.active]

    @property
    def duplicate(self) -> bool:
        return self.system == "duplicate"

    def columns(self) -> JSON:
        """The tournament's own fields, as a listing shows them (no entries, no tables,
        no seeds)."""
        own = asdict(self)
        del own["entries"], own["tables"], own["seeds"]
        return own

    def round_over(self, number: int) -> bool:
        """Whether round ``number`` has been made and every one of its games has ended."""
        tables = [t for t in self.tables if t.round == number]
        return bool(tables) and all(t.points is not None for t in tables)

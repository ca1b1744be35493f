"""A game as the server keeps it: its seats, the engine's state, its result and its
timestamps, as frozen dataclasses with one JSON form.

A record is built by the service (from requests it has checked) or read back
from our own store, where the service wrote it: ``from_json`` trusts what it
reads and checks nothing. A change is a new record (``dataclasses.replace``),
never an edit in place, so a decision that is thrown away (a lost race, a
refusal) leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

JSON = dict[str, Any]

# aborted: ended by a person at the table before every side had made two moves.
Status = Literal["waiting", "active", "finished", "cancelled", "aborted"]
STATUSES: tuple[Status, ...] = ("waiting", "active", "finished", "cancelled", "aborted")
ENDED: frozenset[str] = frozenset({"finished", "cancelled", "aborted"})

# free: anyone may join; reserved: held for the player of the game before (a rematch);
# human: a person's; away: a person's whose clock ran out 3 times in a row, played by
# the server until the token acts again; left: the person left, a bot plays on;
# resigned: the person's side gave the game up, a bot plays on (scored as lost).
SeatState = Literal["free", "reserved", "human", "bot", "away", "left", "resigned"]
# The states of a seat whose person has given it up: the stand-in plays it, scored as lost.
GONE: frozenset[str] = frozenset({"left", "resigned"})
# The bot that plays a seat whose person is away or has left.
STAND_IN = "greedy"


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: free, a person's (``token`` is the hash of their token) or a bot's.
    ``timeouts`` counts the person's turns in a row that the clock ran out on;
    ``previous`` is the hash of the token that held the seat in the game before (a
    rematch: that token claims the seat); ``player_id`` the account the seat is
    linked to (joined with a player key), whose keys act for the seat too, and
    ``rating`` that player's rating in the variant when they sat down."""

    state: SeatState
    name: str | None = None
    bot: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)  # the bot's
    token: str | None = None
    timeouts: int = 0
    previous: str | None = None
    player_id: str | None = None
    rating: float | None = None

    @property
    def played_by_server(self) -> bool:
        """Whether the server moves for this seat (a bot, or a stand-in for a person)."""
        return self.state in ("bot", "away", "left", "resigned")

    @property
    def player(self) -> str | None:
        """The bot that moves for the seat when the server does."""
        return self.bot if self.state == "bot" else STAND_IN if self.played_by_server else None

    @classmethod
    def for_bot(cls, bot: str, options: Mapping[str, Any]) -> Seat:
        return cls("bot", name=f"{bot} bot", bot=bot, options=dict(options))

    def taken_by(self, name: str | None, token_hash: str) -> Seat:
        return replace(self, state="human", name=name, token=token_hash, timeouts=0)

    def to_json(self) -> JSON:
        return {
            "state": self.state,
            "name": self.name,
            "bot": self.bot,
            "options": dict(self.options),
            "token": self.token,
            "timeouts": self.timeouts,
            "previous": self.previous,
            "player_id": self.player_id,
            **({} if self.rating is None else {"rating": self.rating}),
        }

    @classmethod
    def from_json(cls, data: JSON) -> Seat:
        # Records written before seats had a state say it by which keys are set.
        state: SeatState = data.get("state") or (
            "bot" if data["bot"] else "human" if data["token"] else "free"
        )
        return cls(state, data["name"], data["bot"], data["options"], data["token"],
                   data.get("timeouts", 0), data.get("previous"),
                   data.get("player_id"), data.get("rating"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended: each seat's score (1 won, 0 lost, 0.5 a draw) and
    the engine's own account of it."""

    scores: tuple[float, ...]
    detail: JSON

    def to_json(self) -> JSON:
        return {"scores": list(self.scores), "detail": self.detail}

    @classmethod
    def from_json(cls, data: JSON) -> Result:
        return cls(tuple(data["scores"]), data["detail"])


@dataclass(frozen=True, slots=True)
class Fairness:
    """How the deal was made (``stacks_api.model.fairness``): ``chosen`` (the creator gave a
    seed or a position) or ``commit-reveal-v2``, whose server seed and per-seat
    entropy stay secret until the game is over. ``dealer`` is a dealer fixed in
    advance (a rematch passes the deal on), if any. A chosen deal keeps the ``seed``
    and ``position`` it was made from, shown once the game is over (so that it can
    be replayed)."""

    scheme: str
    commitment: str | None = None
    server_seed: str | None = None
    entropy: tuple[str | None, ...] = ()
    dealer: int | None = None
    seed: int | None = None
    position: JSON | None = None

    def public(self, ended: bool) -> JSON:
        """What anyone may see: the commitment while the game runs, everything after."""
        if self.commitment is None:
            chosen: JSON = {"scheme": self.scheme}
            if ended and self.seed is not None:
                chosen.update(seed=self.seed, position=self.position)
            return chosen
        shown: JSON = {"scheme": self.scheme, "commitment": self.commitment,
                       "dealer": self.dealer}  # fmt: skip
        if ended:
            shown.update(server_seed=self.server_seed, entropy=list(self.entropy))
        return shown

    def to_json(self) -> JSON:
        return {"scheme": self.scheme, "commitment": self.commitment,
                "server_seed": self.server_seed, "entropy": list(self.entropy),
                "dealer": self.dealer, "seed": self.seed, "position": self.position}  # fmt: skip

    @classmethod
    def from_json(cls, data: JSON) -> Fairness:
        return cls(data["scheme"], data["commitment"], data["server_seed"],
                   tuple(data["entropy"]), data["dealer"], data.get("seed"),
                   data.get("position"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything the server knows of one game. ``version`` counts its changes; each
    change's public events carry the version it made. ``to_move``, ``deadline`` and
    ``due_at`` copy what the engine's state says (so waiting and scheduling need not
    load the game): ``due_at`` is when a background worker is next needed (now if the
    server moves for a seat to move, else the earlier of the engine's deadline and the
    turn clock's, else None). ``rematch`` is the next game of the same table, and
    ``rematch_of`` the game before. ``cancel_agreed``: the seats whose person agreed
    to cancel the game after its deal (it is cancelled once every person has)."""

    id: str
    variant: str
    players: int
    status: Status
    version: int
    practice: bool
    created_at: float
    updated_at: float
    host: str  # the hash of the host's token
    bot_seed: int
    seats: tuple[Seat, ...]
    game: JSON  # the engine's ``to_dict``
    to_move: tuple[int, ...] = ()
    deadline: float | None = None
    due_at: float | None = None
    result: Result | None = None
    turn_deadline: float | None = None
    rematch: str | None = None
    rematch_of: str | None = None
    fairness: Fairness | None = None  # None: a game from before deals were committed
    cancel_agreed: tuple[int, ...] = ()
    unlisted: bool = False  # a private table: in no public lobby listing
    rated: bool = False  # its players' ratings change when it ends
    # The tournament and round it was made for ({"id", "round"}), if any.
    tournament: JSON | None = None
    # Lines of chat said so far: at the table, among the spectators.
    chat_lines: tuple[int, int] = (0, 0)
    # A days game: each person has this many days a turn (``model.pace``), else None.
    days: int | None = None
    # Why a game asked for as rated is played unrated (``pair_limit``), else None.
    unrated: str | None = None
    # A duplicate board: its group, {"tournament", "round"} or {"match", "games"}; it
    # is closed to all but its own seats until every game of the group has ended.
    duplicate: JSON | None = None

    @property
    def compared(self) -> bool:
        """Its result counts beyond the game (a tournament's or a duplicate match's):
        never aborted nor cancelled, and played without hints."""
        return self.tournament is not None or self.duplicate is not None

    @property
    def ended(self) -> bool:
        return self.status in ENDED

    def free_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.state == "free"]

    def reserved_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.state == "reserved"]

    @property
    def full(self) -> bool:
        """Every seat has its player: none open, none held for someone (a rematch)."""
        return all(seat.state not in ("free", "reserved") for seat in self.seats)

    @property
    def strength(self) -> float | None:
        """The mean rating of the people seated with their accounts (None: none)."""
        ratings = [s.rating for s in self.seats if s.rating is not None]
        return sum(ratings) / len(ratings) if ratings else None

    def with_seat(self, index: int, seat: Seat) -> GameRecord:
        """The record with seat ``index`` replaced."""
        return replace(self, seats=(*self.seats[:index], seat, *self.seats[index + 1 :]))

    def human_must_act(self) -> bool:
        """Whether the game waits for a person (or for nobody: it is not active)."""
        if self.status != "active":
            return True
        return any(not self.seats[s].played_by_server for s in self.to_move)

    @property
    def clock(self) -> float | None:
        """The deadline the view shows: the turn clock's, else the engine's."""
        return self.deadline if self.turn_deadline is None else self.turn_deadline

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "variant": self.variant,
            "players": self.players,
            "status": self.status,
            "version": self.version,
            "practice": self.practice,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "host": self.host,
            "bot_seed": self.bot_seed,
            "seats": [seat.to_json() for seat in self.seats],
            "game": self.game,
            "to_move": list(self.to_move),
            "deadline": self.deadline,
            "due_at": self.due_at,
            "result": None if self.result is None else self.result.to_json(),
            "turn_deadline": self.turn_deadline,
            "rematch": self.rematch,
            "rematch_of": self.rematch_of,
            "fairness": None if self.fairness is None else self.fairness.to_json(),
            "cancel_agreed": list(self.cancel_agreed),
            "unlisted": self.unlisted,
            "rated": self.rated,
            "tournament": self.tournament,
            **({"chat_lines": list(self.chat_lines)} if any(self.chat_lines) else {}),
            **({"days": self.days} if self.days else {}),
            **({"unrated": self.unrated} if self.unrated else {}),
            **({"duplicate": self.duplicate} if self.duplicate else {}),
        }

    @classmethod
    def from_json(cls, data: JSON) -> GameRecord:
        """The record our store holds, as the service wrote it (nothing is re-checked)."""
        result, fairness = data.get("result"), data.get("fairness")
        return cls(
            id=data["id"],
            variant=data["variant"],
            players=data["players"],
            status=cast(Status, data["status"]),
            version=data["version"],
            practice=data["practice"],
            created_at=data["created_at"],
            updated_at=data.get("updated_at") or data["created_at"],
            host=data["host"],
            bot_seed=data["bot_seed"],
            seats=tuple(Seat.from_json(s) for s in data["seats"]),
            game=data["game"],
            to_move=tuple(data.get("to_move") or ()),
            deadline=data.get("deadline"),
            due_at=data.get("due_at"),
            result=None if result is None else Result.from_json(result),
            turn_deadline=data.get("turn_deadline"),
            rematch=data.get("rematch"),
            rematch_of=data.get("rematch_of"),
            fairness=None if fairness is None else Fairness.from_json(fairness),
            cancel_agreed=tuple(data.get("cancel_agreed") or ()),
            unlisted=data.get("unlisted", False),
            rated=data.get("rated", False),
            tournament=data.get("tournament"),
            chat_lines=tuple(data.get("chat_lines") or (0, 0)),
            days=data.get("days"),
            unrated=data.get("unrated"),
            duplicate=data.get("duplicate"),
        )


@dataclass(frozen=True, slots=True)
class HistoryQuery:
    """A player's history, filtered; ``after`` is where a page starts (the
    ``(ended_at, game_id)`` of the previous page's last game)."""

    player_id: str
    variant: str | None = None
    since: float | None = None
    until: float | None = None
    result: str | None = None  # won, lost or drawn
    opponent: str | None = None
    after: tuple[float, str] | None = None


@dataclass(frozen=True, slots=True)
class ArchivedSeat:
    """One seat of an ended game as the archive indexes it."""

    seat: int
    player_id: str | None
    name: str | None
    bot: str | None
    score: float | None  # None: the game was cancelled


@dataclass(frozen=True, slots=True)
class Archived:
    """An ended game as the archive keeps it: its record document (``document``,
    what ``GET /games/{id}/record`` answers, from which everything else about the
    game is rebuilt) and its seats (what histories are read by)."""

    id: str
    variant: str
    status: Status
    players: int
    rated: bool
    created_at: float
    ended_at: float
    document: JSON
    seats: tuple[ArchivedSeat, ...]

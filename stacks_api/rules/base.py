"""What every variant shares: the façade, the order of refusals, the result."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeGuard

from typing_extensions import TypeVar

from .errors import IllegalAction, SetupError, bad_action
from .rng import Rng

Action = dict[str, Any]
Event = dict[str, Any]
JSON = dict[str, Any]
# A variant's fixed setup (players, options) and its validated position; callers of
# the façade need neither, so a bare ``Game`` means any of them.
SetupT = TypeVar("SetupT", default=Any)
PositionT = TypeVar("PositionT", default=Any)
# Option ``turn_seconds``, the same in every variant: how long a person has for a
# turn. The server's runners play the turn of a seat that runs out (the engine
# only keeps the number); a variant that waits for answers may bound its own
# waits by it.
TURN_SECONDS = (5, 86_400)


def turn_clock(options: JSON | None) -> tuple[JSON | None, float | None]:
    """The options without ``turn_seconds``, and ``turn_seconds`` (checked) or None."""
    if not options or "turn_seconds" not in options:
        return options, None
    rest = {k: v for k, v in options.items() if k != "turn_seconds"}
    seconds = options["turn_seconds"]
    low, high = TURN_SECONDS
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not (low <= seconds <= high)
    ):
        raise SetupError(f"turn_seconds must be a number from {low} to {high}, not {seconds!r}")
    return rest, seconds


class Game(ABC, Generic[SetupT, PositionT]):
    """One game of any variant, driven only through this façade."""

    variant: ClassVar[str]
    # The action keys each type may carry; anything else is malformed.
    action_keys: ClassVar[dict[str, frozenset[str]]]

    players: int
    options: JSON
    rng: Rng
    result: JSON | None
    setup: SetupT
    dealer: int | None
    log: list[Event]  # how the game began (public)
    turn_seconds: float | None = None

    @abstractmethod
    def __init__(self, setup: SetupT, rng: Rng) -> None:
        """An empty table for ``setup``; ``new`` and ``from_dict`` fill it."""

    @classmethod
    def new(
        cls,
        players: object,
        seed: int,
        options: JSON | None,
        position: object,
        dealer: int | None = None,
    ) -> Self:
        """A fresh game: dealt with the seeded RNG (by ``dealer``, if given, instead of
        one chosen by the rules), or started from ``position``."""
        rest, seconds = turn_clock(options)
        game = cls(cls._resolve(players, rest), Rng.from_seed(seed))
        game._keep_clock(seconds)
        if dealer is not None and not (is_int(dealer) and 0 <= dealer < game.players):
            raise SetupError(f"dealer must be a seat from 0 to {game.players - 1}", "dealer")
        if position is None:
            game._deal(dealer)
        else:
            game._load(cls._read(position, game.setup, game.rng))
        return game

    @classmethod
    def from_dict(cls, data: JSON, trusted: bool = False) -> Self:
        """Rebuild a game from ``to_dict`` output, re-checking its state like a position;
        ``trusted``: output we wrote ourselves, taken as it is."""
        rest, seconds = turn_clock(data["options"])
        game = cls(cls._resolve(data["players"], rest), Rng(data["rng"]))
        game._keep_clock(seconds)
        game._restore(data, trusted)
        game.result, game.dealer, game.log = data["result"], data["dealer"], data["log"]
        return game

    def _keep_clock(self, seconds: float | None) -> None:
        if seconds is not None:
            self.turn_seconds = seconds
            self.options = {**self.options, "turn_seconds": seconds}

    @abstractmethod
    def _restore(self, data: JSON, trusted: bool) -> None:
        """Take the variant's own part of ``to_dict`` output (see ``_saved``); read it
        without checks when ``trusted``."""

    @classmethod
    @abstractmethod
    def _resolve(cls, players: object, options: JSON | None) -> SetupT:
        """Check the player count and options; the variant's fixed setup."""

    @classmethod
    @abstractmethod
    def _read(cls, position: object, setup: SetupT, rng: Rng) -> PositionT:
        """Validate a position strictly."""

    @abstractmethod
    def _deal(self, dealer: int | None) -> None:
        """Choose the dealer (unless given) and deal, logging what is public."""

    @abstractmethod
    def _load(self, position: PositionT) -> None:
        """Take the parts of a validated position."""

    def _finish(self, result: JSON, events: list[Event]) -> None:
        self.result = result
        events.append({"type": "game_over", "result": result})

    @property
    def status(self) -> str:
        return "active" if self.result is None else "finished"

    if TYPE_CHECKING:  # a property or a plain attribute, as each variant finds quicker

        @property
        def to_move(self) -> list[int]:
            """Seats that may act now."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every distinct legal action for ``seat``; ``[]`` when it may not act."""

    @abstractmethod
    def view(self, seat: int | None = None) -> JSON:
        """What ``seat`` may see (``None``: a spectator)."""

    def team_of(self, seat: int) -> int | None:
        """The team ``seat`` plays for, in a variant of teams (else None)."""
        return None

    def outcome(self) -> list[float] | None:
        """Per seat, 1 for a win, 0 for a loss, 0.5 for a draw; None while the game goes on."""
        return None if self.result is None else seat_scores(self.result, self.players, self.team_of)

    def copy(self) -> Self:
        """An independent copy of the whole state, for searches that try moves on it."""
        return copy.deepcopy(self)

    def to_dict(self) -> JSON:
        """The full state, secrets included, as plain JSON."""
        return {
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "rng": self.rng.state,
            "result": self.result,
            "dealer": self.dealer,
            "log": self.log,
            **self._saved(),
        }

    @abstractmethod
    def _saved(self) -> JSON:
        """The variant's own part of ``to_dict``: its position and the rest of its state."""

    @abstractmethod
    def _apply(self, seat: int, action: Action, now: float | None) -> list[Event]:
        """Apply an action already checked for shape, game over and turn."""

    def apply(self, seat: int, action: Action, now: float | None = None) -> list[Event]:
        """Validate and apply ``action`` for ``seat``; return the public events.

        ``now`` is the server's clock (seconds); the engine only uses it to stamp
        deadlines (a variant that waits for answers). Refusals come in the order
        bad_action → game_over → not_your_turn → illegal_action.
        """
        if not (type(seat) is int and 0 <= seat < self.players and self._prebuilt(action)):
            self._check_shape(seat, action)
        if self.result is not None:
            raise IllegalAction("game_over", "the game is over")
        if not self._may_act(seat):
            raise IllegalAction("not_your_turn", f"it is not seat {seat}'s turn to act")
        return self._apply(seat, action, now)

    def _prebuilt(self, action: object) -> bool:
        """A quick yes for an action equal to one ``legal_actions`` hands out (its shape
        is right); no means ``_check_shape`` looks at it field by field."""
        return False

    def _may_act(self, seat: int) -> bool:
        """Whether ``seat`` is in ``to_move`` (a variant may answer without the list)."""
        return seat in self.to_move

    def expire(self, now: float) -> list[Event]:
        """Close whatever has timed out by ``now`` (nothing, in a variant without deadlines)."""
        return []

    @property
    def deadline(self) -> float | None:
        """When ``expire`` will next have something to close (server clock), if ever."""
        return None

    def _check_shape(self, seat: object, action: object) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise bad_action(f"seat must be a whole number from 0 to {self.players - 1}")
        if not isinstance(action, dict):
            raise bad_action("an action must be a JSON object")
        kind = action.get("type")
        allowed = self.action_keys.get(kind) if type(kind) is str else None
        if allowed is None:
            names = ", ".join(sorted(self.action_keys))
            raise bad_action(f"action type must be one of: {names}")
        if not allowed.issuperset(action):
            unknown = next(key for key in action if key not in allowed)
            raise bad_action(f"unknown field {unknown!r} in a {kind} action")


def seat_scores(result: JSON, players: int, team_of: Callable[[int], int | None]) -> list[float]:
    """A result (``{"winner_seat": s}``, ``{"winner_team": t}`` or ``{"draw": ...}``) as
    each seat's score: 1 for a win, 0 for a loss, 0.5 for a draw."""
    if "draw" in result:
        return [0.5] * players
    if "winner_seat" in result:
        return [1.0 if s == result["winner_seat"] else 0.0 for s in range(players)]
    return [1.0 if team_of(s) == result["winner_team"] else 0.0 for s in range(players)]


def is_int(value: object) -> TypeGuard[int]:
    """True for a real int (JSON booleans are not numbers here)."""
    return type(value) is int

"""Sequence Stacks cards, decks, piles and options (docs/rules.md)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...rules.base import is_int
from ...rules.errors import SetupError

COLORS = ("blue", "red")
LETTER = {"blue": "B", "red": "R"}
SKIP, REVERSE, STEAL_CARD, STEAL_CHIP, BLOCK = (
    "SKIP", "REVERSE", "STEAL_CARD", "STEAL_CHIP", "BLOCK",
)  # fmt: skip
ACTION_CARDS = frozenset({SKIP, REVERSE, STEAL_CARD, STEAL_CHIP, BLOCK})
COLOURED_CARDS = frozenset(f"{c}{n}" for c in "BR" for n in "12345W")
CARD_SET = COLOURED_CARDS | ACTION_CARDS
PILE_COLORS = ("blue", "blue", "red", "red")  # piles 0, 1 blue; 2, 3 red
PILES = len(PILE_COLORS)
PILE_LENGTH = 5
CHIPS_PER_COLOR = 20
HAND_SIZE = 5
MAX_TURNS = 1000
MIN_PLAYERS, MAX_PLAYERS = 2, 6

_FULL_DECK = Counter(
    {
        **{f"{c}{n}": 9 for c in "BR" for n in "12345"},
        "BW": 7,
        "RW": 7,
        SKIP: 3,
        REVERSE: 3,
        STEAL_CARD: 3,
        BLOCK: 3,
        STEAL_CHIP: 4,
    }
)
_TWO_PLAYER_REMOVED = Counter({REVERSE: 3, BLOCK: 1, STEAL_CHIP: 2, STEAL_CARD: 1, SKIP: 1})


MAX_PLAYS_PER_TURN = 100  # docs/rules.md: then only discard (or pass) is legal


def deck_for(players: int) -> list[str]:
    """The sorted deck: 120 cards, or 112 with two players."""
    counts = _FULL_DECK - _TWO_PLAYER_REMOVED if players == 2 else _FULL_DECK
    return sorted(counts.elements())


# Colour and number of each coloured card; wilds have no number, action cards neither.
COLOR_OF: dict[str, str] = {card: "blue" if card[0] == "B" else "red" for card in COLOURED_CARDS}
NUMBER_OF: dict[str, int] = {card: int(card[1]) for card in COLOURED_CARDS if card[1] != "W"}


def fits_pile(card: str, pile_index: int, pile: list[str]) -> bool:
    """Whether a coloured ``card`` may go next on the pile."""
    if COLOR_OF.get(card) != PILE_COLORS[pile_index] or len(pile) >= PILE_LENGTH:
        return False
    number = NUMBER_OF.get(card)
    return number is None or number == len(pile) + 1


def _pile_fit(card: str) -> tuple[int, int, tuple[bool, ...]]:
    """The two piles of the card's colour, and by a pile's length whether the card may
    go next on it (what fits_pile says, worked out once)."""
    first, second = (p for p in range(PILES) if PILE_COLORS[p] == COLOR_OF[card])
    fits = tuple(fits_pile(card, first, [""] * n) for n in range(PILE_LENGTH + 1))
    return first, second, fits


PILE_FIT = {card: _pile_fit(card) for card in COLOURED_CARDS}


def wins(chips: dict[str, int]) -> bool:
    """Five or more chips with at least two of each colour (docs/rules.md)."""
    return winning(chips["blue"], chips["red"])


def winning(blue: int, red: int) -> bool:
    """``wins`` for counts not (yet) in a player's chips."""
    return blue >= 2 and red >= 2 and blue + red >= 5


@dataclass(frozen=True)
class Setup:
    """Players and options of one Stacks game."""

    players: int
    block_window: str
    response_timeout_s: float | None

    def options(self) -> dict[str, Any]:
        return {"block_window": self.block_window, "response_timeout_s": self.response_timeout_s}


def resolve_setup(players: object, options: dict[str, Any] | None) -> Setup:
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError(f"Sequence Stacks is played by 2 to 6 players, not {players}", "players")
    assert isinstance(players, int)
    options = dict(options or {})
    unknown = sorted(set(options) - {"block_window", "response_timeout_s"})
    if unknown:
        raise SetupError(f"unknown option {unknown[0]!r} for stacks")
    mode = options.get("block_window", "all")
    if mode not in ("all", "holders"):
        raise SetupError(f"block_window must be 'all' or 'holders', not {mode!r}")
    timeout = options.get("response_timeout_s")
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout < 1e9
    ):
        raise SetupError(f"response_timeout_s must be a number of seconds above 0, not {timeout!r}")
    return Setup(players, mode, timeout)

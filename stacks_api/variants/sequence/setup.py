"""Player counts, teams, hand sizes, options and the cut for the deal (docs/rules.md)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...rules.base import is_int
from ...rules.errors import SetupError
from ...rules.rng import Rng
from .board import ALL_CARDS, RANKS

HAND_SIZES = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
MOST_PLAYERS = max(HAND_SIZES)
COLORS = ("blue", "green", "red")
CHIP_LETTERS = "BGR"
DECK = ALL_CARDS * 2
OPTION_NAMES = frozenset({"teams", "sequences_to_win"})


@dataclass(frozen=True)
class Setup:
    """The fixed shape of one game: who plays, in how many teams, to how many sequences."""

    players: int
    teams: int
    sequences_to_win: int

    @cached_property  # a frozen dataclass still takes it: it writes the instance's dict
    def seat_teams(self) -> tuple[int, ...]:
        """Each seat's team, by seat."""
        return tuple(self.team_of(seat) for seat in range(self.players))

    @property
    def hand_size(self) -> int:
        return HAND_SIZES[self.players]

    def team_of(self, seat: int) -> int:
        return seat % self.teams

    def options(self) -> dict[str, int]:
        return {"teams": self.teams, "sequences_to_win": self.sequences_to_win}


def _team_choices(players: int) -> tuple[int, ...]:
    if players in (2, 3):
        return (players,)  # everyone plays alone
    if players in (6, 12):
        return (2, 3)
    return (3,) if players == 9 else (2,)


def resolve_setup(players: object, options: dict[str, Any] | None) -> Setup:
    """Check the player count and options; refuse anything docs/rules.md does not allow."""
    if not options and type(players) is int and players in DEFAULT_SETUPS:
        return DEFAULT_SETUPS[players]  # the usual case, checked once (every game asks)
    return _checked_setup(players, options)


def _checked_setup(players: object, options: dict[str, Any] | None) -> Setup:
    if not is_int(players) or players not in HAND_SIZES:
        counts = ", ".join(map(str, HAND_SIZES))
        raise SetupError(f"Sequence is played by {counts} players, not {players}", "players")
    assert isinstance(players, int)
    options = dict(options or {})
    unknown = sorted(set(options) - OPTION_NAMES)
    if unknown:
        raise SetupError(f"unknown option {unknown[0]!r} for sequence")
    choices = _team_choices(players)
    teams = options.get("teams", choices[0])
    if not is_int(teams) or teams not in choices:
        allowed = " or ".join(map(str, choices))
        raise SetupError(f"{players} players play in {allowed} teams, not {teams}")
    needed = options.get("sequences_to_win", 2 if teams == 2 else 1)
    if not is_int(needed) or not 1 <= needed <= 4:
        raise SetupError(f"sequences_to_win must be a whole number from 1 to 4, not {needed}")
    return Setup(players, teams, needed)


DEFAULT_SETUPS = {players: _checked_setup(players, None) for players in HAND_SIZES}


# Rank for the cut: aces high, jacks between ten and queen, suits ignored.
CUT_RANKS = {card: RANKS.index(card[0]) for card in ALL_CARDS}


def cut_for_deal(rng: Rng, players: int) -> tuple[int, list[dict[str, Any]]]:
    """Simulate the cut: each seat draws without replacement, lowest deals, ties cut again.

    Returns the dealer and the public log of every round of the cut.
    """
    deck, left = rng.shuffled_from_end(list(DECK)), len(DECK)
    cutting = list(range(players))
    rounds: list[dict[str, Any]] = []
    while True:
        if left < len(cutting):  # only after absurdly many ties; keep cutting anyway
            deck, left = rng.shuffled_from_end(list(DECK)), len(DECK)
        left -= len(cutting)
        cards: list[dict[str, Any]] = []
        low, lowest = len(RANKS), []  # the lowest rank so far and the seats that cut it
        for seat in cutting:
            card = next(deck)
            cards.append({"seat": seat, "card": card})
            rank = CUT_RANKS[card]
            if rank < low:
                low, lowest = rank, [seat]
            elif rank == low:
                lowest.append(seat)
        rounds.append({"type": "cut", "cards": cards})
        if len(lowest) == 1:
            return lowest[0], rounds
        cutting = lowest

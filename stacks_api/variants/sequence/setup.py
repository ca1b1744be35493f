"""Player counts, teams, hand sizes, options and the cut for the deal (docs/rules.md)."""

from __future__ import annotations

from dataclasses import dataclass
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
        cards: list[dict[str, Any]] = [{"seat": seat, "card": next(deck)} for seat in cutting]
        left -= len(cutting)
        rounds.append({"type": "cut", "cards": cards})
        ranks = [CUT_RANKS[drawn["card"]] for drawn in cards]
        low = min(ranks)
        cutting = [seat for seat, rank in zip(cutting, ranks, strict=True) if rank == low]
        if len(cutting) == 1:
            return cutting[0], rounds

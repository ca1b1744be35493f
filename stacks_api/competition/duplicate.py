"""Duplicate scoring: pure functions, no I/O.

In a duplicate round every table plays the same deal, so a side is compared only
with the sides that held the same seat of that deal. Each comparison is worth 1
to the better side and 1/2 to each of a tie (matchpoints). Better is, in order:

1. a win over a draw over a loss;
2. a win in fewer turns, a loss in more (a draw: no difference);
3. more progress: sequences made in Sequence, chips collected in Stacks.

A round's top for one side is the number of other sides that held its seat; a
bye scores half of the top of its round (the average). The standings rank the
sum of matchpoints, shown as a share of the most the entry could have scored.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence as Ordered
from dataclasses import dataclass


@dataclass(frozen=True)
class Held:
    """One side's result on one seat of a round's deal."""

    entry: str
    board: int
    seat: int
    score: float  # 1 a win, 0.5 a draw, 0 a loss
    turns: int  # the game's moves, both sides'
    progress: int  # sequences (Sequence) or chips (Stacks) the side had at the end

    def strength(self) -> tuple[float, int, int]:
        """Larger is better (the module's order)."""
        if self.score == 1.0:
            pace = -self.turns
        elif self.score == 0.0:
            pace = self.turns
        else:
            pace = 0
        return (self.score, pace, self.progress)


@dataclass(frozen=True)
class Scored:
    held: Held
    matchpoints: float
    top: int  # the most it could have scored: the other sides on its seat


def matchpoints(seat_group: Ordered[Held]) -> list[Scored]:
    """The sides that held one seat of one deal, each with its matchpoints, best first
    (a tie in the order of their boards)."""
    scored = []
    for held in seat_group:
        mine = held.strength()
        points = 0.0
        for other in seat_group:
            if other is held:
                continue
            theirs = other.strength()
            points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        scored.append(Scored(held, points, len(seat_group) - 1))
    return sorted(scored, key=lambda s: (-s.matchpoints, s.held.board, s.held.seat))


def round_table(results: Iterable[Held]) -> dict[int, list[Scored]]:
    """A round's comparison: for each seat, its sides scored, best first."""
    by_seat: dict[int, list[Held]] = {}
    for held in results:
        by_seat.setdefault(held.seat, []).append(held)
    return {seat: matchpoints(group) for seat, group in sorted(by_seat.items())}


@dataclass
class Standing:
    entry: str
    rating: float
    matchpoints: float = 0.0
    top: float = 0.0
    boards: int = 0
    byes: int = 0

    @property
    def percentage(self) -> float:
        """The share of the most it could have scored, in percent (0 before any)."""
        return round(100.0 * self.matchpoints / self.top, 2) if self.top else 0.0


def standings(
    ratings: dict[str, float], rounds: Iterable[tuple[dict[int, list[Scored]], Ordered[str]]]
) -> list[Standing]:
    """Every entry's sum over the rounds scored so far (each round: its comparison
    and its byes), best first: matchpoints, then percentage, then rating, then id."""
    table = {entry: Standing(entry, rating) for entry, rating in ratings.items()}
    for comparison, byes in rounds:
        tops = [s.top for group in comparison.values() for s in group]
        for group in comparison.values():
            for scored in group:
                standing = table[scored.held.entry]
                standing.matchpoints += scored.matchpoints
                standing.top += scored.top
                standing.boards += 1
        round_top = max(tops, default=0)
        for entry in byes:  # the average of the round
            table[entry].matchpoints += round_top / 2
            table[entry].top += round_top
            table[entry].byes += 1
    return sorted(table.values(),
                  key=lambda s: (-s.matchpoints, -s.percentage, -s.rating, s.entry))  # fmt: skip

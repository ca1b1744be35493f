"""A fast Sequence heuristic, from the seat's view only.

Each five-space window of the board is worth something to a team that holds
chips in it and nobody else does: a placement scores what it adds to its own
windows (a fifth chip makes a sequence) plus what it takes from an opponent's
(a chip in their four-window stops a sequence). Jacks are kept for moves that
make or stop a sequence; one-eyed jacks remove the most dangerous chip.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.sequence.board import CELLS, DIRECTIONS, SIZE

View = dict[str, Any]
Action = dict[str, Any]

# Value of a window by how many of its five spaces a team already holds.
OWN = (1, 4, 20, 120, 100_000)
BLOCK = (0, 2, 12, 90, 50_000)
MAKES_SEQUENCE = OWN[4]
STOPS_SEQUENCE = BLOCK[4]
JACK_RESERVE = 3_000  # a jack spent on anything less costs this much


def _windows() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    windows = []
    for row in range(SIZE):
        for col in range(SIZE):
            for dr, dc in DIRECTIONS:
                cells = [(row + k * dr, col + k * dc) for k in range(5)]
                if all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells):
                    windows.append(tuple(r * SIZE + c for r, c in cells))
    through = tuple(tuple(i for i, w in enumerate(windows) if cell in w) for cell in range(CELLS))
    return tuple(windows), through


WINDOWS, WINDOWS_THROUGH = _windows()


class Board:
    """The board of a view: who holds each cell (-1 empty, 9 corner) and the sequences."""

    def __init__(self, view: View) -> None:
        code = {".": -1, "X": 9, "B": 0, "G": 1, "R": 2}
        self.cells = [code[ch] for row in view["board"] for ch in row]
        self.locked = {r * SIZE + c for seq in view["sequences"] for r, c in seq}
        self.sequences = [
            (self.cells[next(r * SIZE + c for r, c in seq if self.cells[r * SIZE + c] != 9)],
             {r * SIZE + c for r, c in seq})
            for seq in view["sequences"]
        ]  # fmt: skip
        self._holders: list[tuple[int, int] | None] = [None] * len(WINDOWS)

    def holder(self, w: int) -> tuple[int, int]:
        """(team, chips) of window ``w``: -1 if no team holds a chip there, -2 if two do.

        Corners count as chips of every team. Cached: one board is scored many times.
        """
        cached = self._holders[w]
        if cached is None:
            owner, held = -1, 0
            for cell in WINDOWS[w]:
                v = self.cells[cell]
                if v == 9:
                    held += 1
                elif v >= 0:
                    if owner not in (-1, v):
                        owner = -2
                        break
                    owner, held = v, held + 1
            cached = self._holders[w] = (owner, held)
        return cached

    def reuses_a_sequence(self, w: int, team: int) -> bool:
        cells = set(WINDOWS[w])
        return any(t == team and len(cells & s) > 1 for t, s in self.sequences)

    def place_value(self, cell: int, team: int) -> int:
        """What a chip of ``team`` at ``cell`` is worth: own progress plus blocking.

        The hottest loop of the playouts: the cache is read inline, and ``held`` needs
        no bound since a window through an empty cell holds at most four chips."""
        value, holders = 0, self._holders
        for w in WINDOWS_THROUGH[cell]:
            owner, held = holders[w] or self.holder(w)
            if owner == -1 or owner == team:
                if not self.sequences or not self.reuses_a_sequence(w, team):
                    value += OWN[held]
            elif owner >= 0:
                value += BLOCK[held]
        return value

    def danger(self, cell: int) -> int:
        """How much the chip at ``cell`` helps its team: what removing it takes away."""
        owner = self.cells[cell]
        value = 0
        for w in WINDOWS_THROUGH[cell]:
            team, held = self.holder(w)
            if team == owner:
                value += BLOCK[min(4, held)]
        return value


def score(board: Board, action: Action, team: int) -> float:
    if action["type"] == "exchange":
        return 1e9  # a dead card is worth nothing: trade it first
    if action["type"] == "pass":
        return -1e9
    row, col = action["cell"]
    cell = row * SIZE + col
    card = action["card"]
    if card in ("JH", "JS"):
        return board.danger(cell) - JACK_RESERVE
    value = board.place_value(cell, team)
    if card in ("JD", "JC") and value < min(MAKES_SEQUENCE, STOPS_SEQUENCE):
        value -= JACK_RESERVE
    return value


def choose(view: View, rng: random.Random) -> Action:
    """The best-scoring legal action; ties are broken at random."""
    legal = view["you"]["legal_actions"]
    board = Board(view)
    team = view["you"]["team"]
    scored = [(score(board, a, team), rng.random(), i) for i, a in enumerate(legal)]
    action: Action = legal[max(scored)[2]]
    return action

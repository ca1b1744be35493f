"""The printed Sequence board and the geometry the rules need, computed once.

Cells are numbered ``row * 10 + col``; row 0 is the top of the printed layout.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources

SIZE = 10
CELLS = SIZE * SIZE
CORNER_CODE = "XX"
SUITS = "SHDC"
RANKS = "23456789TJQKA"
TWO_EYED_JACKS = frozenset({"JD", "JC"})
ONE_EYED_JACKS = frozenset({"JH", "JS"})
JACKS = TWO_EYED_JACKS | ONE_EYED_JACKS
ALL_CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARD_SET = frozenset(ALL_CARDS)

# Directions whose cell index grows along the line: right, down, down-right, down-left.
# Growing indices mean the start of a window is also its first space in reading order.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _load_layout() -> tuple[str, ...]:
    text = resources.files(__package__).joinpath("board-layout.json").read_text("utf-8")
    rows = json.loads(text)
    return tuple(code for row in rows for code in row)


LAYOUT = _load_layout()
CORNERS = frozenset(i for i, code in enumerate(LAYOUT) if code == CORNER_CODE)
PLAYABLE_CELLS = tuple(i for i in range(CELLS) if i not in CORNERS)


def _card_cells() -> dict[str, tuple[int, ...]]:
    cells: dict[str, list[int]] = {}
    for i, code in enumerate(LAYOUT):
        if code != CORNER_CODE:
            cells.setdefault(code, []).append(i)
    return {code: tuple(found) for code, found in cells.items()}


CARD_CELLS = _card_cells()


def cell_of(row: int, col: int) -> int:
    return row * SIZE + col


def _ray(cell: int, dr: int, dc: int) -> tuple[int, ...]:
    """Up to four cells from ``cell`` (excluded) stepping by (dr, dc)."""
    row, col = divmod(cell, SIZE)
    out = []
    for _ in range(4):
        row, col = row + dr, col + dc
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            break
        out.append(row * SIZE + col)
    return tuple(out)


# RAYS[cell] holds, per direction, (cells behind, cells ahead), nearest first.
RAYS: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = tuple(
    tuple((_ray(cell, -dr, -dc), _ray(cell, dr, dc)) for dr, dc in DIRECTIONS)
    for cell in range(CELLS)
)


def _line(cell: int, dr: int, dc: int) -> tuple[int, ...]:
    """Every cell of the line through ``cell`` along (dr, dc), in index order."""
    found = set()
    for sign in (1, -1):
        row, col = divmod(cell, SIZE)
        while 0 <= row < SIZE and 0 <= col < SIZE:
            found.add(row * SIZE + col)
            row, col = row + sign * dr, col + sign * dc
    return tuple(sorted(found))


# Line patterns: each team's chips (and the corners, which count for every team) are
# also kept per line of the board, for the lines of all four directions, as a small
# integer with bit k set where the line's k-th space (in index order) is held. Whether
# a chip just placed makes five in a row, and how far the run goes each way, is then
# one table lookup per direction, where walking the board took a loop.
LINES = tuple(dict.fromkeys(_line(cell, dr, dc) for dr, dc in DIRECTIONS for cell in range(CELLS)))


def _runs(pattern: int, k: int) -> tuple[int, int] | None:
    """For a line ``pattern`` whose space ``k`` is held: how many held spaces run behind
    it and ahead of it, up to four each way, when that makes five in a row or more."""

    def run(step: int) -> int:
        n = 0
        while n < 4 and k + step * (n + 1) >= 0 and pattern >> (k + step * (n + 1)) & 1:
            n += 1
        return n

    back, ahead = run(-1), run(1)
    return (back, ahead) if back + ahead >= 4 else None


# RUNS_AT[k][pattern]: _runs(pattern, k); FIVE_AT[k][pattern]: 1 where that is a run.
RUNS_AT = tuple(tuple(_runs(pattern, k) for pattern in range(1 << SIZE)) for k in range(SIZE))
FIVE_AT = tuple(tuple(run is not None for run in runs) for runs in RUNS_AT)


# Where a cell sits on one of its lines: the line's index in LINES, the cell's bit in
# the line's pattern, and FIVE_AT and RUNS_AT for its place on the line. A plain tuple,
# not a NamedTuple: the interpreter unpacks only exact tuples the quick way.
Spot = tuple[int, int, tuple[bool, ...], tuple[tuple[int, int] | None, ...]]


def _spots(cell: int) -> tuple[Spot, ...]:
    found = []
    for dr, dc in DIRECTIONS:
        line = _line(cell, dr, dc)
        k = line.index(cell)
        found.append((LINES.index(line), 1 << k, FIVE_AT[k], RUNS_AT[k]))
    return tuple(found)


# SPOTS[cell]: per direction (as DIRECTIONS), the cell's Spot.
SPOTS = tuple(_spots(cell) for cell in range(CELLS))


def line_patterns(cells: Iterable[int]) -> list[int]:
    """The pattern of every line (LINES) when ``cells`` and the corners are held."""
    patterns = [0] * len(LINES)
    for cell in {*cells, *CORNERS}:
        for line, bit, _, _ in SPOTS[cell]:
            patterns[line] |= bit
    return patterns


def is_straight_line(cells: list[int]) -> bool:
    """True when the cells, in index order, are consecutive along one direction."""
    ordered = sorted(cells)
    for dr, dc in DIRECTIONS:
        row, col = divmod(ordered[0], SIZE)
        expected = []
        for k in range(len(ordered)):
            r, c = row + k * dr, col + k * dc
            if not (0 <= r < SIZE and 0 <= c < SIZE):
                break
            expected.append(r * SIZE + c)
        if expected == ordered:
            return True
    return False

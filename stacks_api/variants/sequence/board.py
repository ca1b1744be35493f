"""The printed Sequence board and the geometry the rules need, computed once.

Cells are numbered ``row * 10 + col``; row 0 is the top of the printed layout.
"""

from __future__ import annotations

import json
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


def coords(cell: int) -> list[int]:
    return [cell // SIZE, cell % SIZE]


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


def _bits(cells: tuple[int, ...]) -> int:
    return sum(1 << cell for cell in cells)


CORNER_BITS = _bits(tuple(CORNERS))
# LINE_BITS[cell] holds, per direction, the cells of both rays as one bit mask: a
# sequence through the cell needs four of them held.
LINE_BITS = tuple(tuple(_bits(behind + ahead) for behind, ahead in RAYS[c]) for c in range(CELLS))
STAR_BITS = tuple(sum(lines) for lines in LINE_BITS)  # all four lines at once


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

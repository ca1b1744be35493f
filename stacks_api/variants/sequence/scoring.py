"""Which sequences a chip completes, as docs/rules.md records them."""

from __future__ import annotations

from functools import cache

from .board import RAYS, SPOTS

Window = tuple[int, ...]


def new_sequences(cell: int, patterns: list[int], sequences: list[Window]) -> list[Window]:
    """The windows recorded for a chip a team just placed at ``cell``, given the
    pattern of each line with the team's chips (``board.line_patterns``) and the
    team's sequences so far.

    Per line through the cell: the windows containing it that share at most one
    space with the team's sequences; two (sharing only ``cell``) when both ends
    qualify, else the first in reading order.
    """
    found: list[Window] = []
    for direction, (line, _, _, runs) in enumerate(SPOTS[cell]):
        reach = runs[patterns[line]]
        if reach is None:
            continue  # no five in a row through the cell along this line
        windows = _windows(cell, direction, reach)
        fitting = [w for w in windows if _fits(w, sequences)] if sequences else windows
        if not fitting:
            continue
        if len(fitting) > 1 and fitting[-1][0] == cell and fitting[0][-1] == cell:
            found += (fitting[0], fitting[-1])
        else:
            found.append(fitting[0])
    return found


@cache  # at most 25 reaches for each cell and direction
def _windows(cell: int, direction: int, reach: tuple[int, int]) -> tuple[Window, ...]:
    """The five-space windows holding ``cell`` in a run of held spaces along
    ``direction`` that reaches ``reach`` (spaces behind the cell, spaces ahead), in
    reading order: worked out once, as every game's sequences come from a few."""
    back, ahead = reach
    behind, after = RAYS[cell][direction]
    run = (*behind[:back][::-1], cell, *after[:ahead])
    return tuple(run[s : s + 5] for s in range(max(0, back - 4), min(back, len(run) - 5) + 1))


def _fits(window: Window, sequences: list[Window]) -> bool:
    """Whether ``window`` shares at most one space with each of ``sequences``."""
    cells = set(window)
    return all(len(cells.intersection(other)) <= 1 for other in sequences)

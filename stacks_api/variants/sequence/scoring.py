"""Which sequences a chip completes, as docs/rules.md records them."""

from __future__ import annotations

from .board import RAYS, SPOTS


def new_sequences(
    cell: int, patterns: list[int], sequences: list[tuple[int, ...]]
) -> list[tuple[int, ...]]:
    """The windows recorded for a chip a team just placed at ``cell``, given the
    pattern of each line with the team's chips (``board.line_patterns``) and the
    team's sequences so far.

    Per line through the cell: the windows containing it that share at most one
    space with the team's sequences; two (sharing only ``cell``) when both ends
    qualify, else the first in reading order.
    """
    found: list[tuple[int, ...]] = []
    for (line, _, _, runs), (behind, ahead) in zip(SPOTS[cell], RAYS[cell], strict=True):
        reach = runs[patterns[line]]
        if reach is None:
            continue  # no five in a row through the cell along this line
        back, fwd = reach
        run = (*behind[:back][::-1], cell, *ahead[:fwd])
        windows = [run[s : s + 5] for s in range(max(0, back - 4), min(back, len(run) - 5) + 1)]
        fitting = [w for w in windows if _fits(w, sequences)]
        if not fitting:
            continue
        if len(fitting) > 1 and fitting[-1][0] == cell and fitting[0][-1] == cell:
            found += (fitting[0], fitting[-1])
        else:
            found.append(fitting[0])
    return found


def _fits(window: tuple[int, ...], sequences: list[tuple[int, ...]]) -> bool:
    cells = set(window)
    return all(len(cells.intersection(other)) <= 1 for other in sequences)

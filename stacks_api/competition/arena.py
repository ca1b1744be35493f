"""Arena pairings and points: pure functions, no I/O.

An arena lasts a fixed time, and players are paired again as soon as their game
ends: whoever is free is ranked by arena points, then rating, and each takes
the nearest free player in that ranking who was not their last opponent (nobody
meets the same opponent twice in a row; a player whose only free opponent is
the last one waits for the next). Tables of more than two are cut from the
ranking in order.

Points, as arena players know them: a win is 2, a draw 1, a loss 0. Two wins in
a row put a player on a streak: while it lasts each win is 4 and each draw 2;
anything but a win ends it.
"""

from __future__ import annotations

from collections.abc import Iterable

from .swiss import Entrant, Table, rank, seated

WIN, DRAW = 2, 1
STREAK_AFTER = 2  # wins in a row that start a streak


def pair_free(
    free: list[Entrant], last_opponent: dict[str, str], table_size: int = 2
) -> list[Table]:
    """Tables for the free players (see the module's text); some may be left to wait."""
    ranked = rank(free)
    if table_size != 2:
        whole = len(ranked) - len(ranked) % table_size
        return [Table(tuple(e.id for e in ranked[i : i + table_size]))
                for i in range(0, whole, table_size)]  # fmt: skip
    tables = []
    while len(ranked) >= 2:
        top = ranked.pop(0)
        other = next((i for i, e in enumerate(ranked) if last_opponent.get(top.id) != e.id
                      and last_opponent.get(e.id) != top.id), None)  # fmt: skip
        if other is None:
            continue  # only the last opponent is free: wait for someone else
        tables.append(seated(top, ranked.pop(other)))
    return tables


def points(results: Iterable[float]) -> tuple[int, bool]:
    """Arena points of one player's results in the order they were played (1 a win,
    0.5 a draw, 0 a loss), and whether the player is on a streak now."""
    total, wins_in_a_row = 0, 0
    for result in results:
        on_streak = wins_in_a_row >= STREAK_AFTER
        factor = 2 if on_streak else 1
        if result == 1.0:
            total += WIN * factor
            wins_in_a_row += 1
        else:
            total += DRAW * factor if result == 0.5 else 0
            wins_in_a_row = 0
    return total, wins_in_a_row >= STREAK_AFTER

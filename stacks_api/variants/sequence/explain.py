"""Why a Sequence move is good, in a few words: what a hint says about it.

Each reason is a ``code`` with its parameters (the web client words it in the
player's language) and the same in English (``text``).
"""

from __future__ import annotations

from typing import Any

from .board import ONE_EYED_JACKS, SIZE, TWO_EYED_JACKS
from .bot import WINDOWS_THROUGH, Board

COLORS = ("blue", "green", "red")
COLUMNS = "ABCDEFGHIJ"
TEXT = {
    "trade_dead_card": "trades a dead card for a new one",
    "pass": "nothing better can be done",
    "removes_chip": "removes {team}'s chip from {cell}, where it helped most",
    "completes_sequence": "completes a sequence at {cell}",
    "blocks_sequence": "blocks {team}'s sequence at {cell}",
    "makes_four": "makes four in a row at {cell}",
    "blocks_four": "stops {team} from making four at {cell}",
    "uses_wild_jack": "a two-eyed jack at {cell}: no card of yours fits there",
    "builds": "builds toward a sequence at {cell}",
}


def cell_name(row: int, col: int) -> str:
    """A space as the board shows it: its column letter and row number (A1 top left)."""
    return f"{COLUMNS[col]}{row + 1}"


def explain(view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """The main reason for ``action`` from the view's seat: ``{"code", ..., "text"}``."""
    if action["type"] in ("exchange", "pass"):
        code = "trade_dead_card" if action["type"] == "exchange" else "pass"
        return {"code": code, "text": TEXT[code]}
    board, team = Board.of_view(view), view["you"]["team"]
    row, col = action["cell"]
    cell = row * SIZE + col
    found: dict[str, Any] = {"cell": cell_name(row, col)}
    if action["card"] in ONE_EYED_JACKS:
        found.update(code="removes_chip", team=COLORS[board.cells[cell]])
    else:
        found.update(_placement(board, cell, team))
        if found["code"] == "builds" and action["card"] in TWO_EYED_JACKS:
            found["code"] = "uses_wild_jack"
    found["text"] = TEXT[found["code"]].format(**found)
    return found


def _placement(board: Board, cell: int, team: int) -> dict[str, Any]:
    """What a chip of ``team`` at ``cell`` does, the weightiest first."""
    best: tuple[int, dict[str, Any]] = (0, {"code": "builds"})
    for w in WINDOWS_THROUGH[cell]:
        owner, held = board.holders[w]
        if owner in (-1, team) and w not in board.reused.get(team, ()):
            weight, code = {4: (4, "completes_sequence"), 3: (2, "makes_four")}.get(held, (0, ""))
            if weight > best[0]:
                best = (weight, {"code": code})
        elif owner >= 0:
            weight, code = {4: (3, "blocks_sequence"), 3: (1, "blocks_four")}.get(held, (0, ""))
            if weight > best[0]:
                best = (weight, {"code": code, "team": COLORS[owner]})
    return best[1]

"""Perft-style lines: the number of legal actions at each ply of a scripted game.

``python -m tests.engine.perft`` writes ``perft.json`` from the engine as it is;
the test compares the engine with that file, so a change that makes the engine
faster but alters a rule fails at once. The script picks, at ply n, the legal
action at index ``(7 * n + 3) % count`` of the seat to move (block windows
included), so the line depends on the order of ``legal_actions`` too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stacks_api.engine import create_game

DATA = Path(__file__).with_name("perft.json")
PLIES = 150
CASES: list[dict[str, Any]] = [
    {"variant": "sequence", "players": 2, "seed": 1},
    {"variant": "sequence", "players": 3, "seed": 2},
    {"variant": "sequence", "players": 4, "seed": 3, "options": {"teams": 2}},
    {"variant": "sequence", "players": 6, "seed": 4, "options": {"teams": 3}},
    {"variant": "stacks", "players": 2, "seed": 5},
    {"variant": "stacks", "players": 3, "seed": 6},
    {"variant": "stacks", "players": 5, "seed": 7, "options": {"block_window": "holders"}},
    {
        "variant": "stacks", "players": 3, "seed": 8,
        "position": {"piles": [["B1", "B2", "B3", "B4"], ["BW"], ["R1", "R2"], []],
                     "hands": [["B5", "BLOCK", "R3", "SKIP", "STEAL_CHIP"], ["BLOCK", "R4"],
                               ["BLOCK", "REVERSE"]],
                     "chips": [{"blue": 0, "red": 1}, {"blue": 2, "red": 0}, {"blue": 0, "red": 0}],
                     "turn": 0},
    },
]  # fmt: skip


def line(case: dict[str, Any]) -> list[int]:
    """The legal action counts along the case's scripted line."""
    game = create_game(
        case["variant"], players=case["players"], seed=case["seed"],
        options=case.get("options"), position=case.get("position"),
    )  # fmt: skip
    counts = []
    for ply in range(PLIES):
        if game.result is not None:
            break
        seat = game.to_move[0]
        legal = game.legal_actions(seat)
        counts.append(len(legal))
        game.apply(seat, legal[(7 * ply + 3) % len(legal)], now=0.0)
    return counts


if __name__ == "__main__":
    DATA.write_text(json.dumps([{**c, "counts": line(c)} for c in CASES], indent=1) + "\n")
    print(f"wrote {DATA}")

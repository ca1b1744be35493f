"""Why a Stacks move is good, in a few words: what a hint says about it.

Each reason is a ``code`` with its parameters (the web client words it in the
player's language) and the same in English (``text``).
"""

from __future__ import annotations

from typing import Any

from .bot import completes, steal_finishes
from .cards import PILE_COLORS

TEXT = {
    "pass": "nothing can be played",
    "block": "blocks the chip that pile would win",
    "let_pass": "lets the pile go without a Block",
    "completes_pile": "completes the {color} pile {pile} and wins a chip",
    "steal_chip": "steals a {color} chip from player {target}",
    "steal_card": "takes player {target}'s top discard, which lets you finish a pile",
    "steal_card_plain": "takes player {target}'s top discard",
    "skip": "makes the next player miss a turn",
    "reverse": "turns the order of play around",
    "builds_pile": "builds the {color} pile {pile}",
    "discard": "discard {card}: it ends the turn and keeps your better cards",
}


def explain(view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """The main reason for ``action`` from the view's seat: ``{"code", ..., "text"}``."""
    found: dict[str, Any] = {"code": _code(view, action)}
    if "pile" in action:
        found.update(pile=action["pile"] + 1, color=PILE_COLORS[action["pile"]])
    if "target" in action:
        found["target"] = action["target"] + 1
    if "color" in action:
        found["color"] = action["color"]
    if action["type"] == "discard":
        found["card"] = action["card"]
    found["text"] = TEXT[found["code"]].format(**found)
    return found


def _code(view: dict[str, Any], action: dict[str, Any]) -> str:
    kind, card = action["type"], action.get("card", "")
    if kind in ("pass", "discard"):
        return "let_pass" if kind == "pass" and view.get("block_window") else kind
    if card == "BLOCK":
        return "block"
    if card == "STEAL_CHIP":
        return "steal_chip"
    if card == "STEAL_CARD":
        return "steal_card" if steal_finishes(view, action) else "steal_card_plain"
    if card in ("SKIP", "REVERSE"):
        return str(card).lower()
    return "completes_pile" if completes(view, action) else "builds_pile"

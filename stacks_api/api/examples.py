"""Request examples shown in the API explorer: one per action type."""

from __future__ import annotations

from typing import Any


def _example(summary: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"summary": summary, "value": value}


CREATE = {
    "sequence_vs_bot": _example(
        "Sequence, you against a bot",
        {"variant": "sequence", "players": 2, "seats": [{}, {"bot": "random"}]},
    ),
    "stacks_three": _example(
        "Sequence Stacks for three, Block asked only of holders",
        {"variant": "stacks", "players": 3, "options": {"block_window": "holders"}},
    ),
    "sequence_teams": _example(
        "Sequence, six players in three teams",
        {"variant": "sequence", "players": 6, "options": {"teams": 3}},
    ),
}

ACTIONS = {
    "sequence_play": _example(
        "Sequence: place a chip (or a two-eyed jack anywhere open)",
        {"type": "play", "card": "7H", "cell": [4, 8]},
    ),
    "sequence_remove": _example(
        "Sequence: a one-eyed jack removes an opposing chip",
        {"type": "play", "card": "JS", "cell": [2, 3]},
    ),
    "sequence_exchange": _example(
        "Sequence: trade a dead card", {"type": "exchange", "card": "2S"}
    ),
    "stacks_pile": _example(
        "Stacks: a card onto pile 0", {"type": "play", "card": "B1", "pile": 0}
    ),
    "stacks_from_discard": _example(
        "Stacks: the top of your own discard pile onto pile 2",
        {"type": "play", "card": "R3", "pile": 2, "from": "discard"},
    ),
    "stacks_skip": _example("Stacks: Skip", {"type": "play", "card": "SKIP"}),
    "stacks_reverse": _example("Stacks: Reverse", {"type": "play", "card": "REVERSE"}),
    "stacks_steal_card": _example(
        "Stacks: Steal a Card from seat 2", {"type": "play", "card": "STEAL_CARD", "target": 2}
    ),
    "stacks_steal_chip": _example(
        "Stacks: Steal a red chip from seat 1",
        {"type": "play", "card": "STEAL_CHIP", "target": 1, "color": "red"},
    ),
    "stacks_block": _example(
        "Stacks: Block, inside a block window", {"type": "play", "card": "BLOCK"}
    ),
    "stacks_discard": _example(
        "Stacks: discard to end the turn", {"type": "discard", "card": "R2"}
    ),
    "pass": _example("Pass (see the rules for when)", {"type": "pass"}),
    "with_version": _example(
        "Any action, refused with 412 unless the game is at version 12",
        {"type": "discard", "card": "B4", "expected_version": 12},
    ),
}

"""A Stacks discard hint names the discard and its card."""

from __future__ import annotations

from stacks_api.engine import create_game
from stacks_api.variants.stacks.explain import explain


def test_a_discard_reason_says_discard_and_names_the_card():
    game = create_game("stacks", 2, 3)
    view = game.view(game.to_move[0])
    discard = next(a for a in view["you"]["legal_actions"] if a["type"] == "discard")
    reason = explain(view, discard)
    assert reason["code"] == "discard" and reason["card"] == discard["card"]
    assert reason["text"].startswith(f"discard {discard['card']}")

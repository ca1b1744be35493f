"""Replaying public events where two moves make the same ones: a Block answered from
the discard pile and one from the hand are told apart by the table they leave."""

from __future__ import annotations

from stacks_api.engine import create_game
from stacks_api.engine.replay import digest, public, replay

# Seat 0 completes pile 0 with B5; seat 1 holds a Block in its hand and shows one on
# its discard pile, and blocks with the one on the pile.
POSITION = {
    "piles": [["B1", "B2", "B3", "B4"], [], [], []],
    "hands": [["B5", "R1"], ["BLOCK", "R3"]],
    "discards": [[], ["BLOCK"]],
    "turn": 0,
}


def start():  # type: ignore[no-untyped-def]
    return create_game("stacks", players=2, seed=3, position=POSITION)


def test_the_table_the_game_ended_on_decides_which_block_was_shown():
    game = start()
    events = game.apply(0, {"type": "play", "card": "B5", "pile": 0})
    events += game.apply(1, {"type": "play", "card": "BLOCK", "from": "discard"})
    assert events[-1] == {"type": "block", "seat": 1, "pile": 0}  # whence: not said
    shown = game.view(None)
    assert shown["discards"][1] == []

    first, failed = replay(start(), [public(e) for e in events])
    assert failed is None and first.view(None)["discards"][1] == ["BLOCK"], "the hand's first"

    def ends_as_shown(end) -> bool:  # type: ignore[no-untyped-def]
        return digest(end.view(None)) == digest(shown)

    found, failed = replay(start(), [public(e) for e in events], accept=ends_as_shown)
    assert failed is None and found.view(None) == shown


def test_when_no_line_ends_as_asked_the_first_whole_one_is_given():
    game = start()
    events = game.apply(0, {"type": "play", "card": "B5", "pile": 0})
    events += game.apply(1, {"type": "play", "card": "BLOCK"})
    found, failed = replay(start(), [public(e) for e in events], accept=lambda end: False)
    assert failed is None and found.view(None) == game.view(None)

"""Builders for hand-made positions and invariant checks shared by engine tests."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from stacks_api.engine import Game, IllegalAction, load_game

CORNERS = {(0, 0), (0, 9), (9, 0), (9, 9)}


def board(chips: dict[tuple[int, int], str] | None = None) -> list[str]:
    """A Sequence board in position notation with ``chips`` ({(row, col): 'B'}) placed."""
    chips = chips or {}
    rows = []
    for r in range(10):
        row = ""
        for c in range(10):
            row += "X" if (r, c) in CORNERS else chips.get((r, c), ".")
        rows.append(row)
    return rows


def line(char: str, cells: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
    return {cell: char for cell in cells}


def row_cells(r: int, cols: range | list[int]) -> list[tuple[int, int]]:
    return [(r, c) for c in cols]


def cards_in_play(game: Game) -> Counter[str]:
    """Every card in every zone of a game, as a multiset (both variants)."""
    pos = game.to_dict()["position"]
    zones: list[list[str]] = [*pos["hands"], *pos["discards"], pos["draw_pile"]]
    zones += pos.get("piles", [])  # Stacks only, like the two heaps below
    zones += [pos[key] for key in ("set_aside", "special_discard") if key in pos]
    return Counter(card for zone in zones for card in zone)


def deck_without(deck: Iterable[str], *cards: str) -> list[str]:
    """The deck, in its order, less one copy of each of ``cards``."""
    rest = list(deck)
    for card in cards:
        rest.remove(card)
    return rest


def assert_round_trip(game: Game) -> None:
    data = game.to_dict()
    assert json.loads(json.dumps(data)) == data, "to_dict must be plain JSON"
    assert load_game(data).to_dict() == data


def assert_refused(game: Game, seat: int, action: Any, code: str, text: str = "") -> str:
    """Apply must refuse with ``code`` and change nothing; returns the message."""
    before = game.to_dict()
    try:
        game.apply(seat, action)
    except IllegalAction as err:
        assert err.code == code, f"{err.code}: {err}"
        assert text in str(err), str(err)
        assert game.to_dict() == before, "a refused action changed the state"
        return str(err)
    raise AssertionError(f"{action} was accepted")

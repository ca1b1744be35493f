"""Reading and writing Sequence Stacks positions (docs/api.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...rules.base import JSON, is_int
from ...rules.rng import Rng
from ...rules.validate import (
    expect_cards,
    expect_int,
    expect_keys,
    expect_list,
    expect_per_seat_cards,
    fail,
    remaining_deck,
)
from .cards import (
    ACTION_CARDS,
    CARD_SET,
    CHIPS_PER_COLOR,
    COLORS,
    COLOURED_CARDS,
    MAX_PLAYS_PER_TURN,
    MAX_TURNS,
    PILE_COLORS,
    PILE_LENGTH,
    PILES,
    SKIP,
    Setup,
    deck_for,
    fits_pile,
    wins,
)

REQUIRED = ("piles", "hands", "turn")
OPTIONAL = (
    "discards", "chips", "set_aside", "special_discard", "draw_pile", "direction", "skips",
    "plays", "turns",
)  # fmt: skip


@dataclass
class StacksPosition:
    """The parts of a validated position, in the engine's own representation."""

    piles: list[list[str]]
    hands: list[list[str]]
    discards: list[list[str]]
    chips: list[dict[str, int]]
    set_aside: list[str]
    special: list[str]
    draw: list[str]  # the next card to draw is last
    direction: int
    skips: list[int]
    turn: int
    plays: int = 0  # plays already made in the turn under way (docs/rules.md)
    turns: int = 0  # turns taken so far (the game is drawn at MAX_TURNS)


def _read_piles(value: object, full_pile: int | None) -> list[list[str]]:
    piles = [expect_cards(p, f"piles[{i}]", COLOURED_CARDS) for i, p in enumerate(
        expect_list(value, "piles", PILES))]  # fmt: skip
    for i, pile in enumerate(piles):
        most = PILE_LENGTH if i == full_pile else PILE_LENGTH - 1
        if len(pile) > most:
            raise fail(f"piles[{i}] holds {len(pile)} cards; at most {most}")
        for k, card in enumerate(pile):
            if not fits_pile(card, i, pile[:k]):
                raise fail(f"piles[{i}][{k}] {card} does not follow on {PILE_COLORS[i]} pile {i}")
    return piles


def _read_chips(value: object, players: int, finished: bool) -> list[dict[str, int]]:
    chips = []
    for seat, raw in enumerate(expect_list(value, "chips", players)):
        held = expect_keys(raw, COLORS, ())
        chips.append(
            {c: expect_int(held[c], f"chips[{seat}].{c}", 0, CHIPS_PER_COLOR) for c in COLORS}
        )
        if wins(chips[-1]) and not finished:
            raise fail(f"seat {seat} has already won")
    held = {color: sum(c[color] for c in chips) for color in COLORS}
    for color in COLORS:
        if held[color] > CHIPS_PER_COLOR:
            raise fail(f"more than {CHIPS_PER_COLOR} {color} chips are held")
    if not finished and all(n == CHIPS_PER_COLOR for n in held.values()):
        raise fail("both chip supplies are empty, so the game is already drawn")
    return chips


def read_position(
    pos: object, setup: Setup, rng: Rng, *, finished: bool = False, full_pile: int | None = None
) -> StacksPosition:
    """Validate ``pos`` strictly; shuffle the unplaced cards into the draw pile with ``rng``.

    ``full_pile`` allows that pile five cards (a saved game inside a block window).
    """
    obj = expect_keys(pos, REQUIRED, OPTIONAL)
    n = setup.players
    piles = _read_piles(obj["piles"], full_pile)
    hands = expect_per_seat_cards(obj["hands"], "hands", n, CARD_SET)
    discards = expect_per_seat_cards(obj.get("discards", [[]] * n), "discards", n, CARD_SET)
    zero = [{"blue": 0, "red": 0}] * n
    chips = _read_chips(obj.get("chips", zero), n, finished)
    set_aside = expect_cards(obj.get("set_aside", []), "set_aside", COLOURED_CARDS)
    special = expect_cards(obj.get("special_discard", []), "special_discard", ACTION_CARDS)
    given = obj.get("draw_pile")
    pile = None if given is None else expect_cards(given, "draw_pile", CARD_SET)
    direction = obj.get("direction", 1)
    if not is_int(direction) or direction not in (1, -1):
        raise fail("direction must be the whole number 1 or -1")
    # A skip marker comes from a played Skip, and played action cards are never
    # reshuffled: no game holds more markers than its deck has Skips.
    most = deck_for(n).count(SKIP)
    skips = [expect_int(s, f"skips[{i}]", 0, most) for i, s in enumerate(
        expect_list(obj.get("skips", [0] * n), "skips", n))]  # fmt: skip
    if sum(skips) > most:
        raise fail(f"more skip markers than the {most} Skip cards of the deck")
    turn = expect_int(obj["turn"], "turn", 0, n - 1)
    plays = expect_int(obj.get("plays", 0), "plays", 0, MAX_PLAYS_PER_TURN)
    turns = expect_int(obj.get("turns", 0), "turns", 0, MAX_TURNS - 1)
    zones = [*piles, *hands, *discards, set_aside, special, pile or []]
    rest = remaining_deck(deck_for(n), zones, exact=pile is not None)
    if pile is None:
        rng.shuffle(rest)
        draw = rest
    else:
        draw = pile[::-1]
    return StacksPosition(piles, hands, discards, chips, set_aside, special, draw, direction,
                          skips, turn, plays, turns)  # fmt: skip


def trusted_position(pos: JSON) -> StacksPosition:
    """A position this program wrote (``write_position``) read back without checks."""
    return StacksPosition(
        [list(x) for x in pos["piles"]],
        [list(x) for x in pos["hands"]],
        [list(x) for x in pos["discards"]],
        [dict(c) for c in pos["chips"]],
        list(pos["set_aside"]),
        list(pos["special_discard"]),
        pos["draw_pile"][::-1],
        pos["direction"],
        list(pos["skips"]),
        pos["turn"],
        pos["plays"],
    )


def write_position(p: StacksPosition) -> JSON:
    """The exact position notation for a state; the inverse of ``read_position``."""
    out: dict[str, Any] = {
        "piles": [list(x) for x in p.piles],
        "hands": [list(x) for x in p.hands],
        "discards": [list(x) for x in p.discards],
        "chips": [dict(c) for c in p.chips],
        "set_aside": list(p.set_aside),
        "special_discard": list(p.special),
        "draw_pile": p.draw[::-1],
        "direction": p.direction,
        "skips": list(p.skips),
        "turn": p.turn,
        "plays": p.plays,
    }
    return out

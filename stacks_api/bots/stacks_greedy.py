"""A fast Sequence Stacks heuristic, from the seat's view only.

Within a turn it completes piles it can finish with what it holds (the colour it
still needs first), steals the chip it needs from the leader, skips the next
player, and never feeds a pile it cannot finish; it always blocks when it can;
it ends the turn by discarding the card worth least to it. When nothing is left
to draw it feeds piles after all, since otherwise the game stalls into a draw.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

View = dict[str, Any]
Action = dict[str, Any]

PILE_COLOR = ("B", "B", "R", "R")
COLOR_NAME = {"B": "blue", "R": "red"}
# What a card is worth keeping (the cheapest one is discarded).
KEEP = {"STEAL_CHIP": 95, "BLOCK": 90, "W": 80, "5": 70, "SKIP": 40, "STEAL_CARD": 30,
        "4": 20, "3": 15, "2": 10, "1": 5, "REVERSE": 1}  # fmt: skip


def keep_value(card: str) -> int:
    return KEEP.get(card, KEEP.get(card[1:], 0))


def finishable(pile: list[str], color: str, cards: Counter[str]) -> bool:
    """Whether ``cards`` can take the pile from where it is to its fifth card."""
    wilds = cards[f"{color}W"]
    missing = sum(1 for n in range(len(pile) + 1, 6) if not cards[f"{color}{n}"])
    return missing <= wilds


def need(chips: dict[str, int], color: str) -> int:
    """How much one more chip of ``color`` brings us towards 2 + 2 + 1."""
    return 200 if chips[color] < 2 else 50


def score(view: View, action: Action) -> float:
    you = view["you"]
    seat = you["seat"]
    chips = view["chips"][seat]
    kind, card = action["type"], action.get("card", "")
    if kind == "pass":
        return -500
    if kind == "discard":
        return -200 - keep_value(card)
    from_discard = 1 if action.get("from") == "discard" else 0
    if "pile" in action:
        pile = view["piles"][action["pile"]]
        color = PILE_COLOR[action["pile"]]
        if not view["supply"][COLOR_NAME[color]]:
            # No chip left to win: completing only recycles cards (and could go on forever).
            return -1000
        if len(pile) == 4:
            return 1000 + need(chips, COLOR_NAME[color]) + from_discard
        cards = Counter(you["hand"])
        top = view["discards"][seat][-1] if view["discards"][seat] else None
        if top:
            cards[top] += 1
        if finishable(pile, color, cards):
            return 500 + 10 * len(pile) + from_discard
        if view["draw_pile_count"] + view["set_aside_count"] < 30:
            # Nothing left to draw: only pile plays keep the game from a stalled draw.
            return 100 - 20 * len(pile)
        return -1000 - 20 * len(pile)  # would feed the next player
    if card == "STEAL_CHIP":
        leader: int = sum(view["chips"][action["target"]].values())
        return 800 + need(chips, action["color"]) + leader
    if card == "SKIP":
        return 300 + from_discard
    if card == "STEAL_CARD":
        stolen: str = view["discards"][action["target"]][-1]
        return 250 if stolen[1:] in ("W", "5") or stolen == "BLOCK" else -300
    if card == "BLOCK":
        return 10_000 + from_discard  # only legal inside a block window
    return -400  # REVERSE: rarely worth a card


def choose(view: View, rng: random.Random) -> Action:
    legal = view["you"]["legal_actions"]
    scored = [(score(view, a), rng.random(), i) for i, a in enumerate(legal)]
    action: Action = legal[max(scored)[2]]
    return action

"""A fast Sequence Stacks heuristic, from the seat's view only.

Within a turn it completes piles it can finish with what it holds and what it can
dig out of its own discard pile (the colour it still needs first), steals the chip
it needs from the leader, skips the next player, and never feeds a pile it cannot
finish; it always blocks when it can; it ends the turn by discarding the card worth
least to it. When little is left to draw it feeds piles after all, since otherwise
the game stalls into a draw, but with a wild or a 5 (what finishes piles) only
once nothing is left at all.
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


# Piles are fed once fewer cards than this are left to draw (draw pile and set-aside
# heap); wilds and 5s only once nothing is. Measured: earlier feeding lets the next
# player finish piles, later feeding (or with wilds) leaves games stalled into draws.
FEED_BELOW = 60


def keep_value(card: str) -> int:
    return KEEP.get(card, KEEP.get(card[1:], 0))


def finishable(length: int, color: str, hand: Counter[str], stack: list[str]) -> bool:
    """Whether a pile of ``length`` cards can be taken to its fifth card from ``hand``
    and the own discard pile ``stack`` (top last; each card played from it uncovers
    the next). Numbers go before wilds, and the discard top before the hand, so
    that what is kept stays flexible."""
    hand, stack = hand.copy(), list(stack)
    for number in range(length + 1, 6):
        for card in (f"{color}{number}", f"{color}W"):
            if stack and stack[-1] == card:
                stack.pop()
                break
            if hand[card]:
                hand[card] -= 1
                break
        else:
            return False
    return True


def need(chips: dict[str, int], color: str) -> int:
    """How much one more chip of ``color`` brings us towards 2 + 2 + 1."""
    return 200 if chips[color] < 2 else 50


def completes(view: View, action: Action) -> bool:
    """Whether ``action`` completes a pile that still earns a chip (a supply is left)."""
    if "pile" not in action:
        return False
    pile = action["pile"]
    return len(view["piles"][pile]) == 4 and view["supply"][COLOR_NAME[PILE_COLOR[pile]]] > 0


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
        if completes(view, action):
            return 1000 + need(chips, COLOR_NAME[color]) + from_discard
        if not view["supply"][COLOR_NAME[color]]:
            # No chip left to win: completing only recycles cards (and could go on forever).
            return -1000
        hand, stack = Counter(you["hand"]), list(view["discards"][seat])
        if from_discard:
            stack.pop()
        else:
            hand[card] -= 1
        if finishable(len(pile) + 1, color, hand, stack):
            return 500 + 10 * len(pile) + from_discard
        to_draw = view["draw_pile_count"] + view["set_aside_count"]
        if to_draw < FEED_BELOW and (card[1:] not in ("W", "5") or not to_draw):
            # Little left to draw: only pile plays keep the game from a stalled draw.
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

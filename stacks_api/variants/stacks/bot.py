"""A fast Sequence Stacks heuristic, from the seat's view only.

Within a turn it completes piles it can finish with what it holds and what it can
dig out of its own discard pile (the colour it still needs first), steals the chip
it needs from the leader, skips the next player, always blocks when it can, and
ends the turn by discarding the card worth least to it. Piles it cannot finish
itself it feeds only as its ``Style`` allows: the greedy bot hoards its cards
until little is left to draw, the search bot plays its 1s and 2s at once (the next
player then needs three cards to finish the pile) and steals any card that lets it
finish a pile.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...rules.base import Game
from ..kit import JSON
from ..sampling import deal_again, deal_hidden, sigmoid, unseen
from .cards import COLOR_OF, COLORS, LETTER, PILE_COLORS, deck_for
from .state import StacksState

View = dict[str, Any]
Action = dict[str, Any]

# What a card is worth keeping (the cheapest one is discarded).
KEEP = {"STEAL_CHIP": 95, "BLOCK": 90, "W": 80, "5": 70, "SKIP": 40, "STEAL_CARD": 30,
        "4": 20, "3": 15, "2": 10, "1": 5, "REVERSE": 1}  # fmt: skip


@dataclass(frozen=True)
class Style:
    """How a player feeds piles it cannot finish itself: once fewer than
    ``feed_below`` cards are left to draw (draw pile and set-aside heap), leaving
    piles of at most ``feed_to`` cards, and with wilds and 5s only once nothing is
    left to draw; what it keeps (the cheapest card is discarded); and how much it
    prefers a discard that lines up under the top of its discard pile."""

    feed_below: float
    feed_to: int
    keep: Mapping[str, int]
    chain_bonus: int = 0
    steals_to_finish: bool = False  # Steal a Card also takes a card that finishes a pile

    def keep_value(self, card: str) -> int:
        return self.keep.get(card, self.keep.get(card[1:], 0))


# The greedy bot's: feeding earlier lets the next player finish piles, later (or
# with wilds) leaves games stalled into draws.
HOARDING = Style(feed_below=60, feed_to=4, keep=KEEP)
# The search bot's. Its 1s and 2s go onto piles at once (what is left to finish
# then takes three cards), so its hand turns over faster. Its discard pile is a
# store only Steal a Card reaches into: a 4 discarded onto a 5 of its colour, then
# a 3 onto the 4, can be played back in that order to finish a pile, so it lets
# 5s go before 4s and keeps 3s. Each step measured against HOARDING, seats swapped:
# feeding alone won 59.4% of games (seeds 0-9999), with chains and these keep
# values 63.1% (the same seeds); two HOARDING players: 50.4% (seeds 4000-7999).
# Stealing any card that lets it finish a pile this turn (not only wilds, 5s and
# Blocks) won 64.7% instead of 63.6% (seeds 4000-11999) and 64.6% instead of 63.5%
# (seeds 12000-19999), 8,000 games each.
FEEDING = Style(
    feed_below=float("inf"),
    feed_to=2,
    keep={**KEEP, "3": 45, "4": 70, "5": 45},
    chain_bonus=100,
    steals_to_finish=True,
)


# The cards that take a pile of each colour letter to each number: the number, or a wild.
_CARDS_FOR = {
    letter: {number: (f"{letter}{number}", f"{letter}W") for number in range(1, 6)}
    for letter in LETTER.values()
}


def finishable(length: int, color: str, hand: Mapping[str, int], stack: list[str]) -> bool:
    """Whether a pile of ``length`` cards can be taken to its fifth card from ``hand``
    and the own discard pile ``stack`` (top last; each card played from it uncovers
    the next). Numbers go before wilds, and the discard top before the hand, so
    that what is kept stays flexible. Called for most actions of every playout move,
    so it copies nothing: ``used`` counts what the hand gave, ``top`` walks the pile."""
    used: dict[str, int] = {}
    top, cards_for = len(stack), _CARDS_FOR[color]
    for number in range(length + 1, 6):
        for card in cards_for[number]:
            if top and stack[top - 1] == card:
                top -= 1
                break
            if hand.get(card, 0) > used.get(card, 0):
                used[card] = used.get(card, 0) + 1
                break
        else:
            return False
    return True


def continues_chain(stack: list[str], card: str) -> bool:
    """Whether ``card`` is the next lower number of the colour of the top of ``stack``
    (B3 onto B4): discarded there, both can be played back from the pile in turn."""
    if not stack or card[1:] not in ("1", "2", "3", "4"):
        return False
    top = stack[-1]
    return top[0] == card[0] and top[1:] == str(int(card[1:]) + 1)


def holdings_after(view: View, action: Action) -> tuple[Counter[str], list[str]]:
    """The seat's hand and own discard pile (top last) once the card ``action`` plays
    has left the hand or the discard top it came from."""
    you = view["you"]
    hand, stack = Counter(you["hand"]), list(view["discards"][you["seat"]])
    if action.get("from") == "discard":
        stack.pop()
    else:
        hand[action["card"]] -= 1
    return hand, stack


def steal_finishes(view: View, action: Action) -> bool:
    """Whether the card Steal a Card takes lets the thief finish a pile of its colour
    this turn, with its hand and its own discard pile."""
    stolen: str = view["discards"][action["target"]][-1]
    if stolen not in COLOR_OF:
        return False  # an action card
    hand, stack = holdings_after(view, action)
    hand[stolen] += 1
    color = COLOR_OF[stolen]
    return any(
        PILE_COLORS[pile] == color
        and view["supply"][color]
        and finishable(len(cards), LETTER[color], hand, stack)
        for pile, cards in enumerate(view["piles"])
    )


def need(chips: dict[str, int], color: str) -> int:
    """How much one more chip of ``color`` brings us towards 2 + 2 + 1."""
    return 200 if chips[color] < 2 else 50


def completes(view: View, action: Action) -> bool:
    """Whether ``action`` completes a pile that still earns a chip (a supply is left)."""
    if "pile" not in action:
        return False
    pile = action["pile"]
    return len(view["piles"][pile]) == 4 and view["supply"][PILE_COLORS[pile]] > 0


def score(view: View, action: Action, style: Style = HOARDING) -> float:
    you = view["you"]
    seat = you["seat"]
    chips = view["chips"][seat]
    kind, card = action["type"], action.get("card", "")
    if kind == "pass":
        return -500
    if kind == "discard":
        value = -200 - style.keep_value(card)
        if style.chain_bonus and continues_chain(view["discards"][seat], card):
            value += style.chain_bonus  # checked only for a style that stores chains
        return value
    from_discard = 1 if action.get("from") == "discard" else 0
    if "pile" in action:
        pile = view["piles"][action["pile"]]
        color_name = PILE_COLORS[action["pile"]]
        color = LETTER[color_name]
        if completes(view, action):
            return 1000 + need(chips, color_name) + from_discard
        if not view["supply"][color_name]:
            # No chip left to win: completing only recycles cards (and could go on forever).
            return -1000
        hand, stack = holdings_after(view, action)
        if finishable(len(pile) + 1, color, hand, stack):
            return 500 + 10 * len(pile) + from_discard
        to_draw = view["draw_pile_count"] + view["set_aside_count"]
        feeds = to_draw < style.feed_below and len(pile) < style.feed_to
        if feeds and (card[1:] not in ("W", "5") or not to_draw):
            return 100 - 20 * len(pile)  # a feed the style allows: short piles first
        return -1000 - 20 * len(pile)  # would feed the next player
    if card == "STEAL_CHIP":
        leader: int = sum(view["chips"][action["target"]].values())
        return 800 + need(chips, action["color"]) + leader
    if card == "SKIP":
        return 300 + from_discard
    if card == "STEAL_CARD":
        if style.steals_to_finish and steal_finishes(view, action):
            return 600  # before building the pile it lets it finish
        stolen: str = view["discards"][action["target"]][-1]
        return 250 if stolen[1:] in ("W", "5") or stolen == "BLOCK" else -300
    if card == "BLOCK":
        return 10_000 + from_discard  # only legal inside a block window
    return -400  # REVERSE: rarely worth a card


def choose(view: View, rng: random.Random, style: Style = HOARDING) -> Action:
    legal = view["you"]["legal_actions"]
    scored = [(score(view, a, style), rng.random(), i) for i, a in enumerate(legal)]
    action: Action = legal[max(scored)[2]]
    return action


# -- what the tree search knows of Stacks ------------------------------------------


def policy(view: View, rng: random.Random) -> Action:
    """The search's move: the greedy heuristic in its feeding style (stronger than
    greedy's own)."""
    return choose(view, rng, FEEDING)


def rank(view: View) -> Callable[[Action], float]:
    return lambda action: score(view, action, FEEDING)


def sample_position(view: View, rng: random.Random) -> JSON:
    """The view's position, the cards it cannot see (other hands, the draw pile) dealt at
    random in the sizes it shows. The set-aside heap is public: it is the view's."""
    seen = (
        list(view["you"]["hand"])
        + [c for pile in view["piles"] for c in pile]
        + [c for pile in view["discards"] for c in pile]
        + list(view["special_discard"])
        + list(view["set_aside"])
    )
    pool = unseen(deck_for(len(view["players"])), seen, rng)
    hands = deal_hidden(view, pool)
    return {
        "piles": view["piles"],
        "hands": hands,
        "discards": view["discards"],
        "chips": view["chips"],
        "set_aside": view["set_aside"],
        "special_discard": view["special_discard"],
        "draw_pile": pool,
        "direction": view["direction"],
        "skips": [p["skips"] for p in view["players"]],
        "turn": view["turn"],
        "plays": view["plays"],
        "turns": view["turns"],
    }


def glance(game: StacksState, seat: int) -> View:
    """What ``policy`` reads of ``seat``'s view, without rendering the rest: a playout
    moves a hundred times, and a whole view costs more than the choice. The lists are
    the game's own, read and never changed."""
    return {
        "you": {"seat": seat, "hand": game.hands[seat], "legal_actions": game.legal_actions(seat)},
        "chips": game.chips,
        "discards": game.discards,
        "piles": game.piles,
        "supply": {color: game.supply(color) for color in COLORS},
        "draw_pile_count": len(game.draw),
        "set_aside_count": len(game.set_aside),
    }


class Playout:
    """Moves of ``policy`` for whoever is to move in a sampled game (a search's world,
    never a live one), each chosen from a glance at that seat's view."""

    def __init__(self, game: Game) -> None:
        assert isinstance(game, StacksState), "a Stacks playout plays Stacks"
        self.game: Game = game
        self.state = game  # the same game, as the Stacks state it is

    def fork(self) -> Playout:
        return Playout(self.state.copy())

    def play(self, seat: int, action: Action) -> None:
        self.game.apply(seat, action)

    def redeal(self, seat: int, rng: random.Random) -> None:
        game = self.state
        game.hands, game.draw = deal_again(game.hands, seat, game.draw, rng)  # heap is public

    def suggest(self, rng: random.Random) -> Action:
        return policy(glance(self.state, self.state.to_move[0]), rng)

    def move(self, rng: random.Random) -> None:
        self.play(self.game.to_move[0], self.suggest(rng))

    def estimate(self) -> list[float]:
        return estimate(self.state.chips)


def _steps_to_win(chips: dict[str, int]) -> int:
    short = max(0, 2 - chips["blue"]) + max(0, 2 - chips["red"])
    return max(short, 5 - chips["blue"] - chips["red"])


def estimate(chips: list[dict[str, int]]) -> list[float]:
    """Per seat: how many chips it lacks compared with its closest rival, then how
    many chips it holds (the next steal or colour swap can turn those into steps)."""
    steps = [_steps_to_win(c) for c in chips]
    held = [c["blue"] + c["red"] for c in chips]
    scores = []
    for seat, mine in enumerate(steps):
        rival = min(range(len(steps)), key=lambda i: (steps[i], -held[i]) if i != seat else (99, 0))
        scores.append(sigmoid(steps[rival] - mine + 0.2 * (held[seat] - held[rival])))
    return scores

"""A Sequence Stacks table: the piles, hands, chips and the turn's counters; how it
is dealt, loaded from a position, saved and shown. The rules of play are
``game.py``'s, the block window's ``window.py``'s."""

from __future__ import annotations

import copy
from typing import Self

from ...rules.base import JSON, Event
from ...rules.cards import CardGame
from ...rules.rng import Rng
from .cards import (
    CHIPS_PER_COLOR,
    COLORS,
    HAND_SIZE,
    PILES,
    Setup,
    deck_for,
    resolve_setup,
)
from .position import StacksPosition, read_position, trusted_position, write_position
from .window import BlockWindow


class StacksState(CardGame[Setup, StacksPosition]):
    """The state of one game of Sequence Stacks, without its rules of play."""

    setup: Setup

    @classmethod
    def _resolve(cls, players: object, options: JSON | None) -> Setup:
        return resolve_setup(players, options)

    @classmethod
    def _read(cls, position: object, setup: Setup, rng: Rng) -> StacksPosition:
        return read_position(position, setup, rng)

    def __init__(self, setup: Setup, rng: Rng) -> None:
        n = setup.players
        self.setup = setup
        self.players = n
        self.options = setup.options()
        self.rng = rng
        self.result: JSON | None = None
        self.piles: list[list[str]] = [[] for _ in range(PILES)]
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.discards: list[list[str]] = [[] for _ in range(n)]
        self.chips: list[dict[str, int]] = [{"blue": 0, "red": 0} for _ in range(n)]
        self.set_aside: list[str] = []
        self.special: list[str] = []
        self.draw: list[str] = []  # the next card to draw is last
        self.direction = 1
        self.skips = [0] * n
        self.turn = 0
        self.window: BlockWindow | None = None
        self.dealer: int | None = None
        self.log: list[Event] = []
        self.pile_play = False  # a card went onto a pile this turn
        self.stalled = 0  # consecutive turns ending with nothing to draw and no pile play
        self.turns = 0  # turns taken so far
        self.plays = 0  # plays made in the turn under way (at most MAX_PLAYS_PER_TURN)

    # -- construction -------------------------------------------------------

    def _restore(self, data: JSON, trusted: bool) -> None:
        window = data["window"] and BlockWindow.from_json(data["window"])
        if trusted:
            pos = trusted_position(data["position"])
        else:
            pos = read_position(
                data["position"], self.setup, self.rng,
                finished=data["result"] is not None, full_pile=window.pile if window else None,
            )  # fmt: skip
        self._load(pos)
        self.window = window or None
        self.pile_play, self.stalled, self.turns = (
            data["pile_play"], data["stalled"], data["turns"]
        )  # fmt: skip

    def _deal(self, dealer: int | None) -> None:
        n = self.players
        deck = deck_for(n)
        self.rng.shuffle(deck)
        self.dealer = self.rng.below(n) if dealer is None else dealer
        self.turn = (self.dealer + 1) % n
        self._deal_hands(deck, HAND_SIZE)
        self.log = [{"type": "deal", "dealer": self.dealer, "first": self.turn}]

    def _load(self, p: StacksPosition) -> None:
        self.piles, self.hands, self.discards, self.chips = p.piles, p.hands, p.discards, p.chips
        self.set_aside, self.special, self.draw = p.set_aside, p.special, p.draw
        self.direction, self.skips, self.turn = p.direction, p.skips, p.turn
        self.plays, self.turns = p.plays, p.turns

    def copy(self) -> Self:
        """As ``Game.copy``, without deepcopy's cost (searches copy a world for every
        iteration): what a move changes is copied; setup, options and the deal log are
        never changed in place, so the copy shares them."""
        twin = copy.copy(self)
        twin.rng = Rng(self.rng.state)
        twin.piles = [list(pile) for pile in self.piles]
        twin.hands = [list(hand) for hand in self.hands]
        twin.discards = [list(pile) for pile in self.discards]
        twin.chips = [dict(chips) for chips in self.chips]
        twin.set_aside = list(self.set_aside)
        twin.special = list(self.special)
        twin.draw = list(self.draw)
        twin.skips = list(self.skips)
        twin.window = None if self.window is None else self.window.copy()
        return twin

    # -- views and serialization --------------------------------------------

    def _position(self) -> StacksPosition:
        return StacksPosition(
            self.piles, self.hands, self.discards, self.chips, self.set_aside, self.special,
            self.draw, self.direction, self.skips, self.turn, self.plays,
        )  # fmt: skip

    def supply(self, color: str) -> int:
        """The chips of ``color`` nobody has won yet."""
        return CHIPS_PER_COLOR - sum(chips[color] for chips in self.chips)

    def _player_view(self, seat: int) -> JSON:
        return {"chips": dict(self.chips[seat]), "skips": self.skips[seat]}

    def _table_view(self) -> JSON:
        return {
            "direction": self.direction,
            "piles": [list(p) for p in self.piles],
            "chips": [dict(c) for c in self.chips],
            "supply": {c: self.supply(c) for c in COLORS},
            "special_discard": list(self.special),
            "set_aside_count": len(self.set_aside),
            "set_aside": list(self.set_aside),
            "block_window": self.window.public() if self.window else None,
            "turns": self.turns,
            "plays": self.plays,
        }

    def _saved(self) -> JSON:
        return {
            "position": write_position(self._position()),
            "window": self.window.to_json() if self.window else None,
            "pile_play": self.pile_play,
            "stalled": self.stalled,
            "turns": self.turns,
        }

"""What the card games share: each seat a hand and a face-up discard pile, a draw
pile, a dealer, and views built the same way around each game's own table."""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar

from .base import JSON, Game, PositionT, SetupT
from .errors import bad_action


class CardGame(Game[SetupT, PositionT]):
    """A game of hands, discard piles and a draw pile (the next card to draw last)."""

    # Every card code of the game, and two of them for error messages.
    card_codes: ClassVar[frozenset[str]]
    card_example: ClassVar[str]

    hands: list[list[str]]
    discards: list[list[str]]
    draw: list[str]
    turn: int

    def _check_shape(self, seat: object, action: object) -> None:
        """As ``Game._check_shape``; besides, every action but a pass names a card."""
        super()._check_shape(seat, action)
        assert isinstance(action, dict)
        if action["type"] != "pass":
            card = action.get("card")
            if type(card) is not str or card not in self.card_codes:
                raise bad_action(
                    f"card must be a card code such as {self.card_example}, not {card!r}"
                )

    def _deal_hands(self, deck: list[str], hand_size: int) -> None:
        """Deal ``hand_size`` cards to each seat, one at a time from the seat about to
        act; the rest of ``deck`` is the draw pile."""
        n, dealt = self.players, self.players * hand_size
        for k in range(n):  # the k-th seat from the turn takes every n-th card from the end
            self.hands[(self.turn + k) % n].extend(deck[-1 - k : -1 - k - dealt : -n])
        del deck[len(deck) - dealt :]
        self.draw = deck

    def view(self, seat: int | None = None) -> JSON:
        out: JSON = {
            "variant": self.variant,
            "status": self.status,
            "options": dict(self.options),
            "players": [
                {
                    "seat": s,
                    **self._player_view(s),
                    "hand_size": len(self.hands[s]),
                    "discard_top": self.discards[s][-1] if self.discards[s] else None,
                }
                for s in range(self.players)
            ],
            "to_move": self.to_move,
            "result": self.result,
            "turn": self.turn,
            "dealer": self.dealer,
            "discards": [list(pile) for pile in self.discards],
            "draw_pile_count": len(self.draw),
            **self._table_view(),
            "log": self.log,
        }
        if seat is not None:
            out["you"] = {
                "seat": seat,
                **self._you_view(seat),
                "hand": list(self.hands[seat]),
                "legal_actions": self.legal_actions(seat),
            }
        return out

    def _player_view(self, seat: int) -> JSON:
        """The game's own public fields of a seat."""
        return {}

    def _you_view(self, seat: int) -> JSON:
        """The game's own fields of a seat, shown to that seat with its hand."""
        return {}

    @abstractmethod
    def _table_view(self) -> JSON:
        """The game's own public fields of a view (its board, piles, counters)."""

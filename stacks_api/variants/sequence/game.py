"""The Sequence rules (docs/rules.md) behind the engine façade."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, compress
from operator import or_
from typing import ClassVar

from ...rules.base import Action, Event, is_int
from ...rules.errors import bad_action, illegal
from ...rules.prebuilt import Prebuilt
from .board import (
    CARD_CELLS,
    CARD_SET,
    JACKS,
    ONE_EYED_JACKS,
    SIZE,
    TWO_EYED_JACKS,
)
from .moves import (
    DRAW_EVENTS,
    EXCHANGE,
    MOVES,
    PASS,
    PLAY,
    Move,
    PlayAction,
    play_event,
    where,
)
from .position import (
    CORNER,
    EMPTY,
    sequence_cells,
)
from .scoring import new_sequences
from .state import MOVING, SequenceState

# A hand's cards without their second copies, in the hand's order (a dict's keys).
_first_copies = dict.fromkeys


class SequenceGame(SequenceState):
    """One game of Sequence: a 10x10 board, 104 cards, teams racing for sequences."""

    variant: ClassVar[str] = "sequence"
    action_keys: ClassVar[dict[str, frozenset[str]]] = {
        "play": frozenset({"type", "card", "cell"}),
        "exchange": frozenset({"type", "card"}),
        "pass": frozenset({"type"}),
    }
    card_codes: ClassVar[frozenset[str]] = CARD_SET
    card_example: ClassVar[str] = "'7H' or 'JD'"
    # -- the façade ---------------------------------------------------------

    def _may_act(self, seat: int) -> bool:
        return seat == self.turn

    def apply(self, seat: int, action: Action, now: float | None = None) -> list[Event]:
        """As ``Game.apply``, with a short way for a play ``legal_actions`` handed out
        (searches and bots apply millions): anything else takes the general way."""
        if (
            type(action) is not PlayAction
            or type(seat) is not int
            or seat != self.turn
            or self.result is not None
        ):
            return super().apply(seat, action, now)
        return self._play(seat, action.move)

    def _prebuilt(self, action: object) -> bool:
        if type(action) is not dict and not isinstance(action, Prebuilt):
            return False
        kind, card = action.get("type"), action.get("card")
        if kind == "play":
            table = PLAY.get(card) if type(card) is str else None
            cell = action.get("cell")
            if table is None or type(cell) is not list or len(cell) != 2:
                return False
            row, col = cell
            if type(row) is not int or type(col) is not int:
                return False
            return 0 <= row < SIZE and 0 <= col < SIZE and table[row * SIZE + col] == action
        if kind == "exchange":
            return type(card) is str and EXCHANGE.get(card) == action
        return action == PASS

    def legal_actions(self, seat: int) -> list[Action]:
        if self.result is not None or seat != self.turn:
            return []
        hand = self.hands[seat]
        cards = iter(_first_copies(hand) if len(self.held[seat]) < len(hand) else hand)
        open_plays = self.open_plays
        plays: list[Action] = []
        for card in cards:  # a plain loop: several times quicker than chain over a hand
            found = open_plays[card]
            if found is None:  # a jack or a dead card: the rest of the hand goes the long way
                return self._unusual_hand(seat, card, cards, plays)
            plays += found
        return plays or [PASS]

    def _unusual_hand(
        self, seat: int, first: str, rest: Iterator[str], plays: list[Action]
    ) -> list[Action]:
        """``legal_actions`` from ``first``, a jack or a dead card, on: ``plays`` holds
        the plays of the cards before it, ``rest`` the cards after it. Trades come
        first, then plays, each in the order of the hand."""
        open_plays = self.open_plays
        exchanges: list[Action] = []
        for card in chain((first,), rest):
            found = open_plays[card]
            if found is not None:
                plays += found
            elif card in TWO_EYED_JACKS:
                plays += compress(PLAY[card], self.empty)  # type: ignore[arg-type]
            elif card in ONE_EYED_JACKS:
                plays += compress(PLAY[card], self._removable(seat))  # type: ignore[arg-type]
            elif not self.exchanged:  # a plain card with both spaces taken: dead
                exchanges.append(EXCHANGE[card])
        return exchanges + plays if exchanges else plays or [PASS]

    def team_of(self, seat: int) -> int:
        return self.setup.team_of(seat)

    def _removable(self, seat: int) -> bytes | bytearray:
        """1 where a one-eyed jack of ``seat`` may clear a cell: an opposing chip in no
        sequence."""
        team = self.team_at[seat]
        if len(self.loose) == 2:
            return self.loose[1 - team]
        return bytes(map(or_, *(flags for t, flags in enumerate(self.loose) if t != team)))

    def _apply(self, seat: int, action: Action, now: float | None) -> list[Event]:
        kind = action["type"]
        if kind == "play":
            row, col = action["cell"]
            return self._play(seat, MOVES[action["card"]][row * SIZE + col])
        if kind == "exchange":
            return self._exchange(seat, action)
        return self._pass(seat)

    def _check_shape(self, seat: object, action: object) -> None:
        super()._check_shape(seat, action)
        assert isinstance(action, dict)
        if action["type"] == "play":
            cell = action.get("cell")
            if not (
                isinstance(cell, list | tuple)
                and len(cell) == 2
                and is_int(cell[0])
                and is_int(cell[1])
                and 0 <= cell[0] < SIZE
                and 0 <= cell[1] < SIZE
            ):
                raise bad_action(f"cell must be [row, col] with each from 0 to 9, not {cell!r}")

    # -- the moves ----------------------------------------------------------

    def _play(self, seat: int, move: Move) -> list[Event]:
        card, cell, removes, fits, printed, other, taken, both, alone, spots, said = move
        held = self.held[seat]
        copies = held.get(card)
        if copies is None:
            raise illegal(f"you do not hold {card}")
        team = self.team_at[seat]
        board = self.board
        here = board[cell]
        if removes:
            self._check_removal(card, cell, team)
            board[cell] = EMPTY
            self.empty[cell] = 1
            self.open_plays[printed] = both if board[other] == EMPTY else alone
            self.loose[here][cell] = 0
            patterns = self.lines[here]
            for line, bit, _, _ in spots:
                patterns[line] &= ~bit
        else:
            if here != EMPTY or not fits:
                self._check_placement(card, cell)  # says why it is refused
            board[cell] = team
            self.empty[cell] = 0
            self.open_plays[printed] = taken if board[other] == EMPTY else None
            self.loose[team][cell] = 1
        hand = self.hands[seat]
        hand.remove(card)  # _give_up, inlined with the count already looked up
        if copies == 1:
            del held[card]
        else:
            held[card] = 1
        self.discards[seat].append(card)
        self.passes = 0
        played = said[seat] or play_event(said, seat, card, cell)
        if here == EMPTY:
            # The chip joins its four lines; a new sequence needs five in a row on one
            # of them. Unrolled: every placement asks, and almost always hears no.
            patterns = self.lines[team]
            (
                (a, bit_a, five_a, _),
                (b, bit_b, five_b, _),
                (c, bit_c, five_c, _),
                (d, bit_d, five_d, _),
            ) = spots
            on_a = patterns[a] = patterns[a] | bit_a
            on_b = patterns[b] = patterns[b] | bit_b
            on_c = patterns[c] = patterns[c] | bit_c
            on_d = patterns[d] = patterns[d] | bit_d
            if five_a[on_a] or five_b[on_b] or five_c[on_c] or five_d[on_d]:
                return self._five_in_a_row(seat, cell, team, played)
        draw = self.draw
        if draw:  # the usual case of _draw_card, inlined: every play draws
            drawn = draw.pop()
            held[drawn] = held.get(drawn, 0) + 1
            hand.append(drawn)
            events: list[Event] = [played, DRAW_EVENTS[seat]]
        else:
            events = [played]
            self._draw_card(seat, events)
        self.turn = turn = (seat + 1) % self.players  # _move_to, inlined
        self.to_move = MOVING[turn]
        self.exchanged = False
        return events

    def _five_in_a_row(self, seat: int, cell: int, team: int, played: Event) -> list[Event]:
        """The rest of a play whose chip made five in a row: the sequences it records,
        and the game's end or the draw and the next turn."""
        events = [played]
        if not self._score(cell, team, events):
            self._draw_card(seat, events)
            self._next_turn()
        return events

    def _check_placement(self, card: str, cell: int) -> None:
        here = self.board[cell]
        if card in TWO_EYED_JACKS:
            if here == CORNER:
                raise illegal(f"{where(cell)} is a corner: a free space that takes no chip")
        elif cell not in CARD_CELLS[card]:
            spaces = " and ".join(where(c) for c in CARD_CELLS[card])
            raise illegal(f"{card} is not printed at {where(cell)}; its spaces are {spaces}")
        elif all(self.board[c] != EMPTY for c in CARD_CELLS[card]):
            raise illegal(f"{card} has no open space")
        if here != EMPTY:
            raise illegal(f"{where(cell)} already holds a chip")

    def _check_removal(self, card: str, cell: int, team: int) -> None:
        here = self.board[cell]
        if here == CORNER:
            raise illegal(f"{card} cannot remove a corner: it is a free space")
        if here == EMPTY:
            raise illegal(f"{card} needs a chip to remove; {where(cell)} is empty")
        if here == team:
            raise illegal(f"{card} cannot remove your own team's chip")
        if self.locked[cell]:
            raise illegal(f"{card} cannot remove a chip in a completed sequence")

    def _exchange(self, seat: int, action: Action) -> list[Event]:
        card: str = action["card"]
        if self.exchanged:
            raise illegal("you have already exchanged a dead card this turn")
        if card not in self.held[seat]:
            raise illegal(f"you do not hold {card}")
        if card in JACKS:
            raise illegal(f"{card} is a jack, and jacks are never dead")
        if self.open_plays[card]:
            raise illegal(f"{card} is not dead: one of its spaces is open")
        self._give_up(seat, card)
        self.discards[seat].append(card)
        self.exchanged = True
        events: list[Event] = [{"type": "exchange", "seat": seat, "card": card}]
        self._draw_card(seat, events)
        return events

    def _pass(self, seat: int) -> list[Event]:
        if self.legal_actions(seat) != [PASS]:
            raise illegal("you may pass only when you can neither play nor exchange a card")
        self.passes += 1
        events: list[Event] = [{"type": "pass", "seat": seat}]
        if self.passes >= self.players:
            self._finish({"draw": True}, events)
        else:
            self._next_turn()
        return events

    # -- bookkeeping --------------------------------------------------------

    def _next_turn(self) -> None:
        self._move_to((self.turn + 1) % self.players)
        self.exchanged = False

    def _draw_card(self, seat: int, events: list[Event]) -> None:
        if not self.draw:
            pile = [card for discard in self.discards for card in discard]
            if not pile:
                return
            for discard in self.discards:
                discard.clear()
            self.rng.shuffle(pile)
            self.draw = pile
            events.append({"type": "reshuffle", "cards": len(pile)})
        drawn = self.draw.pop()
        held = self.held[seat]
        held[drawn] = held.get(drawn, 0) + 1
        self.hands[seat].append(drawn)
        events.append(DRAW_EVENTS[seat])

    def _give_up(self, seat: int, card: str) -> None:
        """Take one copy of ``card``, which the seat holds, out of its hand."""
        self.hands[seat].remove(card)
        held = self.held[seat]
        if held[card] == 1:
            del held[card]
        else:
            held[card] = 1

    def _score(self, cell: int, team: int, events: list[Event]) -> bool:
        """Record the sequences a chip at ``cell`` completes; True when that wins."""
        mine = [cells for t, cells in self.sequences if t == team]
        found = new_sequences(cell, self.lines[team], mine)
        if not found:
            return False
        for cells in found:
            self._record(team, cells)
            events.append({"type": "sequence", "team": team, "cells": sequence_cells(cells)})
        if len(mine) + len(found) >= self.setup.sequences_to_win:
            self._finish({"winner_team": team}, events)
            return True
        return False

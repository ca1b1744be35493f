"""The Sequence rules (docs/rules.md) behind the engine façade."""

from __future__ import annotations

import copy
from itertools import compress
from typing import ClassVar

from ...engine.base import JSON, Action, Event, is_int
from ...engine.cards import CardGame
from ...engine.errors import bad_action, illegal
from ...engine.rng import Rng
from .board import (
    CARD_CELLS,
    CARD_SET,
    CELLS,
    CORNER_BITS,
    CORNERS,
    JACKS,
    LINE_BITS,
    ONE_EYED_JACKS,
    RAYS,
    SIZE,
    STAR_BITS,
    TWO_EYED_JACKS,
    coords,
)
from .position import (
    CORNER,
    EMPTY,
    SequencePosition,
    board_rows,
    read_position,
    sequence_cells,
    write_position,
)
from .setup import COLORS, DECK, Setup, cut_for_deal, resolve_setup

# Prebuilt, shared action dicts: legal_actions hands out references, never copies.
_PLAY: dict[str, list[Action | None]] = {
    card: [
        None if cell in CORNERS else {"type": "play", "card": card, "cell": coords(cell)}
        for cell in range(CELLS)
    ]
    for card in CARD_SET
}
_EXCHANGE: dict[str, Action] = {card: {"type": "exchange", "card": card} for card in CARD_SET}
_PASS: Action = {"type": "pass"}
_IS_EMPTY = EMPTY.__eq__
_EMPTY_BOARD = tuple(CORNER if c in CORNERS else EMPTY for c in range(CELLS))
# What a card does: placed on its own two spaces, anywhere open, or removing a chip.
_PLAIN, _TWO_EYED, _ONE_EYED = "plain", "two-eyed", "one-eyed"
_KIND = {
    card: _TWO_EYED if card in TWO_EYED_JACKS else _ONE_EYED if card in ONE_EYED_JACKS else _PLAIN
    for card in CARD_SET
}


def _plain_moves(card: str) -> tuple[int, int, Action, Action, Action]:
    """All legal_actions needs of a plain card in one lookup: its two spaces, the play
    on each, and its exchange."""
    first, second = CARD_CELLS[card]
    on_first, on_second = _PLAY[card][first], _PLAY[card][second]
    assert on_first is not None and on_second is not None  # no card shows a corner
    return first, second, on_first, on_second, _EXCHANGE[card]


_PLAIN_MOVES = {card: _plain_moves(card) if _KIND[card] is _PLAIN else None for card in CARD_SET}


def _where(cell: int) -> str:
    row, col = divmod(cell, SIZE)
    return f"[{row}, {col}]"


class SequenceGame(CardGame[Setup, SequencePosition]):
    """One game of Sequence: a 10x10 board, 104 cards, teams racing for sequences."""

    variant: ClassVar[str] = "sequence"
    action_keys: ClassVar[dict[str, frozenset[str]]] = {
        "play": frozenset({"type", "card", "cell"}),
        "exchange": frozenset({"type", "card"}),
        "pass": frozenset({"type"}),
    }
    card_codes: ClassVar[frozenset[str]] = CARD_SET
    card_example: ClassVar[str] = "'7H' or 'JD'"
    setup: Setup

    @classmethod
    def _resolve(cls, players: object, options: JSON | None) -> Setup:
        return resolve_setup(players, options)

    @classmethod
    def _read(cls, position: object, setup: Setup, rng: Rng) -> SequencePosition:
        return read_position(position, setup, rng)

    def __init__(self, setup: Setup, rng: Rng) -> None:
        self.setup = setup
        self.players = setup.players
        self.options = setup.options()
        self.rng = rng
        self.result: JSON | None = None
        self.board: list[int] = list(_EMPTY_BOARD)
        self.locked = bytearray(CELLS)  # 1 where a chip belongs to a recorded sequence
        self.loose: set[int] = set()  # cells with a chip in no sequence: what jacks remove
        self.held = [0] * setup.teams  # per team, its chips as a bit mask of cells
        self.team_at = [setup.team_of(seat) for seat in range(setup.players)]
        self.sequences: list[tuple[int, tuple[int, ...]]] = []
        self.hands: list[list[str]] = [[] for _ in range(setup.players)]
        self.discards: list[list[str]] = [[] for _ in range(setup.players)]
        self.draw: list[str] = []  # the next card to draw is last
        self.turn = 0
        self.dealer: int | None = None
        self.log: list[Event] = []  # public setup events: the cut and the deal
        self.exchanged = False  # the seat to move has traded a dead card this turn
        self.passes = 0  # consecutive passes; a full round of them is a draw

    # -- construction -------------------------------------------------------

    def _restore(self, data: JSON) -> None:
        finished = data["result"] is not None
        self._load(read_position(data["position"], self.setup, self.rng, finished=finished))
        self.exchanged, self.passes = data["exchanged"], data["passes"]

    def _deal(self) -> None:
        dealer, rounds = cut_for_deal(self.rng, self.players)
        self.dealer = dealer
        self.turn = (dealer + 1) % self.players
        deck = list(DECK)
        self.rng.shuffle(deck)
        self._deal_hands(deck, self.setup.hand_size)
        self.log = [*rounds, {"type": "deal", "dealer": dealer, "first": self.turn}]

    def _load(self, pos: SequencePosition) -> None:
        self.board = pos.board
        self.hands, self.discards, self.draw, self.turn = (
            pos.hands,
            pos.discards,
            pos.draw,
            pos.turn,
        )
        self.exchanged, self.passes = pos.exchanged, pos.passes
        self.loose = {c for c, v in enumerate(self.board) if v != EMPTY and v != CORNER}
        for cell in self.loose:
            self.held[self.board[cell]] |= 1 << cell
        for team, cells in pos.sequences:
            self._record(team, cells)

    def _record(self, team: int, cells: tuple[int, ...]) -> None:
        self.sequences.append((team, cells))
        for cell in cells:
            self.locked[cell] = 1
        self.loose.difference_update(cells)

    # -- the façade ---------------------------------------------------------

    @property
    def to_move(self) -> list[int]:
        return [] if self.result is not None else [self.turn]

    def _may_act(self, seat: int) -> bool:
        return seat == self.turn

    def _prebuilt(self, action: object) -> bool:
        if type(action) is not dict:
            return False
        kind, card = action.get("type"), action.get("card")
        if kind == "play":
            table = _PLAY.get(card) if type(card) is str else None
            cell = action.get("cell")
            if table is None or type(cell) is not list or len(cell) != 2:
                return False
            row, col = cell
            if type(row) is not int or type(col) is not int:
                return False
            return 0 <= row < SIZE and 0 <= col < SIZE and table[row * SIZE + col] == action
        if kind == "exchange":
            return type(card) is str and _EXCHANGE.get(card) == action
        return action == _PASS

    def legal_actions(self, seat: int) -> list[Action]:
        if self.result is not None or seat != self.turn:
            return []
        board = self.board
        check_dead = not self.exchanged
        # Trades come first, then plays, each in the order of the hand.
        exchanges: list[Action] = []
        plays: list[Action] = []
        play, empty = plays.append, EMPTY
        for card in dict.fromkeys(self.hands[seat]):
            moves = _PLAIN_MOVES[card]
            if moves is not None:
                first, second, on_first, on_second, exchange = moves
                if board[first] == empty:
                    play(on_first)
                    if board[second] == empty:
                        play(on_second)
                elif board[second] == empty:
                    play(on_second)
                elif check_dead:
                    exchanges.append(exchange)
            elif card in TWO_EYED_JACKS:
                plays += compress(_PLAY[card], map(_IS_EMPTY, board))  # type: ignore[arg-type]
            else:
                table = _PLAY[card]
                plays += [table[c] for c in self._removable(seat)]  # type: ignore[misc]
        return exchanges + plays if exchanges or plays else [_PASS]

    def team_of(self, seat: int) -> int:
        return self.setup.team_of(seat)

    def _removable(self, seat: int) -> list[int]:
        """Cells a one-eyed jack of ``seat`` may clear: opposing chips not in a sequence."""
        team, board = self.setup.team_of(seat), self.board
        return sorted(c for c in self.loose if board[c] != team)

    def _apply(self, seat: int, action: Action, now: float | None) -> list[Event]:
        kind = action["type"]
        if kind == "play":
            return self._play(seat, action)
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

    def _play(self, seat: int, action: Action) -> list[Event]:
        card: str = action["card"]
        row, col = action["cell"]
        cell = row * SIZE + col
        hand = self.hands[seat]
        if card not in hand:
            raise illegal(f"you do not hold {card}")
        team = self.team_at[seat]
        board = self.board
        here = board[cell]
        kind = _KIND[card]
        if kind is _ONE_EYED:
            self._check_removal(card, cell, team)
            board[cell] = EMPTY
            self.loose.remove(cell)
            self.held[here] &= ~(1 << cell)
        else:
            if here != EMPTY or (kind is _PLAIN and cell not in CARD_CELLS[card]):
                self._check_placement(card, cell)  # says why it is refused
            board[cell] = team
            self.loose.add(cell)
            self.held[team] |= 1 << cell
        hand.remove(card)
        self.discards[seat].append(card)
        self.passes = 0
        events: list[Event] = [{"type": "play", "seat": seat, "card": card, "cell": [row, col]}]
        # A new sequence needs four more of the team's chips or corners on the lines
        # through the cell: one bit count tells the usual case, that there are not.
        if (
            here == EMPTY
            and ((self.held[team] | CORNER_BITS) & STAR_BITS[cell]).bit_count() >= 4
            and self._score(cell, team, events)
        ):
            return events
        if self.draw:  # the usual case of _draw_card, inlined: every play draws
            hand.append(self.draw.pop())
            events.append({"type": "draw", "seat": seat})
        else:
            self._draw_card(seat, events)
        self._next_turn()
        return events

    def _check_placement(self, card: str, cell: int) -> None:
        here = self.board[cell]
        if card in TWO_EYED_JACKS:
            if here == CORNER:
                raise illegal(f"{_where(cell)} is a corner: a free space that takes no chip")
        elif cell not in CARD_CELLS[card]:
            spaces = " and ".join(_where(c) for c in CARD_CELLS[card])
            raise illegal(f"{card} is not printed at {_where(cell)}; its spaces are {spaces}")
        elif all(self.board[c] != EMPTY for c in CARD_CELLS[card]):
            raise illegal(f"{card} has no open space")
        if here != EMPTY:
            raise illegal(f"{_where(cell)} already holds a chip")

    def _check_removal(self, card: str, cell: int, team: int) -> None:
        here = self.board[cell]
        if here == CORNER:
            raise illegal(f"{card} cannot remove a corner: it is a free space")
        if here == EMPTY:
            raise illegal(f"{card} needs a chip to remove; {_where(cell)} is empty")
        if here == team:
            raise illegal(f"{card} cannot remove your own team's chip")
        if self.locked[cell]:
            raise illegal(f"{card} cannot remove a chip in a completed sequence")

    def _exchange(self, seat: int, action: Action) -> list[Event]:
        card: str = action["card"]
        hand = self.hands[seat]
        if self.exchanged:
            raise illegal("you have already exchanged a dead card this turn")
        if card not in hand:
            raise illegal(f"you do not hold {card}")
        if card in JACKS:
            raise illegal(f"{card} is a jack, and jacks are never dead")
        if any(self.board[c] == EMPTY for c in CARD_CELLS[card]):
            raise illegal(f"{card} is not dead: one of its spaces is open")
        hand.remove(card)
        self.discards[seat].append(card)
        self.exchanged = True
        events: list[Event] = [{"type": "exchange", "seat": seat, "card": card}]
        self._draw_card(seat, events)
        return events

    def _pass(self, seat: int) -> list[Event]:
        if self.legal_actions(seat) != [_PASS]:
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
        self.turn = (self.turn + 1) % self.players
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
        self.hands[seat].append(self.draw.pop())
        events.append({"type": "draw", "seat": seat})

    def _score(self, cell: int, team: int, events: list[Event]) -> bool:
        """Record the sequences a chip at ``cell`` completes; True when that wins."""
        found = self._new_sequences(cell, team)
        if not found:
            return False
        for cells in found:
            self._record(team, cells)
            events.append({"type": "sequence", "team": team, "cells": sequence_cells(cells)})
        total = sum(1 for t, _ in self.sequences if t == team)
        if total >= self.setup.sequences_to_win:
            self._finish({"winner_team": team}, events)
            return True
        return False

    def _new_sequences(self, cell: int, team: int) -> list[tuple[int, ...]]:
        """The windows docs/rules.md records for a chip just placed at ``cell``.

        Per line through the cell: the windows containing it that share at most one
        space with the team's sequences; two (sharing only ``cell``) when both ends
        qualify, else the first in reading order.
        """
        held = self.held[team] | CORNER_BITS
        board = self.board
        found: list[tuple[int, ...]] = []
        for bits, (behind, ahead) in zip(LINE_BITS[cell], RAYS[cell], strict=True):
            if (held & bits).bit_count() < 4:
                continue  # this line holds fewer than four more: no run of five
            # How far the team's chips (or corners) run each way; inlined: the hot loop.
            back = 0
            for c in behind:
                v = board[c]
                if v != team and v != CORNER:
                    break
                back += 1
            fwd = 0
            for c in ahead:
                v = board[c]
                if v != team and v != CORNER:
                    break
                fwd += 1
            if back + fwd < 4:
                continue
            run = (*behind[:back][::-1], cell, *ahead[:fwd])
            windows = [run[s : s + 5] for s in range(max(0, back - 4), min(back, len(run) - 5) + 1)]
            fitting = [w for w in windows if self._fits(w, team)]
            if not fitting:
                continue
            if len(fitting) > 1 and fitting[-1][0] == cell and fitting[0][-1] == cell:
                found += (fitting[0], fitting[-1])
            else:
                found.append(fitting[0])
        return found

    def _fits(self, window: tuple[int, ...], team: int) -> bool:
        cells = set(window)
        return all(len(cells.intersection(s)) <= 1 for t, s in self.sequences if t == team)

    def copy(self) -> SequenceGame:
        """As ``Game.copy``, about thirty times faster than deepcopy: searches copy a game for
        every move they try. Only the parts a move changes are copied; setup, options
        and the deal log are never changed in place, so the copy shares them."""
        twin = copy.copy(self)
        twin.rng = Rng(self.rng.state)
        twin.board = list(self.board)
        twin.locked = bytearray(self.locked)
        twin.loose = set(self.loose)
        twin.held = list(self.held)
        twin.sequences = list(self.sequences)
        twin.hands = [list(hand) for hand in self.hands]
        twin.discards = [list(pile) for pile in self.discards]
        twin.draw = list(self.draw)
        return twin

    # -- views and serialization --------------------------------------------

    def _position(self) -> JSON:
        return write_position(
            self.board, self.sequences, self.hands, self.discards, self.draw, self.turn
        )

    def _player_view(self, seat: int) -> JSON:
        team = self.setup.team_of(seat)
        return {"team": team, "color": COLORS[team]}

    def _you_view(self, seat: int) -> JSON:
        return {"team": self.setup.team_of(seat)}

    def _table_view(self) -> JSON:
        return {
            "board": board_rows(self.board),
            "sequences": [sequence_cells(cells) for _, cells in self.sequences],
            "exchanged": self.exchanged,
            "passes": self.passes,
        }

    def _saved(self) -> JSON:
        return {"position": self._position(), "exchanged": self.exchanged, "passes": self.passes}

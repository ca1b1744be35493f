"""The Sequence rules (docs/rules.md) behind the engine façade."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from itertools import chain, compress
from typing import ClassVar

from ...rules.base import JSON, Action, Event, is_int
from ...rules.cards import CardGame
from ...rules.errors import bad_action, illegal
from ...rules.prebuilt import Prebuilt
from ...rules.rng import Rng
from .board import (
    CARD_CELLS,
    CARD_SET,
    CELLS,
    CORNERS,
    JACKS,
    LAYOUT,
    ONE_EYED_JACKS,
    RAYS,
    SIZE,
    SPOTS,
    TWO_EYED_JACKS,
    Spot,
    line_patterns,
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
from .setup import COLORS, DECK, MOST_PLAYERS, Setup, cut_for_deal, resolve_setup

# What a card does: placed on its own two spaces, anywhere open, or removing a chip.
_PLAIN, _TWO_EYED, _ONE_EYED = "plain", "two-eyed", "one-eyed"
_KIND = {
    card: _TWO_EYED if card in TWO_EYED_JACKS else _ONE_EYED if card in ONE_EYED_JACKS else _PLAIN
    for card in CARD_SET
}
Plays = tuple[Action, ...]


# A play of a card at a cell with every fact of that pair the move needs, worked out
# once so that _play reads them all in one step (see _move for the fields). A plain
# tuple: the interpreter unpacks only exact tuples the quick way.
_Move = tuple[
    str, int, bool, bool, str, int, Plays, Plays, Plays, tuple[Spot, ...], list[Prebuilt | None]
]


class _Play(Prebuilt):
    """A Sequence play legal_actions hands out; its ``move`` is its _Move."""

    __slots__ = ()


# The actions legal_actions hands out, built once.
_PLAY: dict[str, list[_Play | None]] = {
    card: [
        None if cell in CORNERS else _Play({"type": "play", "card": card, "cell": [row, col]})
        for cell in range(CELLS)
        for row, col in [divmod(cell, SIZE)]
    ]
    for card in CARD_SET
}
_EXCHANGE = {card: Prebuilt({"type": "exchange", "card": card}) for card in CARD_SET}
_PASS = Prebuilt({"type": "pass"})
_EMPTY_BOARD = tuple(CORNER if c in CORNERS else EMPTY for c in range(CELLS))
_EMPTY_FLAGS = bytes(v == EMPTY for v in _EMPTY_BOARD)
_CORNER_PATTERNS = tuple(line_patterns(()))


def _plays(card: str, cells: list[int]) -> Plays:
    """The card's prebuilt plays on ``cells``, in index order."""
    return tuple(action for c in sorted(cells) if (action := _PLAY[card][c]) is not None)


def _move(card: str, cell: int) -> _Move:
    """The card and cell; whether the card removes a chip (a one-eyed jack); whether
    it may take the cell when the cell is open (its own space, or any space for a
    two-eyed jack); the card printed at the cell ("" at a corner) and that card's
    other space; that card's plays once the cell is taken and the other space is
    open, once the cell is freed and the other space is open, and once it is freed
    and the other is taken; the cell's spots on its lines; per seat, the event of
    that seat's play, made when first needed (see _play_event)."""
    kind = _KIND[card]
    fits = kind is _TWO_EYED or (kind is _PLAIN and cell in CARD_CELLS[card])
    removes, spots = kind is _ONE_EYED, SPOTS[cell]
    said: list[Prebuilt | None] = [None] * MOST_PLAYERS
    if cell in CORNERS:  # a corner takes no chip and loses none: the move is refused
        return (card, cell, removes, fits, "", cell, (), (), (), spots, said)
    printed = LAYOUT[cell]
    other = next(c for c in CARD_CELLS[printed] if c != cell)
    return (
        card, cell, removes, fits, printed, other,
        _plays(printed, [other]), _plays(printed, [cell, other]), _plays(printed, [cell]),
        spots, said,
    )  # fmt: skip


# Every card at every cell, corners included (a move that is refused).
_MOVES = {card: [_move(card, cell) for cell in range(CELLS)] for card in CARD_SET}


def _give_plays_their_moves() -> None:
    """Each prebuilt play carries its move (made after the plays, as a move lists plays)."""
    for card, table in _PLAY.items():
        for cell, action in enumerate(table):
            if action is not None:
                action.move = _MOVES[card][cell]


_give_plays_their_moves()
# A plain card's plays on the empty board; a jack has none of its own (None).
_OPEN_PLAYS: dict[str, Plays | None] = {
    card: None if card in JACKS else _plays(card, list(CARD_CELLS[card])) for card in CARD_SET
}


def _play_event(said: list[Prebuilt | None], seat: int, card: str, cell: int) -> Prebuilt:
    """The event of ``seat`` playing ``card`` at ``cell``, kept in ``said`` (its move's
    list) for every later game: events, like actions, are shared and read-only."""
    event = Prebuilt({"type": "play", "seat": seat, "card": card, "cell": list(divmod(cell, SIZE))})
    said[seat] = event
    return event


# Each seat's draw event, shared in the same way.
_DRAW_EVENTS = tuple(Prebuilt({"type": "draw", "seat": seat}) for seat in range(MOST_PLAYERS))


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
        # Kept alongside the board, each for one question asked every move:
        self.empty = bytearray(_EMPTY_FLAGS)  # 1 where a chip may go
        # Per plain card, its plays on its open spaces (None once it is dead); None for jacks.
        self.open_plays = dict(_OPEN_PLAYS)
        self.locked = bytearray(CELLS)  # 1 where a chip belongs to a recorded sequence
        # Per team, its chips in no sequence: what the other teams' jacks may remove.
        self.loose: list[set[int]] = [set() for _ in range(setup.teams)]
        # Per team, the pattern of each line with its chips and the corners (board.py).
        self.lines = [list(_CORNER_PATTERNS) for _ in range(setup.teams)]
        self.team_at = [setup.team_of(seat) for seat in range(setup.players)]
        self.sequences: list[tuple[int, tuple[int, ...]]] = []
        self.hands: list[list[str]] = [[] for _ in range(setup.players)]
        # Per seat, how many copies of each card it holds. A dict lookup answers "does
        # the seat hold this card?" several times faster than a scan of the hand, and
        # fewer entries than cards mean a card held twice: legal_actions lists each
        # card's plays once, and most hands need no sorting out of duplicates.
        self.held: list[dict[str, int]] = [{} for _ in range(setup.players)]
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
        self._count_held()
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
        self._count_held()
        for cell, team in enumerate(self.board):
            if team != EMPTY and team != CORNER:
                self.empty[cell] = 0
                self.loose[team].add(cell)
        self.lines = [line_patterns(chips) for chips in self.loose]
        for card in self.open_plays:
            if card not in JACKS:
                open_cells = [c for c in CARD_CELLS[card] if self.board[c] == EMPTY]
                self.open_plays[card] = _plays(card, open_cells) or None
        for team, cells in pos.sequences:
            self._record(team, cells)

    def _count_held(self) -> None:
        self.held = [dict.fromkeys(hand, 0) for hand in self.hands]
        for hand, held in zip(self.hands, self.held, strict=True):
            for card in hand:
                held[card] += 1

    def _record(self, team: int, cells: tuple[int, ...]) -> None:
        self.sequences.append((team, cells))
        for cell in cells:
            self.locked[cell] = 1
        self.loose[team].difference_update(cells)

    # -- the façade ---------------------------------------------------------

    @property
    def to_move(self) -> list[int]:
        return [] if self.result is not None else [self.turn]

    def _may_act(self, seat: int) -> bool:
        return seat == self.turn

    def apply(self, seat: int, action: Action, now: float | None = None) -> list[Event]:
        """As ``Game.apply``, with a short way for a play ``legal_actions`` handed out
        (searches and bots apply millions): anything else takes the general way."""
        if (
            type(action) is not _Play
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
        hand = self.hands[seat]
        cards = iter(dict.fromkeys(hand) if len(self.held[seat]) < len(hand) else hand)
        open_plays = self.open_plays
        plays: list[Action] = []
        for card in cards:  # a plain loop: several times quicker than chain over a hand
            found = open_plays[card]
            if found is None:  # a jack or a dead card: the rest of the hand goes the long way
                return self._unusual_hand(seat, card, cards, plays)
            plays += found
        return plays or [_PASS]

    def _unusual_hand(
        self, seat: int, first: str, rest: Iterator[str], plays: list[Action]
    ) -> list[Action]:
        """``legal_actions`` from ``first``, a jack or a dead card, on: ``plays`` holds
        the plays of the cards before it, ``rest`` the cards after it. Trades come
        first, then plays, each in the order of the hand."""
        exchanges: list[Action] = []
        for card in chain((first,), rest):
            found = self.open_plays[card]
            if found is not None:
                plays += found
            elif card in TWO_EYED_JACKS:
                plays += compress(_PLAY[card], self.empty)  # type: ignore[arg-type]
            elif card in ONE_EYED_JACKS:
                plays += map(_PLAY[card].__getitem__, self._removable(seat))  # type: ignore[arg-type]
            elif not self.exchanged:  # a plain card with both spaces taken: dead
                exchanges.append(_EXCHANGE[card])
        return exchanges + plays if exchanges else plays or [_PASS]

    def team_of(self, seat: int) -> int:
        return self.setup.team_of(seat)

    def _removable(self, seat: int) -> list[int]:
        """Cells a one-eyed jack of ``seat`` may clear: opposing chips not in a sequence."""
        team = self.team_at[seat]
        if len(self.loose) == 2:
            return sorted(self.loose[1 - team])
        return sorted(set().union(*(cells for t, cells in enumerate(self.loose) if t != team)))

    def _apply(self, seat: int, action: Action, now: float | None) -> list[Event]:
        kind = action["type"]
        if kind == "play":
            row, col = action["cell"]
            return self._play(seat, _MOVES[action["card"]][row * SIZE + col])
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

    def _play(self, seat: int, move: _Move) -> list[Event]:
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
            self.loose[here].remove(cell)
            patterns = self.lines[here]
            for line, bit, _, _ in spots:
                patterns[line] &= ~bit
        else:
            if here != EMPTY or not fits:
                self._check_placement(card, cell)  # says why it is refused
            board[cell] = team
            self.empty[cell] = 0
            self.open_plays[printed] = taken if board[other] == EMPTY else None
            self.loose[team].add(cell)
        hand = self.hands[seat]
        hand.remove(card)  # _give_up, inlined with the count already looked up
        if copies == 1:
            del held[card]
        else:
            held[card] = 1
        self.discards[seat].append(card)
        self.passes = 0
        events: list[Event] = [said[seat] or _play_event(said, seat, card, cell)]
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
            if (five_a[on_a] or five_b[on_b] or five_c[on_c] or five_d[on_d]) and self._score(
                cell, team, events
            ):
                return events
        if self.draw:  # the usual case of _draw_card, inlined: every play draws
            drawn = self.draw.pop()
            held[drawn] = held.get(drawn, 0) + 1
            hand.append(drawn)
            events.append(_DRAW_EVENTS[seat])
        else:
            self._draw_card(seat, events)
        self.turn = (seat + 1) % self.players  # _next_turn, inlined
        self.exchanged = False
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
        drawn = self.draw.pop()
        held = self.held[seat]
        held[drawn] = held.get(drawn, 0) + 1
        self.hands[seat].append(drawn)
        events.append(_DRAW_EVENTS[seat])

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
        patterns = self.lines[team]
        found: list[tuple[int, ...]] = []
        for (line, _, _, runs), (behind, ahead) in zip(SPOTS[cell], RAYS[cell], strict=True):
            reach = runs[patterns[line]]
            if reach is None:
                continue  # no five in a row through the cell along this line
            back, fwd = reach
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
        twin.empty = bytearray(self.empty)
        twin.open_plays = dict(self.open_plays)
        twin.locked = bytearray(self.locked)
        twin.loose = [set(cells) for cells in self.loose]
        twin.lines = [list(patterns) for patterns in self.lines]
        twin.sequences = list(self.sequences)
        twin.hands = [list(hand) for hand in self.hands]
        twin.held = [dict(cards) for cards in self.held]
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

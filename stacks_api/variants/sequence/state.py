"""A Sequence table: the board and what is kept beside it for speed, the hands and
piles; how it is dealt, loaded from a position, saved, copied and shown. The rules
of play are ``game.py``'s."""

from __future__ import annotations

import copy
from typing import Self

from ...rules.base import JSON, Event
from ...rules.cards import CardGame
from ...rules.prebuilt import ReadOnlyList
from ...rules.rng import Rng
from .board import (
    CELLS,
    line_patterns,
)
from .moves import (
    CORNER_PATTERNS,
    EMPTY_BOARD,
    EMPTY_FLAGS,
    OPEN_PLAYS,
    PLAYS_ON_OPEN,
)
from .position import (
    CORNER,
    EMPTY,
    SequencePosition,
    board_rows,
    read_position,
    sequence_cells,
    trusted_position,
    write_position,
)
from .setup import COLORS, DECK, MOST_PLAYERS, Setup, cut_for_deal, resolve_setup

# What ``to_move`` holds: one read-only list per seat, shared by every game, and one
# for a game that is over (see _move_to).
MOVING = tuple(ReadOnlyList([seat]) for seat in range(MOST_PLAYERS))
NOBODY = ReadOnlyList()


class SequenceState(CardGame[Setup, SequencePosition]):
    """The state of one game of Sequence, without its rules of play."""

    setup: Setup
    to_move: list[int]  # kept by _move_to and _finish

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
        self.board: list[int] = list(EMPTY_BOARD)
        # Kept alongside the board, each for one question asked every move:
        self.empty = bytearray(EMPTY_FLAGS)  # 1 where a chip may go
        # Per plain card, its plays on its open spaces (None once it is dead); None for jacks.
        self.open_plays = dict(OPEN_PLAYS)
        self.locked = bytearray(CELLS)  # 1 where a chip belongs to a recorded sequence
        # Per team, 1 where it has a chip in no sequence: what the other teams' jacks may
        # remove (flags, not a set: they list the jack's plays in one pass, in order).
        self.loose = [bytearray(CELLS) for _ in range(setup.teams)]
        # Per team, the pattern of each line with its chips and the corners (board.py).
        self.lines = [list(CORNER_PATTERNS) for _ in range(setup.teams)]
        self.team_at = setup.seat_teams
        self.sequences: list[tuple[int, tuple[int, ...]]] = []
        self.hands: list[list[str]] = [[] for _ in range(setup.players)]
        # Per seat, how many copies of each card it holds. A dict lookup answers "does
        # the seat hold this card?" several times faster than a scan of the hand, and
        # fewer entries than cards mean a card held twice: legal_actions lists each
        # card's plays once, and most hands need no sorting out of duplicates.
        self.held: list[dict[str, int]] = []  # filled with the hands (_count_held)
        self.discards: list[list[str]] = [[] for _ in range(setup.players)]
        self.draw: list[str] = []  # the next card to draw is last
        self._move_to(0)
        self.dealer: int | None = None
        self.log: list[Event] = []  # public setup events: the cut and the deal
        self.exchanged = False  # the seat to move has traded a dead card this turn
        self.passes = 0  # consecutive passes; a full round of them is a draw

    # -- construction -------------------------------------------------------

    def _restore(self, data: JSON, trusted: bool) -> None:
        if trusted:
            self._load(trusted_position(data["position"]))
        else:
            finished = data["result"] is not None
            self._load(read_position(data["position"], self.setup, self.rng, finished=finished))
        self.exchanged, self.passes = data["exchanged"], data["passes"]
        if data["result"] is not None:
            self.to_move = NOBODY

    def _move_to(self, seat: int) -> None:
        """Give the turn to ``seat``. ``to_move`` is an attribute kept with ``turn``, not
        a property: it is read before every move, and a property costs a call. Its
        lists are shared (MOVING): a new one every turn cost as much as the call."""
        self.turn = seat
        self.to_move = MOVING[seat]

    def _finish(self, result: JSON, events: list[Event]) -> None:
        super()._finish(result, events)
        self.to_move = NOBODY

    def _deal(self, dealer: int | None) -> None:
        rounds: list[Event] = []
        if dealer is None:
            dealer, rounds = cut_for_deal(self.rng, self.players)
        self.dealer = dealer
        self._move_to((dealer + 1) % self.players)
        deck = list(DECK)
        self.rng.shuffle(deck)
        self._deal_hands(deck, self.setup.hand_size)
        self._count_held()
        self.log = [*rounds, {"type": "deal", "dealer": dealer, "first": self.turn}]

    def _load(self, pos: SequencePosition) -> None:
        self.board = pos.board
        self.hands, self.discards, self.draw = pos.hands, pos.discards, pos.draw
        self._move_to(pos.turn)
        self.exchanged, self.passes = pos.exchanged, pos.passes
        self._count_held()
        chips: list[list[int]] = [[] for _ in self.loose]
        for cell, team in enumerate(self.board):
            if team != EMPTY and team != CORNER:
                self.empty[cell] = 0
                self.loose[team][cell] = 1
                chips[team].append(cell)
        self.lines = [line_patterns(cells) for cells in chips]
        board, open_plays = self.board, self.open_plays
        for card, (first, second, plays) in PLAYS_ON_OPEN.items():
            open_plays[card] = plays[board[first] == EMPTY][board[second] == EMPTY]
        for team, cells in pos.sequences:
            self._record(team, cells)

    def deal_hidden(self, hands: list[list[str]], draw: list[str]) -> None:
        """For searches: the hands and the draw pile of another world that the same seat's
        view allows (the counts derived from the hands kept in step)."""
        self.hands, self.draw = hands, draw
        self._count_held()

    def _count_held(self) -> None:
        self.held = [dict.fromkeys(hand, 0) for hand in self.hands]
        for hand, held in zip(self.hands, self.held, strict=True):
            for card in hand:
                held[card] += 1

    def _record(self, team: int, cells: tuple[int, ...]) -> None:
        self.sequences.append((team, cells))
        loose = self.loose[team]
        for cell in cells:
            self.locked[cell] = 1
            loose[cell] = 0

    def copy(self) -> Self:
        """As ``Game.copy``, about thirty times faster than deepcopy: searches copy a game for
        every move they try. Only the parts a move changes are copied; setup, options
        and the deal log are never changed in place, so the copy shares them."""
        twin = copy.copy(self)
        twin.rng = Rng(self.rng.state)
        twin.board = list(self.board)
        twin.empty = bytearray(self.empty)
        twin.open_plays = dict(self.open_plays)
        twin.locked = bytearray(self.locked)
        twin.loose = [bytearray(flags) for flags in self.loose]
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

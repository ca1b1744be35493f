"""A fast Sequence heuristic, from the seat's view only.

Each five-space window of the board is worth something to a team that holds
chips in it and nobody else does: a placement scores what it adds to its own
windows (a fifth chip makes a sequence) plus what it takes from an opponent's
(a chip in their four-window stops a sequence). Jacks are kept for moves that
make or stop a sequence; one-eyed jacks remove the most dangerous chip.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from ...rules.base import Game
from ..kit import JSON
from ..sampling import deal_again, deal_hidden, sigmoid, unseen
from .board import CELLS, DIRECTIONS, JACKS, LAYOUT, ONE_EYED_JACKS, SIZE, TWO_EYED_JACKS
from .position import CHAR_OF, CORNER, EMPTY
from .setup import DECK
from .state import SequenceState

View = dict[str, Any]
Action = dict[str, Any]

_VALUE_OF = {char: value for value, char in CHAR_OF.items()}  # the board as the game keeps it

# Value of a window by how many of its five spaces a team already holds.
OWN = (1, 4, 20, 120, 100_000)
BLOCK = (0, 2, 12, 90, 50_000)
MAKES_SEQUENCE = OWN[4]
STOPS_SEQUENCE = BLOCK[4]
JACK_RESERVE = 3_000  # a jack spent on anything less costs this much


def _windows() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    windows = []
    for row in range(SIZE):
        for col in range(SIZE):
            for dr, dc in DIRECTIONS:
                cells = [(row + k * dr, col + k * dc) for k in range(5)]
                if all(0 <= r < SIZE and 0 <= c < SIZE for r, c in cells):
                    windows.append(tuple(r * SIZE + c for r, c in cells))
    through = tuple(tuple(i for i, w in enumerate(windows) if cell in w) for cell in range(CELLS))
    return tuple(windows), through


WINDOWS, WINDOWS_THROUGH = _windows()
CONTESTED = (-2, 0)  # the holder of a window where two teams have chips


class Board:
    """Who holds each cell (EMPTY, CORNER, else a team), the recorded sequences,
    and who holds each five-space window, worked out once: one board is scored many
    times. Built from a seat's view, or from a sampled game inside a search, where
    ``set`` keeps it up to date move after move instead of rebuilding it.
    """

    def __init__(self, cells: list[int], sequences: list[tuple[int, set[int]]]) -> None:
        self.cells = cells
        self.sequences = sequences
        self.holders = [self._holder(w) for w in range(len(WINDOWS))]
        # The windows one team holds (``features`` looks at no other), and those of
        # them with four or five chips (``cells_of_fours``): kept up to date by ``set``.
        self.owned = {w for w, (owner, _) in enumerate(self.holders) if owner >= 0}
        self.fours = {w for w in self.owned if self.holders[w][1] >= 4}
        # Per team, the windows a new sequence could not use (docs/rules.md: two
        # sequences share at most one space).
        self.reused: dict[int, set[int]] = {}
        for team, seq in sequences:
            self._reuse(team, seq)

    @classmethod
    def of_view(cls, view: View) -> Board:
        cells = [_VALUE_OF[ch] for row in view["board"] for ch in row]
        sequences = [
            (cells[next(r * SIZE + c for r, c in seq if cells[r * SIZE + c] != CORNER)],
             {r * SIZE + c for r, c in seq})
            for seq in view["sequences"]
        ]  # fmt: skip
        return cls(cells, sequences)

    def copy(self) -> Board:
        twin = copy.copy(self)  # sequences and reused are replaced, never changed in place
        twin.cells, twin.holders = list(self.cells), list(self.holders)
        twin.owned, twin.fours = set(self.owned), set(self.fours)
        return twin

    def add_sequence(self, team: int, cells: set[int]) -> None:
        """Record a new sequence of ``team`` (its chips are already set)."""
        self.sequences = [*self.sequences, (team, cells)]
        # Twins share the sets: replace only the one that changes.
        self.reused = {**self.reused, team: set(self.reused.get(team, ()))}
        self._reuse(team, cells)

    def _reuse(self, team: int, cells: set[int]) -> None:
        """Mark the windows sharing two or more spaces with ``team``'s sequence ``cells``."""
        through = {w for c in cells for w in WINDOWS_THROUGH[c]}
        self.reused.setdefault(team, set()).update(
            w for w in through if len(cells.intersection(WINDOWS[w])) > 1
        )

    def cells_of_fours(self) -> set[int]:
        """Every cell of a window that one team holds four or five spaces of."""
        return {cell for w in self.fours for cell in WINDOWS[w]}

    def set(self, cell: int, value: int) -> None:
        """Put ``value`` at ``cell`` and work out the windows through it again.

        The playouts' hottest write: a team's chip on an empty cell (nearly every
        move) changes each window's holder by one chip, worked out from the holder
        alone; anything else reads the windows' cells again."""
        placed = self.cells[cell] == EMPTY and value not in (EMPTY, CORNER)
        self.cells[cell] = value
        holders, owned, fours = self.holders, self.owned, self.fours
        for w in WINDOWS_THROUGH[cell]:
            if placed:
                owner, held = holders[w]
                holder = (value, held + 1) if owner in (-1, value) else CONTESTED
            else:
                holder = self._holder(w)
            holders[w] = holder
            if holder[0] < 0:
                owned.discard(w)
                fours.discard(w)
            else:
                owned.add(w)
                if holder[1] >= 4:
                    fours.add(w)
                else:  # a chip taken away
                    fours.discard(w)

    def _holder(self, w: int) -> tuple[int, int]:
        """(team, chips) of window ``w``: (-1, corners) if no team holds a chip there,
        ``CONTESTED`` if two do. Corners count as chips of every team."""
        owner, held = -1, 0
        for cell in WINDOWS[w]:
            v = self.cells[cell]
            if v == CORNER:
                held += 1
            elif v >= 0:
                if owner not in (-1, v):
                    return CONTESTED
                owner, held = v, held + 1
        return owner, held

    def place_value(self, cell: int, team: int) -> int:
        """What a chip of ``team`` at ``cell`` is worth: own progress plus blocking.

        The hottest loop of the playouts. ``held`` needs no bound: a window through an
        empty cell holds at most four chips."""
        value, holders, reused = 0, self.holders, self.reused.get(team, ())
        for w in WINDOWS_THROUGH[cell]:
            owner, held = holders[w]
            if owner == -1 or owner == team:
                if w not in reused:
                    value += OWN[held]
            elif owner >= 0:
                value += BLOCK[held]
        return value

    def danger(self, cell: int) -> int:
        """How much the chip at ``cell`` helps its team: what removing it takes away."""
        owner = self.cells[cell]
        value = 0
        for w in WINDOWS_THROUGH[cell]:
            team, held = self.holders[w]
            if team == owner:
                value += BLOCK[min(4, held)]
        return value


def score(board: Board, action: Action, team: int) -> float:
    if action["type"] == "exchange":
        return 1e9  # a dead card is worth nothing: trade it first
    if action["type"] == "pass":
        return -1e9
    row, col = action["cell"]
    cell = row * SIZE + col
    card = action["card"]
    if card in ONE_EYED_JACKS:
        return board.danger(cell) - JACK_RESERVE
    value = board.place_value(cell, team)
    if card in TWO_EYED_JACKS and value < min(MAKES_SEQUENCE, STOPS_SEQUENCE):
        value -= JACK_RESERVE
    return value


def best(board: Board, legal: list[Action], team: int, rng: random.Random) -> Action:
    """The best-scoring of ``legal``; ties are broken at random.

    The hottest call of a search, so it skips the jack plays that cannot win: a jack
    not spent on making or stopping a sequence scores below zero (``JACK_RESERVE`` is
    more than any twenty windows short of a four are worth), and any plain play or
    trade scores zero or more. While one is legal, only jacks at a cell of some
    team's four are scored."""
    plain: list[Action] = []
    jacks: list[Action] = []
    for action in legal:
        (jacks if action.get("card") in JACKS else plain).append(action)
    if plain and jacks:  # a plain play or a trade is legal: it scores zero or more
        fours = board.cells_of_fours()
        jacks = [a for a in jacks if a["cell"][0] * SIZE + a["cell"][1] in fours]
    scored = [(score(board, action, team), action) for action in plain + jacks]
    top = max(value for value, _ in scored)
    ties = [action for value, action in scored if value == top]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def choose(view: View, rng: random.Random) -> Action:
    """The best-scoring legal action of the view's seat."""
    return best(Board.of_view(view), view["you"]["legal_actions"], view["you"]["team"], rng)


def rank(view: View) -> Any:
    """The search's order of candidates: the greedy score of each."""
    board, team = Board.of_view(view), view["you"]["team"]
    return lambda action: score(board, action, team)


class Playout:
    """Greedy moves for whoever is to move in a sampled game (a search's world, never a
    live one): the same choices as ``choose`` on each seat's view, without rendering
    views, on one board kept up to date from the moves played."""

    def __init__(self, game: Game, board: Board | None = None) -> None:
        self.game = game
        self.teams: int = game.options["teams"]
        self.board = board or Board.of_view(game.view(None))

    def fork(self) -> Playout:
        """An independent copy, to try another move from the same position."""
        return Playout(self.game.copy(), self.board.copy())

    def play(self, seat: int, action: Action) -> None:
        events = self.game.apply(seat, action)
        if action["type"] != "play":
            return
        row, col = action["cell"]
        chip = EMPTY if action["card"] in ONE_EYED_JACKS else seat % self.teams
        self.board.set(row * SIZE + col, chip)
        for event in events:
            if event["type"] == "sequence":  # its spaces now count once for a new one
                cells = {r * SIZE + c for r, c in event["cells"]}
                self.board.add_sequence(event["team"], cells)

    def redeal(self, seat: int, rng: random.Random) -> None:
        game = self.game
        assert isinstance(game, SequenceState), "a Sequence playout plays Sequence"
        game.deal_hidden(*deal_again(game.hands, seat, game.draw, rng))

    def suggest(self, rng: random.Random) -> Action:
        seat = self.game.to_move[0]
        return best(self.board, self.game.legal_actions(seat), seat % self.teams, rng)

    def move(self, rng: random.Random) -> None:
        self.play(self.game.to_move[0], self.suggest(rng))

    def estimate(self) -> list[float]:
        game = self.game
        assert isinstance(game, SequenceState), "a Sequence playout plays Sequence"
        needed = game.options["sequences_to_win"]
        return estimate(self.board, game.hands, self.teams, game.to_move[0], needed)


# The search's estimate: a logistic model of who wins, over the features below.
# Fitted by bench/fit_estimate.py to values of positions, not outcomes of games:
# 18,874 positions of greedy games (seeds 10000-17999), each labelled with the share
# of 24 greedy continuations (the draw pile shuffled anew) the side to move won;
# checked on 4,757 more (seeds 18000-19999). In log-odds, in the order of FEATURES.
FEATURES = (
    "sequences",
    "windows_1", "windows_2", "windows_3", "windows_4",
    "open_fours", "open_threes",
    "two_eyed_jacks", "one_eyed_jacks", "fills_four", "fills_three",
    "can_complete", "can_win", "blocks",
    "to_move", "to_move_can_complete", "to_move_can_win", "to_move_blocks",
    "to_move_fills_four",
)  # fmt: skip
WEIGHTS = (
    1.341, 0.015, 0.036, 0.054, 0.115, 0.240, 0.026, 0.472, 0.399, 0.270, 0.240,
    0.269, 1.069, 0.264, 0.167, 0.211, 0.591, 0.112, 0.022,
)  # fmt: skip
SEQUENCES = 0  # then windows_1 to windows_4 at 1-4: a window's index is its chips
(OPEN_FOURS, OPEN_THREES, TWO_EYED, ONE_EYED, FILLS_FOUR, FILLS_THREE, CAN_COMPLETE, CAN_WIN,
 BLOCKS, TO_MOVE) = range(5, 15)  # fmt: skip
# What the side to move counts a second time, (where, of what): acting first is worth
# most where something can be done at once.
MOVER_COPIES = tuple(
    (FEATURES.index("to_move_" + name), FEATURES.index(name))
    for name in ("can_complete", "can_win", "blocks", "fills_four")
)


def features(
    board: Board, hands: list[list[str]], teams: int, to_move: int, needed: int = 2
) -> list[list[float]]:
    """Per team, in the order of ``FEATURES``:

    - its sequences; the windows it alone holds with 1, 2, 3 and 4 chips that can
      still become a new sequence (a window sharing two spaces with one of its
      sequences cannot); how many empty spaces would complete one of its fours,
      and how many would make one of its threes a four;
    - in its hands: two-eyed and one-eyed jacks, and cards for a space of its fours
      or its threes;
    - whether its next seat to move can complete a sequence (a card for a space
      of its fours, or a two-eyed jack), whether that wins (it lacks only one
      sequence of ``needed``), and how many cards that seat holds for a space of
      another team's four (to block it);
    - whether it is to move, and for the team to move only, again: can it
      complete, can it win, its blocking cards, its cards for its fours. Being
      first to act is worth most where something can be done at once.
    """
    seats = len(hands)
    per_team = [[0.0] * len(FEATURES) for _ in range(teams)]
    for team, _ in board.sequences:
        per_team[team][SEQUENCES] += 1
    fours: list[set[int]] = [set() for _ in range(teams)]
    threes: list[set[int]] = [set() for _ in range(teams)]
    cells, spent = board.cells, [board.reused.get(team, ()) for team in range(teams)]
    holders = board.holders
    for w in board.owned:
        owner, held = holders[w]
        # A full window is a sequence (counted above) or spent.
        if held == 5 or w in spent[owner]:
            continue
        per_team[owner][held] += 1
        if held >= 3:
            open_ = fours[owner] if held == 4 else threes[owner]
            for cell in WINDOWS[w]:
                if cells[cell] == EMPTY:
                    open_.add(cell)
    four_cards = [{LAYOUT[c] for c in open_} for open_ in fours]
    three_cards = [{LAYOUT[c] for c in open_} for open_ in threes]
    mover = to_move % teams
    for team, own in enumerate(per_team):
        own[OPEN_FOURS], own[OPEN_THREES] = len(fours[team]), len(threes[team])
        mine, near = four_cards[team], three_cards[team]
        for seat in range(team, seats, teams):
            for card in hands[seat]:
                if card in TWO_EYED_JACKS:
                    own[TWO_EYED] += 1
                elif card in ONE_EYED_JACKS:
                    own[ONE_EYED] += 1
                else:
                    own[FILLS_FOUR] += card in mine
                    own[FILLS_THREE] += card in near
        # Seats take turns round the table and seat s plays for team s % teams, so the
        # team's next seat to move is the first at or after the mover's with its team.
        hand = hands[(to_move + (team - to_move) % teams) % seats]
        can = bool(mine) and any(card in mine or card in TWO_EYED_JACKS for card in hand)
        own[CAN_COMPLETE] = float(can)
        own[CAN_WIN] = float(can and own[SEQUENCES] >= needed - 1)
        theirs = set().union(*four_cards[:team], *four_cards[team + 1 :])
        own[BLOCKS] = float(sum(card in theirs for card in hand))
        if team == mover:
            own[TO_MOVE] = 1.0
            for second, first in MOVER_COPIES:
                own[second] = own[first]
    return per_team


def estimate(
    board: Board, hands: list[list[str]], teams: int, to_move: int, needed: int = 2
) -> list[float]:
    """Per seat: its team's chance to win by the fitted model, against the best other."""
    value = [
        sum(w * f for w, f in zip(WEIGHTS, team, strict=True))
        for team in features(board, hands, teams, to_move, needed)
    ]
    per_team = [
        sigmoid(value[team] - max(value[t] for t in range(teams) if t != team))
        for team in range(teams)
    ]
    return [per_team[seat % teams] for seat in range(len(hands))]


def sample_position(view: View, rng: random.Random) -> JSON:
    """The view's position, the cards it cannot see (other hands, the draw pile) dealt
    at random in the sizes it shows."""
    seen = [*view["you"]["hand"], *(c for pile in view["discards"] for c in pile)]
    pool = unseen(DECK, seen, rng)
    hands = deal_hidden(view, pool)
    return {
        "board": view["board"],
        "sequences": view["sequences"],
        "hands": hands,
        "discards": view["discards"],
        "draw_pile": pool,
        "turn": view["turn"],
        "exchanged": view["exchanged"],
        "passes": view["passes"],
    }

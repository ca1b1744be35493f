"""Reading and writing Sequence positions (docs/api.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...rules.base import JSON
from ...rules.rng import Rng
from ...rules.validate import (
    expect_cards,
    expect_int,
    expect_keys,
    expect_list,
    expect_per_seat_cards,
    fail,
    remaining_deck,
)
from .board import CARD_SET, CORNERS, SIZE, cell_of, is_straight_line
from .setup import CHIP_LETTERS, DECK, Setup

EMPTY = -1
CORNER = 9
CHAR_OF = {EMPTY: ".", CORNER: "X", 0: "B", 1: "G", 2: "R"}

POSITION_KEYS = ("board", "hands", "turn")
OPTIONAL_KEYS = ("sequences", "discards", "draw_pile", "exchanged", "passes")


@dataclass
class SequencePosition:
    """The parts of a validated position, in the engine's own representation."""

    board: list[int]
    sequences: list[tuple[int, tuple[int, ...]]]
    hands: list[list[str]]
    discards: list[list[str]]
    draw: list[str]  # the next card to draw is last
    turn: int
    exchanged: bool = False  # the seat to move has already traded a dead card this turn
    passes: int = 0  # consecutive passes just before this turn


def board_rows(board: list[int]) -> list[str]:
    chars = [CHAR_OF[v] for v in board]
    return ["".join(chars[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]


def sequence_cells(cells: tuple[int, ...]) -> list[list[int]]:
    """The cells as [row, col] pairs, as the API shows them."""
    return [[c // SIZE, c % SIZE] for c in cells]


def _read_board(value: object, setup: Setup) -> list[int]:
    rows = expect_list(value, "board", SIZE)
    letters = CHIP_LETTERS[: setup.teams]
    board: list[int] = []
    for r, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != SIZE:
            raise fail(f"board[{r}] must be a string of {SIZE} characters")
        for c, char in enumerate(row):
            cell = cell_of(r, c)
            if char == "X":
                if cell not in CORNERS:
                    raise fail(f"board[{r}][{c}] is 'X' but only the four corners are free")
                board.append(CORNER)
            elif cell in CORNERS:
                raise fail(f"board[{r}][{c}] is a corner and must be 'X'")
            elif char == ".":
                board.append(EMPTY)
            elif char in letters:
                board.append(letters.index(char))
            else:
                raise fail(f"board[{r}][{c}] is {char!r}; use one of X . {' '.join(letters)}")
    return board


def _read_cell(value: object, name: str) -> int:
    pair = expect_list(value, name, 2)
    return cell_of(
        expect_int(pair[0], f"{name} row", 0, 9), expect_int(pair[1], f"{name} col", 0, 9)
    )


def _read_sequences(value: object, board: list[int]) -> list[tuple[int, tuple[int, ...]]]:
    found: list[tuple[int, tuple[int, ...]]] = []
    for i, raw in enumerate(expect_list(value, "sequences")):
        name = f"sequences[{i}]"
        cells = [_read_cell(cell, f"{name} cell") for cell in expect_list(raw, name, 5)]
        if len(set(cells)) != 5 or not is_straight_line(cells):
            raise fail(f"{name} is not five distinct spaces in a straight line")
        teams = {board[c] for c in cells} - {CORNER}
        if len(teams) != 1 or EMPTY in teams:
            raise fail(f"{name} is not held by one team (corners count for every team)")
        team = teams.pop()
        key = tuple(sorted(cells))
        for other_team, other in found:
            if other_team == team and len(set(key) & set(other)) > 1:
                raise fail(f"{name} shares more than one space with another sequence of its team")
        found.append((team, key))
    return found


def read_position(
    pos: object, setup: Setup, rng: Rng, *, finished: bool = False
) -> SequencePosition:
    """Validate ``pos`` strictly; shuffle the unplaced cards into the draw pile with ``rng``."""
    obj = expect_keys(pos, POSITION_KEYS, OPTIONAL_KEYS)
    n = setup.players
    board = _read_board(obj["board"], setup)
    sequences = _read_sequences(obj.get("sequences", []), board)
    if not finished:
        for team in range(setup.teams):
            if sum(1 for t, _ in sequences if t == team) >= setup.sequences_to_win:
                raise fail(f"team {team} has already won")
    hands = expect_per_seat_cards(obj["hands"], "hands", n, CARD_SET)
    for seat, hand in enumerate(hands):
        if len(hand) > setup.hand_size:
            raise fail(f"hands[{seat}] holds {len(hand)} cards; at most {setup.hand_size}")
    discards = expect_per_seat_cards(obj.get("discards", [[]] * n), "discards", n, CARD_SET)
    given = obj.get("draw_pile")
    pile = None if given is None else expect_cards(given, "draw_pile", CARD_SET)
    turn = expect_int(obj["turn"], "turn", 0, n - 1)
    exchanged = obj.get("exchanged", False)
    if not isinstance(exchanged, bool):
        raise fail("exchanged must be true or false")
    passes = expect_int(obj.get("passes", 0), "passes", 0, n - 1)
    zones = [*hands, *discards, pile or []]
    rest = remaining_deck(DECK, zones, exact=pile is not None)
    if pile is None:
        rng.shuffle(rest)
        draw = rest
    else:
        draw = pile[::-1]
    return SequencePosition(board, sequences, hands, discards, draw, turn, exchanged, passes)


_VALUE_OF = {char: value for value, char in CHAR_OF.items()}


def trusted_position(pos: JSON) -> SequencePosition:
    """A position this program wrote (``write_position``) read back without checks."""
    board = [_VALUE_OF[char] for row in pos["board"] for char in row]
    sequences = []
    for cells in pos["sequences"]:
        key = tuple(sorted(cell_of(r, c) for r, c in cells))
        sequences.append((board[next(c for c in key if board[c] != CORNER)], key))
    return SequencePosition(
        board,
        sequences,
        [list(hand) for hand in pos["hands"]],
        [list(pile) for pile in pos["discards"]],
        pos["draw_pile"][::-1],
        pos["turn"],
    )


def write_position(
    board: list[int],
    sequences: list[tuple[int, tuple[int, ...]]],
    hands: list[list[str]],
    discards: list[list[str]],
    draw: list[str],
    turn: int,
) -> JSON:
    """The exact position notation for a state; the inverse of ``read_position``."""
    out: dict[str, Any] = {
        "board": board_rows(board),
        "sequences": [sequence_cells(cells) for _, cells in sequences],
        "hands": [list(h) for h in hands],
        "discards": [list(d) for d in discards],
        "draw_pile": draw[::-1],
        "turn": turn,
    }
    return out

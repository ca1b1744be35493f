"""Sequence's actions and events, built once per process and shared by every game:
each play of a card at a cell carries every fact of that pair a move needs
(``Move``), so the rules read them in one step instead of working them out."""

from __future__ import annotations

from ...rules.base import Action
from ...rules.prebuilt import Prebuilt
from .board import (
    CARD_CELLS,
    CARD_SET,
    CELLS,
    CORNERS,
    JACKS,
    LAYOUT,
    ONE_EYED_JACKS,
    SIZE,
    SPOTS,
    TWO_EYED_JACKS,
    Spot,
    line_patterns,
)
from .position import CORNER, EMPTY
from .setup import MOST_PLAYERS

# What a card does: placed on its own two spaces, anywhere open, or removing a chip.
PLAIN, TWO_EYED, ONE_EYED = "plain", "two-eyed", "one-eyed"
KIND = {
    card: TWO_EYED if card in TWO_EYED_JACKS else ONE_EYED if card in ONE_EYED_JACKS else PLAIN
    for card in CARD_SET
}
Plays = tuple[Action, ...]


# A play of a card at a cell with every fact of that pair the move needs, worked out
# once so that _play reads them all in one step (see move_of for the fields). A plain
# tuple: the interpreter unpacks only exact tuples the quick way.
Move = tuple[
    str, int, bool, bool, str, int, Plays, Plays, Plays, tuple[Spot, ...], list[Prebuilt | None]
]


class PlayAction(Prebuilt):
    """A Sequence play legal_actions hands out; its ``move`` is its Move."""

    __slots__ = ()


# The actions legal_actions hands out, built once.
PLAY: dict[str, list[PlayAction | None]] = {
    card: [
        None if cell in CORNERS else PlayAction({"type": "play", "card": card, "cell": [row, col]})
        for cell in range(CELLS)
        for row, col in [divmod(cell, SIZE)]
    ]
    for card in CARD_SET
}
EXCHANGE = {card: Prebuilt({"type": "exchange", "card": card}) for card in CARD_SET}
PASS = Prebuilt({"type": "pass"})
EMPTY_BOARD = tuple(CORNER if c in CORNERS else EMPTY for c in range(CELLS))
EMPTY_FLAGS = bytes(v == EMPTY for v in EMPTY_BOARD)
CORNER_PATTERNS = tuple(line_patterns(()))


def plays_of(card: str, cells: list[int]) -> Plays:
    """The card's prebuilt plays on ``cells``, in index order."""
    return tuple(action for c in sorted(cells) if (action := PLAY[card][c]) is not None)


def move_of(card: str, cell: int) -> Move:
    """The card and cell; whether the card removes a chip (a one-eyed jack); whether
    it may take the cell when the cell is open (its own space, or any space for a
    two-eyed jack); the card printed at the cell ("" at a corner) and that card's
    other space; that card's plays once the cell is taken and the other space is
    open, once the cell is freed and the other space is open, and once it is freed
    and the other is taken; the cell's spots on its lines; per seat, the event of
    that seat's play, made when first needed (see play_event)."""
    kind = KIND[card]
    fits = kind is TWO_EYED or (kind is PLAIN and cell in CARD_CELLS[card])
    removes, spots = kind is ONE_EYED, SPOTS[cell]
    said: list[Prebuilt | None] = [None] * MOST_PLAYERS
    if cell in CORNERS:  # a corner takes no chip and loses none: the move is refused
        return (card, cell, removes, fits, "", cell, (), (), (), spots, said)
    printed = LAYOUT[cell]
    other = next(c for c in CARD_CELLS[printed] if c != cell)
    return (
        card, cell, removes, fits, printed, other,
        plays_of(printed, [other]), plays_of(printed, [cell, other]), plays_of(printed, [cell]),
        spots, said,
    )  # fmt: skip


# Every card at every cell, corners included (a move that is refused).
MOVES = {card: [move_of(card, cell) for cell in range(CELLS)] for card in CARD_SET}


def _give_plays_their_moves() -> None:
    """Each prebuilt play carries its move (made after the plays, as a move lists plays)."""
    for card, table in PLAY.items():
        for cell, action in enumerate(table):
            if action is not None:
                action.move = MOVES[card][cell]


_give_plays_their_moves()
# A plain card's plays on the empty board; a jack has none of its own (None).
OPEN_PLAYS: dict[str, Plays | None] = {
    card: None if card in JACKS else plays_of(card, list(CARD_CELLS[card])) for card in CARD_SET
}


# A plain card's two spaces and its plays by whether each is open:
# plays[first is open][second is open], None when neither is (the card is dead).
def _plays_on_open(card: str) -> tuple[int, int, list[list[Plays | None]]]:
    first, second = CARD_CELLS[card]
    plays = [[plays_of(card, [c for c, on in ((first, a), (second, b)) if on]) or None
              for b in (False, True)] for a in (False, True)]  # fmt: skip
    return first, second, plays


PLAYS_ON_OPEN = {card: _plays_on_open(card) for card in CARD_SET if card not in JACKS}


def play_event(said: list[Prebuilt | None], seat: int, card: str, cell: int) -> Prebuilt:
    """The event of ``seat`` playing ``card`` at ``cell``, kept in ``said`` (its move's
    list) for every later game: events, like actions, are shared and read-only."""
    event = Prebuilt({"type": "play", "seat": seat, "card": card, "cell": list(divmod(cell, SIZE))})
    said[seat] = event
    return event


# Each seat's draw event, shared in the same way.
DRAW_EVENTS = tuple(Prebuilt({"type": "draw", "seat": seat}) for seat in range(MOST_PLAYERS))


def where(cell: int) -> str:
    row, col = divmod(cell, SIZE)
    return f"[{row}, {col}]"

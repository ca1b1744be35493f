"""The block window opened when a pile is completed (docs/rules.md, Block): its state
and its rules."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ...rules.base import JSON, Action, Event
from ...rules.errors import illegal
from .actions import PASS, SIMPLE
from .cards import BLOCK, COLORS, HAND_SIZE, PILE_COLORS, Setup, wins

# An asked seat's answer: None (still waiting), "pass", or where its Block comes from.
Answer = str | None


@dataclass
class BlockWindow:
    """Who completed which pile, who is asked, and what each has answered so far."""

    completer: int
    pile: int
    asked: list[int]  # in turn order from the completer
    refill: bool  # the completing card emptied the completer's hand
    deadline: float | None = None
    answers: list[Answer] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.answers:
            self.answers = [None] * len(self.asked)

    def copy(self) -> BlockWindow:
        """An independent copy (the answers change as seats answer)."""
        return replace(self, asked=list(self.asked), answers=list(self.answers))

    def waiting(self) -> list[int]:
        return [
            seat for seat, answer in zip(self.asked, self.answers, strict=True) if answer is None
        ]

    def answer(self, seat: int, answer: str) -> None:
        self.answers[self.asked.index(seat)] = answer

    def winner(self) -> tuple[int, str] | None:
        """The first blocker in turn order after the completer, and where its Block is."""
        for seat, answer in zip(self.asked, self.answers, strict=True):
            if answer in ("hand", "discard"):
                assert answer is not None
                return seat, answer
        return None

    def to_json(self) -> JSON:
        return {
            "completer": self.completer,
            "pile": self.pile,
            "asked": list(self.asked),
            "answers": list(self.answers),
            "refill": self.refill,
            "deadline": self.deadline,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BlockWindow:
        return cls(
            completer=data["completer"],
            pile=data["pile"],
            asked=list(data["asked"]),
            refill=data["refill"],
            deadline=data["deadline"],
            answers=list(data["answers"]),
        )

    def public(self) -> JSON:
        """What everyone may see: not who answered what, which would reveal Blocks kept."""
        return {
            "completer": self.completer,
            "pile": self.pile,
            "waiting": self.waiting(),
            "deadline": self.deadline,
        }


class BlockWindowRules:
    """The rules of the block window, for ``StacksGame``: opening one when a pile is
    completed, the answers Block or pass, closing it on the last answer or at its
    deadline, and what closing does (a chip, or the Block that stops it)."""

    if TYPE_CHECKING:  # the parts of StacksGame these rules use
        setup: Setup
        turn_seconds: float | None
        hands: list[list[str]]
        discards: list[list[str]]
        piles: list[list[str]]
        chips: list[dict[str, int]]
        set_aside: list[str]
        special: list[str]
        window: BlockWindow | None
        result: JSON | None

        def _opponents(self, seat: int) -> list[int]: ...
        def _take(self, seat: int, card: str, source: str) -> None: ...
        def _remove(self, seat: int, card: str, source: str) -> None: ...
        def supply(self, color: str) -> int: ...
        def _draw_cards(self, seat: int, count: int, events: list[Event]) -> None: ...
        def _finish(self, result: JSON, events: list[Event]) -> None: ...

    def _block_answers(self, seat: int) -> list[Action]:
        """What ``seat``, asked in a block window, may answer: a Block it holds or
        shows on its discard pile, or pass."""
        actions = []
        if BLOCK in self.hands[seat]:
            actions.append(SIMPLE["hand"][BLOCK])
        if self.discards[seat] and self.discards[seat][-1] == BLOCK:
            actions.append(SIMPLE["discard"][BLOCK])
        actions.append(PASS)
        return actions

    def _complete(
        self, seat: int, pile: int, emptied: bool, now: float | None, events: list[Event]
    ) -> None:
        asked = self._opponents(seat)
        if self.setup.block_window == "holders":
            asked = [t for t in asked if self._block_answers(t) != [PASS]]
        events.append({"type": "complete", "seat": seat, "pile": pile})
        window = BlockWindow(seat, pile, asked, emptied)
        if asked:
            # The window's own timeout; with none, a turn clock bounds the wait.
            timeout = self.setup.response_timeout_s or self.turn_seconds
            if timeout is not None and now is not None:
                window.deadline = now + timeout
            self.window = window
            events.append({"type": "block_window", **window.public()})
        else:
            self._close_window(window, events)

    def _answer_window(self, seat: int, action: Action) -> list[Event]:
        window = self.window
        assert window is not None
        if action["type"] == "pass":
            answer = "pass"
        elif action["type"] == "play" and action["card"] == BLOCK:
            answer = action.get("from", "hand")
            self._take(seat, BLOCK, answer)
        else:
            raise illegal("while a block window is open you may only play BLOCK or pass")
        window.answer(seat, answer)
        # Whether the answer was a Block stays hidden until the window closes.
        events: list[Event] = [{"type": "answer", "seat": seat}]
        if not window.waiting():
            self._close_window(window, events)
        return events

    @property
    def deadline(self) -> float | None:
        return None if self.window is None or self.result else self.window.deadline

    def expire(self, now: float) -> list[Event]:
        window = self.window
        if window is None or window.deadline is None or now < window.deadline or self.result:
            return []
        events: list[Event] = [{"type": "window_expired", "waiting": window.waiting()}]
        for seat in window.waiting():
            window.answer(seat, "pass")
        self._close_window(window, events)
        return events

    def _close_window(self, window: BlockWindow, events: list[Event]) -> None:
        self.window = None
        seat, pile = window.completer, window.pile
        self.set_aside += self.piles[pile]
        self.piles[pile] = []
        color = PILE_COLORS[pile]
        blocker = window.winner()
        if blocker is not None:
            self._remove(blocker[0], BLOCK, blocker[1])
            self.special.append(BLOCK)
            events.append({"type": "block", "seat": blocker[0], "pile": pile})
        elif self.supply(color) > 0:
            self.chips[seat][color] += 1
            events.append({"type": "chip", "seat": seat, "color": color})
            if wins(self.chips[seat]):
                self._finish({"winner_seat": seat}, events)
                return
            if not any(self.supply(c) for c in COLORS):
                self._finish({"draw": True}, events)
                return
        if window.refill and not self.hands[seat]:
            self._draw_cards(seat, HAND_SIZE, events)

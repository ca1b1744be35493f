"""The block window opened when a pile is completed (docs/rules.md, Block)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...engine.base import JSON

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

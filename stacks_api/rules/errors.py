"""Exceptions raised by the rules engine."""

from __future__ import annotations

from typing import Literal

ActionErrorCode = Literal["bad_action", "game_over", "not_your_turn", "illegal_action"]


class IllegalAction(ValueError):
    """An action the game refuses; ``code`` says why (see docs/api.md)."""

    def __init__(self, code: ActionErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ActionErrorCode = code
        self.message = message


class SetupError(ValueError):
    """A game that cannot be created: bad variant, player count, option or position."""

    def __init__(self, message: str, field: str = "options") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def bad_action(message: str) -> IllegalAction:
    return IllegalAction("bad_action", message)


def illegal(message: str) -> IllegalAction:
    return IllegalAction("illegal_action", message)

"""How good a (sampled) game is for each seat, from 0 (lost) to 1 (won)."""

from __future__ import annotations

import math

from ..engine import Game
from ..variants import Playout


def sigmoid(x: float) -> float:
    """From any score difference to (0, 1), bounded so that no exp overflows."""
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))


def outcome(game: Game) -> list[float] | None:
    """Per seat, 1 for a win, 0 for a loss, 0.5 for a draw; None while the game goes on."""
    result = game.result
    if result is None:
        return None
    if "draw" in result:
        return [0.5] * game.players
    if "winner_seat" in result:
        return [1.0 if s == result["winner_seat"] else 0.0 for s in range(game.players)]
    return [1.0 if game.team_of(s) == result["winner_team"] else 0.0 for s in range(game.players)]


def scores(run: Playout) -> list[float]:
    """The outcome of the playout's game once it has ended, else the variant's estimate."""
    return outcome(run.game) or run.estimate()

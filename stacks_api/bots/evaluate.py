"""How good a (sampled) game is for each seat, from 0 (lost) to 1 (won)."""

from __future__ import annotations

from ..variants import Playout


def scores(run: Playout) -> list[float]:
    """The outcome of the playout's game once it has ended, else the variant's estimate."""
    return run.game.outcome() or run.estimate()

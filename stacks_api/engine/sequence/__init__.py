"""Sequence, the board-and-card game (variant id ``sequence``)."""

from .game import SequenceGame

__all__ = ["SequenceGame"]

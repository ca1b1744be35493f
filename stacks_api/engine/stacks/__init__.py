"""Sequence Stacks, the card game (variant id ``stacks``)."""

from .game import StacksGame

__all__ = ["StacksGame"]

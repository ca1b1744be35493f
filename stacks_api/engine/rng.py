"""The seeded random number generator every game owns.

SplitMix64: its whole state is one 64-bit integer, so a game's ``to_dict`` stays
small and the same seed gives the same stream on every Python version.
"""

from __future__ import annotations

from typing import TypeVar

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")
# below(n) accepts a draw under this limit (no modulo bias); worked out once for decks.
_LIMITS = (0, *((1 << 64) - ((1 << 64) % n) for n in range(1, 257)))


class Rng:
    """A small deterministic generator; ``state`` round-trips through JSON."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Scramble the seed once so that nearby seeds give unrelated streams."""
        rng = cls(seed)
        rng.state = rng.next64()
        return rng

    def next64(self) -> int:
        self.state = z = (self.state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place: ``below(i + 1)`` for each i from the end,
        with ``next64`` inlined (games shuffle a deck every deal)."""
        z = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < len(_LIMITS) else (1 << 64) - ((1 << 64) % n)
            while True:
                z = (z + _GAMMA) & _MASK
                x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
                x ^= x >> 31
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = z

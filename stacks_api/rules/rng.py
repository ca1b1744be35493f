"""The seeded random number generator every game owns.

SplitMix64: its whole state is one 64-bit integer, so a game's ``to_dict`` stays
small and the same seed gives the same stream on every Python version.
"""

from __future__ import annotations

import sys
from bisect import bisect_left
from collections.abc import Iterator
from functools import lru_cache
from typing import TypeVar

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB

T = TypeVar("T")


def _limit(n: int) -> int:
    """``below(n)`` accepts a draw under this (no modulo bias)."""
    return (1 << 64) - ((1 << 64) % n)


def _lowest_limit(count: int) -> int:
    """The lowest ``_limit`` of the ``count`` draws of a shuffle of ``count + 1`` items:
    a draw under it is taken whichever of them it is."""
    return min(_limit(n) for n in range(2, count + 2))


def _mix(z: int) -> int:
    """SplitMix64's output for the state ``z``."""
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


def _undo_xorshift(value: int, shift: int) -> int:
    y = value
    for _ in range(64 // shift + 1):
        y = value ^ (y >> shift)
    return y


def _unmix(output: int) -> int:
    """The state whose ``_mix`` is ``output`` (every step of the mix can be undone)."""
    z = _undo_xorshift(output, 31)
    z = _undo_xorshift(z * pow(_MIX2, -1, 1 << 64) & _MASK, 27)
    return _undo_xorshift(z * pow(_MIX1, -1, 1 << 64) & _MASK, 30)


# The k-th draw from ``state`` mixes ``state + k * GAMMA``. GAMMA is odd, so it has an
# inverse modulo 2^64, and the k that reaches a given state z is
# ``(z - state) * _GAMMA_INVERSE``: a question about a run of draws becomes a search
# in one sorted list.
_GAMMA_INVERSE = pow(_GAMMA, -1, 1 << 64)


@lru_cache(maxsize=64)
def _refusable(count: int) -> list[int]:
    """For each state whose draw ``below(n)`` might refuse, for some n up to ``count + 1``
    (a draw of the top few 64-bit numbers), that state times ``_GAMMA_INVERSE``; sorted."""
    return sorted(_unmix(x) * _GAMMA_INVERSE & _MASK for x in range(_lowest_limit(count), 1 << 64))


# Each output of SplitMix64 is a mix of ``state + k * GAMMA``: the k-th output does
# not depend on the ones before it. So a shuffle computes all its outputs at once, in
# lanes of 128 bits of one big integer: a 64-bit lane times a 64-bit constant fits its
# lane, and what a shift moves into a lane's upper half is masked away. A dozen
# big-integer operations replace a hundred rounds of interpreted arithmetic.
_LANE = 128
_MOST_LANES = 512  # longer lists shuffle one draw at a time (no game has such a deck)


@lru_cache(maxsize=64)  # a deck's size, and the sizes its discards come back in
def _lanes(count: int) -> tuple[int, int, int, int, int]:
    """For ``count`` lanes: 1 in each lane, ``k * GAMMA`` in lane k - 1, the mask of
    each lane's low 64 bits, and, for the draws of a shuffle of ``count + 1`` items,
    an addend per lane that carries into a lane's bit 64 exactly when that lane's draw
    is at or over the lowest ``_limit``, and those carry bits."""
    ones = sum(1 << (_LANE * k) for k in range(count))
    steps = sum((((k + 1) * _GAMMA) & _MASK) << (_LANE * k) for k in range(count))
    return ones, steps, ones * _MASK, ones * ((1 << 64) - _lowest_limit(count)), ones << 64


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
        return _mix(z)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _limit(n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def _shuffle_draws(self, size: int) -> int | None:
        """The draws a shuffle of ``size`` items takes, lane k the k-th (see ``_LANE``),
        with the state moved past them. None, the state unchanged, when the list is
        too short or too long for lanes, or when one of the draws might be refused by
        ``below`` (about once in 10^17 shuffles), which would shift every draw after it:
        the shuffle then takes its draws one at a time."""
        if not 1 < size <= _MOST_LANES:
            return None
        count = size - 1
        ones, steps, mask, addend, carries = _lanes(count)
        z = (self.state * ones + steps) & mask
        z = ((z ^ (z >> 30)) & mask) * _MIX1 & mask
        z = ((z ^ (z >> 27)) & mask) * _MIX2 & mask
        z = (z ^ (z >> 31)) & mask
        if (z + addend) & carries:
            return None
        self.state = (self.state + count * _GAMMA) & _MASK
        return z

    def _shuffle_one_by_one(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place: ``below(i + 1)`` for each i from the end."""
        size = len(items)
        lanes = self._shuffle_draws(size)
        if lanes is None:
            self._shuffle_one_by_one(items)
            return
        raw = lanes.to_bytes((size - 1) * _LANE // 8, "little")
        if sys.byteorder == "little":  # each lane's low 64 bits, read as machine words
            drawn = memoryview(raw).cast("Q")[::2].tolist()
        else:
            drawn = [int.from_bytes(raw[k : k + 8], "little") for k in range(0, len(raw), 16)]
        i = size - 1
        for x in drawn:  # one counter, not a zip of three: a tenth quicker
            j = x % (i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1

    def _all_taken(self, count: int) -> bool:
        """Whether ``below`` takes each of the next ``count`` draws (a shuffle of
        ``count + 1`` items), found without making them: none of the states they mix
        is one whose draw might be refused."""
        marks = _refusable(count)
        if not marks:
            return True
        first = (self.state * _GAMMA_INVERSE + 1) & _MASK  # the first draw's k is 1
        nearest = marks[bisect_left(marks, first) % len(marks)]  # at or after it, cyclically
        return (nearest - first) & _MASK >= count

    def shuffled_from_end(self, items: list[T]) -> Iterator[T]:
        """The items ``shuffle(items)`` followed by ``items.pop()`` again and again would
        give, shuffling only as far as they are taken (a cut takes a few cards of a
        fresh deck): each draw is made when its card is taken. The generator moves past
        the whole shuffle at once, as ``shuffle`` does."""
        size = len(items)
        if size < 2 or not self._all_taken(size - 1):  # as shuffle does, one by one
            self._shuffle_one_by_one(items)
            return reversed(items)
        draws = Rng(self.state)  # the shuffle's draws, made as its cards are taken
        self.state = (self.state + (size - 1) * _GAMMA) & _MASK
        return _take_from_end(items, draws)


def _take_from_end(items: list[T], draws: Rng) -> Iterator[T]:
    for i in range(len(items) - 1, 0, -1):
        j = draws.next64() % (i + 1)
        items[i], items[j] = items[j], items[i]
        yield items[i]
    yield items[0]

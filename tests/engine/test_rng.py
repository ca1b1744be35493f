"""The seeded generator: a shuffle computed in lanes gives exactly the stream of
``below`` taken one draw at a time, refused draws included."""

import pytest

from stacks_api.rules.rng import _GAMMA, _MASK, Rng, _lowest_limit, _refusable, _unmix


def shuffled_one_draw_at_a_time(items: list[int], rng: Rng) -> list[int]:
    """Fisher-Yates as the rules describe it: ``below(i + 1)`` for each i from the end."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def state_before(output: int) -> int:
    """A state whose next ``next64`` returns ``output`` (SplitMix64's mix inverted)."""
    return (_unmix(output) - _GAMMA) & _MASK


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 52, 104, 120, 300, 600])
def test_a_shuffle_equals_one_draw_at_a_time(size):
    for seed in range(60):
        fast, slow = Rng.from_seed(seed), Rng.from_seed(seed)
        items = list(range(size))
        fast.shuffle(items)
        assert items == shuffled_one_draw_at_a_time(list(range(size)), slow)
        assert fast.state == slow.state


def test_the_inverted_mix_gives_the_wanted_draw():
    wanted = 0xDEADBEEF12345678
    assert Rng(state_before(wanted)).next64() == wanted


@pytest.mark.parametrize("refused_at", [0, 1, 50])
def test_a_refused_draw_shifts_every_later_draw_as_below_does(refused_at):
    # The largest 64-bit number is refused by below(n) for every n that is not a power
    # of two; planting it as draw ``refused_at`` of a 104-card shuffle (n = 104 - k).
    start = (state_before(_MASK) - refused_at * _GAMMA) & _MASK
    fast, slow = Rng(start), Rng(start)
    items = list(range(104))
    fast.shuffle(items)
    assert items == shuffled_one_draw_at_a_time(list(range(104)), slow)
    assert fast.state == slow.state
    assert fast.state == (start + 104 * _GAMMA) & _MASK  # 103 draws and the refused one


@pytest.mark.parametrize("start", [12345, state_before(_MASK)])
def test_taking_from_the_end_equals_popping_a_shuffled_list(start):
    shuffled, lazy = Rng(start), Rng(start)
    deck = list(range(104))
    shuffled.shuffle(deck)
    taken = lazy.shuffled_from_end(list(range(104)))
    assert lazy.state == shuffled.state  # the generator moved past the whole shuffle at once
    assert [next(taken) for _ in range(5)] == [deck.pop() for _ in range(5)]
    assert list(taken) == deck[::-1]


@pytest.mark.parametrize("size", [0, 1, 2, 104, 600])
def test_taking_from_the_end_of_any_size(size):
    shuffled, lazy = Rng(99), Rng(99)
    deck = list(range(size))
    shuffled.shuffle(deck)
    assert list(lazy.shuffled_from_end(list(range(size)))) == deck[::-1]
    assert lazy.state == shuffled.state


@pytest.mark.parametrize("refused_at", [0, 1, 2, 50, 101])
def test_taking_from_the_end_with_a_refused_draw(refused_at):
    # As above: the largest number, refused by below(104 - refused_at).
    start = (state_before(_MASK) - refused_at * _GAMMA) & _MASK
    shuffled, lazy = Rng(start), Rng(start)
    deck = list(range(104))
    shuffled.shuffle(deck)
    taken = lazy.shuffled_from_end(list(range(104)))
    assert lazy.state == shuffled.state == (start + 104 * _GAMMA) & _MASK
    assert list(taken) == deck[::-1]


def draws_refusable(rng: Rng, count: int) -> bool:
    """Whether one of the next ``count`` draws is at or over the lowest limit of a
    shuffle of ``count + 1`` items, found by making them."""
    lowest = _lowest_limit(count)
    probe = Rng(rng.state)
    return any(probe.next64() >= lowest for _ in range(count))


def test_all_taken_answers_as_making_the_draws_does():
    marks = _refusable(103)
    assert len(marks) > 50  # the top numbers that below(n) refuses for some n <= 104
    # States whose k-th draw, for k around 1 and around 103, is one of them; and states
    # past the last mark, where the search wraps round to the first.
    firsts = [(m - d) & _MASK for m in marks for d in (0, 1, 101, 102, 103, 104)]
    firsts += [marks[-1] + 1, _MASK]
    for first in firsts:
        rng = Rng((first - 1) * _GAMMA)  # its first draw's k is ``first``
        assert rng._all_taken(103) == (not draws_refusable(rng, 103))
    assert sum(not Rng((f - 1) * _GAMMA)._all_taken(103) for f in firsts) == 4 * len(marks)

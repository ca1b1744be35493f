"""The rated games each pair of accounts began lately, one contract for every store
(embedded, Redis, cluster): at most a few a day, a game counted once however often
it is claimed, all of a game's pairs or none, and a count given back."""

from __future__ import annotations

import pytest

from stacks_api.store import make_store

DAY = 86_400.0


@pytest.fixture
def pairs(store_url, prefix):
    return make_store(store_url, prefix, 2.0, ("sequence", "stacks")).rated_pairs


def test_a_pair_counts_its_games_once_each_up_to_its_limit_then_a_day_later(pairs):
    now = 1_800_000_000.0
    for n in range(3):
        assert pairs.claim(f"g{n}", ["a:b"], now + n, 3, DAY)
    assert pairs.claim("g0", ["a:b"], now + 5, 3, DAY), "a decision made again claims it again"
    assert not pairs.claim("g3", ["a:b"], now + 5, 3, DAY)
    assert pairs.count("a:b", now + 5, DAY) == 3 and pairs.count("a:c", now, DAY) == 0
    assert pairs.claim("g4", ["a:b"], now + DAY + 1, 3, DAY), "the first has left the window"


def test_a_game_claims_all_its_pairs_or_none_and_gives_them_back(pairs):
    now = 1_800_000_000.0
    for n in range(3):
        assert pairs.claim(f"x{n}", ["a:c"], now, 3, DAY)
    assert not pairs.claim("team", ["a:b", "a:c"], now, 3, DAY)
    assert pairs.count("a:b", now, DAY) == 0, "refused for one pair: counted for none"
    pairs.release("x0", ["a:c"])
    assert pairs.claim("team", ["a:b", "a:c"], now, 3, DAY)
    assert pairs.count("a:b", now, DAY) == 1 and pairs.count("a:c", now, DAY) == 3

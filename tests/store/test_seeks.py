"""Quick pairing's seeks, one contract for every store (embedded, Redis, cluster)."""

from __future__ import annotations

import threading
import time

import pytest

from stacks_api.model.seeks import Seek
from stacks_api.store import make_store

VARIANTS = ("sequence", "stacks")


@pytest.fixture
def board(store_url, prefix):
    return make_store(store_url, prefix, 2.0, VARIANTS).seeks


def seek(seek_id: str, player: str, pool: str = "sequence:2:rated:0") -> Seek:
    return Seek(id=seek_id, player_id=player, name=player, pool=pool, variant="sequence",
                players=2, rated=True, turn_seconds=60, days=None, rating=1500.0,
                since=time.time(), expires_at=time.time() + 60)  # fmt: skip


def test_a_player_waits_once_and_a_pool_lists_its_waiting_seeks(board):
    first = seek("s1", "ada")
    assert board.add(first) is None
    assert board.add(seek("s2", "ada")).id == "s1"  # one seek a player at a time
    assert board.add(seek("s3", "bo", pool="stacks:3:casual:0")) is None
    assert [s.id for s in board.waiting("sequence:2:rated:0")] == ["s1"]
    assert set(board.pools()) >= {"sequence:2:rated:0", "stacks:3:casual:0"}
    assert board.latest("ada").id == "s1" and board.latest("nobody") is None
    assert board.get("s1") == first and board.get("nope") is None  # kept whole


def test_a_pair_takes_seeks_that_all_still_wait_or_nothing(board):
    for n, player in enumerate(("ada", "bo", "cy")):
        board.add(seek(f"s{n}", player))
    assert board.close("s2", "withdrawn", time.time()).status == "withdrawn"
    assert not board.pair(["s0", "s2"], "g1", time.time())  # s2 withdrew: nothing changes
    assert board.get("s0").status == "waiting"
    assert board.pair(["s0", "s1"], "g2", time.time())
    paired = [board.get("s0"), board.get("s1")]
    assert [(s.status, s.game_id, s.seat) for s in paired] == [
        ("paired", "g2", 0), ("paired", "g2", 1)]  # fmt: skip
    assert paired[0].group == ("s0", "s1") and paired[0].closed_at is not None
    assert not board.pair(["s0", "s1"], "g3", time.time())  # nobody is paired twice
    assert board.close("s0", "withdrawn", time.time()).status == "paired"
    assert board.waiting("sequence:2:rated:0") == []
    assert board.add(seek("s9", "ada")) is None  # paired: free to seek again
    assert board.latest("ada").id == "s9"


def test_racing_pairs_over_the_same_seeks_seat_each_seek_once(board):
    seekers = [seek(f"s{n}", f"p{n}") for n in range(20)]
    for s in seekers:
        board.add(s)
    wins: list[tuple[str, str]] = []

    def pair(offset: int) -> None:
        for n in range(0, 20, 2):
            ids = [f"s{(n + offset) % 20}", f"s{(n + offset + 1) % 20}"]
            if board.pair(ids, f"g{offset}-{n}", time.time()):
                wins.extend((i, f"g{offset}-{n}") for i in ids)

    threads = [threading.Thread(target=pair, args=(o,)) for o in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seated = [i for i, _ in wins]
    assert len(seated) == len(set(seated))
    for seek_id, game_id in wins:
        assert board.get(seek_id).game_id == game_id

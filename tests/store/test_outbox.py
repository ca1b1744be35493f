"""The outbox of ended games to archive, one contract for every store (the embedded
one, Redis and a Redis Cluster), and each player's index of live games."""

import time
from dataclasses import replace

import pytest

from stacks_api.store import TTL_SECONDS, Change, make_store
from stacks_api.store.keys import Keys
from stacks_api.store.redis_connect import connect

from .records import game_record

VARIANTS = ("sequence", "stacks")


@pytest.fixture
def store(store_url, prefix):
    return make_store(store_url, prefix, 2.0, VARIANTS)


def ended(store, game_id: str, archive: bool = True) -> None:
    """A game made active, then ended by a change that (with ``archive``) puts it in
    the outbox."""
    store.create(game_record(game_id, status="active", version=1), [{"version": 1, "type": "x"}])

    def finish(record):
        done = replace(record, status="finished", version=2, updated_at=time.time())
        return Change(done, [{"version": 2, "type": "game_over"}], archive=archive), None

    store.update(game_id, finish)


def test_an_ending_write_puts_the_game_in_the_outbox_and_a_claim_holds_it(store):
    ended(store, "g1")
    ended(store, "g2", archive=False)
    now = time.time()
    assert store.archiving_backlog() == 1
    assert store.claim_archiving(now, 30, 10) == ["g1"]
    assert store.claim_archiving(now, 30, 10) == []  # held by the first claim
    assert store.claim_archiving(now + 31, 30, 10) == ["g1"]  # its holder died: taken over
    store.archived("g1")
    assert store.archiving_backlog() == 0
    assert store.claim_archiving(now + 100, 30, 10) == []
    assert store.load("g1").status == "finished"  # still readable until it expires


def test_a_claim_takes_at_most_its_batch(store):
    for n in range(5):
        ended(store, f"g{n}")
    first = store.claim_archiving(time.time(), 30, 3)
    second = store.claim_archiving(time.time(), 30, 3)
    assert len(first) == 3 and len(second) == 2 and not set(first) & set(second)


def test_a_lost_entry_is_put_back_by_the_sweep_and_a_gone_game_is_not(store):
    ended(store, "g1", archive=False)
    assert "g1" in store.ended_games(time.time() - 60, 100)
    assert store.requeue_archiving("g1")
    assert store.claim_archiving(time.time(), 30, 10) == ["g1"]
    assert not store.requeue_archiving("nope")


def test_a_player_index_lists_the_newest_games_first(store):
    store.index_player_game("p1", "old", 1.0)
    store.index_player_game("p1", "new", 2.0)
    assert store.player_games("p1") == ["new", "old"]
    assert store.player_games("p2") == []


def test_redis_keeps_a_game_without_expiry_until_it_is_archived(redis_url, prefix):
    store = make_store(redis_url, prefix, 2.0, VARIANTS)
    ended(store, "g1")
    client, keys = connect(redis_url, 2.0).client, Keys(prefix)
    assert client.ttl(keys.state("g1")) == -1 and client.ttl(keys.events("g1")) == -1
    # A later write of the ended game (a rematch's link) keeps it so.
    store.update("g1", lambda r: (Change(replace(r, rematch="g9")), None))
    assert client.ttl(keys.state("g1")) == -1
    store.archived("g1")
    assert 0 < client.ttl(keys.state("g1")) <= TTL_SECONDS["finished"]
    assert 0 < client.ttl(keys.events("g1")) <= TTL_SECONDS["finished"]

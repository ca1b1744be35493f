"""Live events on Redis and on a Redis Cluster: a subscription per followed game, a
bounded inbox per reader, and a broken connection ending its feeds."""

from dataclasses import replace

import pytest

from stacks_api.store import Change, StoreUnavailable, make_store
from stacks_api.store.broadcast import INBOX_LIMIT

from .records import game_record

VARIANTS = ("sequence", "stacks")


@pytest.fixture(params=["redis", "cluster"])
def store(request, prefix):
    return make_store(request.getfixturevalue(f"{request.param}_url"), prefix, 2.0, VARIANTS)


def new_game(store, game_id):
    store.create(game_record(game_id, status="active", version=1), [{"version": 1}])


def publish(store, game_id):
    """One write of the game: its next version, with one event."""

    def decide(record):
        record = replace(record, version=record.version + 1)
        return Change(record, [{"version": record.version, "type": "pass"}]), record.version

    return store.update(game_id, decide)


def subscribers(store, game_id):
    """How many subscriptions Redis counts on the game's channel."""
    channel = store.keys.channel(game_id)
    _, node = store.connection.node(channel)
    if store.connection.cluster:
        counts = node.execute_command("PUBSUB", "SHARDNUMSUB", channel)
    else:
        counts = node.execute_command("PUBSUB", "NUMSUB", channel)
    return int(counts[1])


def test_a_process_subscribes_to_the_games_it_follows_and_no_others(store):
    new_game(store, "followed")
    new_game(store, "other")
    feeds = [store.feed("followed", 1) for _ in range(3)]
    assert subscribers(store, "followed") == 1  # three feeds, one subscription
    assert subscribers(store, "other") == 0
    publish(store, "other")
    version = publish(store, "followed")
    assert all(feed.next_batch(5) == [{"version": version, "type": "pass"}] for feed in feeds)
    for feed in feeds:
        feed.close()
    assert subscribers(store, "followed") == 0


def test_a_stuck_reader_is_dropped_and_delays_nobody(store):
    new_game(store, "g")
    stuck, reading = store.feed("g", 1), store.feed("g", 1)
    received = []
    for _ in range(INBOX_LIMIT + 1):
        publish(store, "g")
        received += reading.next_batch(5)
    assert [e["version"] for e in received] == list(range(2, INBOX_LIMIT + 3))
    with pytest.raises(StoreUnavailable):
        stuck.next_batch(5)  # too far behind: its client resumes from its Last-Event-ID
    stuck.close()
    reading.close()


def test_a_broken_subscription_ends_its_feeds_and_the_next_one_works(store):
    new_game(store, "g")
    feed = store.feed("g", 1)
    _, node = store.connection.node(store.keys.channel("g"))
    assert node.client_kill_filter(_type="pubsub") >= 1
    with pytest.raises(StoreUnavailable):
        feed.next_batch(5)
    feed.close()
    again = store.feed("g", 1)
    version = publish(store, "g")
    assert again.next_batch(5) == [{"version": version, "type": "pass"}]
    again.close()


def test_interrupt_ends_a_wait_with_nothing(store):
    new_game(store, "g")
    feed = store.feed("g", 1)
    feed.interrupt()
    assert feed.next_batch(30) == []
    feed.close()

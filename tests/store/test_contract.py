"""One contract for every GameStore backend, plus what only Redis can show."""

import threading
import time
from dataclasses import replace

import pytest
import redis
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot
from redis.exceptions import RedisClusterException

from stacks_api.store import TTL_SECONDS, Change, StoreUnavailable, make_store
from stacks_api.store.keys import Keys
from stacks_api.store.memory import MemoryStore

from .records import game_record

VARIANTS = ("sequence", "stacks")
NOW = time.time()  # lobby entries older than their status's TTL count as expired


def record(game_id="g1", status="waiting", version=1, created_at=NOW, variant="sequence",
           due_at=None):  # fmt: skip
    return game_record(game_id, status=status, version=version, created_at=created_at,
                       variant=variant, due_at=due_at)  # fmt: skip


@pytest.fixture
def store(store_url, prefix):
    return make_store(store_url, prefix, 2.0, VARIANTS)


def bump(new_status=None, events=1):
    def decide(rec):
        rec = replace(rec, version=rec.version + 1, status=new_status or rec.status)
        return Change(rec, [{"version": rec.version, "type": "x"}] * events), rec.version

    return decide


def test_create_load_and_missing(store):
    store.create(record(), [{"version": 1, "type": "created"}])
    assert store.load("g1") == record()
    assert store.load("nope") is None
    with pytest.raises(KeyError):
        store.update("nope", bump())


def test_update_writes_state_and_events_together(store):
    store.create(record(), [{"version": 1, "type": "created"}])
    assert store.update("g1", bump(events=2)) == 2
    assert store.load("g1").version == 2
    assert [e["version"] for e in store.events_after("g1", 0)] == [1, 2, 2]
    assert [e["version"] for e in store.events_after("g1", 1)] == [2, 2]


def test_a_decision_that_raises_writes_nothing(store):
    store.create(record(), [])

    def refuse(rec):
        replace(rec, version=99)
        raise ValueError("no")

    with pytest.raises(ValueError):
        store.update("g1", refuse)
    assert store.load("g1").version == 1 and store.events_after("g1", 0) == []


def test_a_decision_to_write_nothing(store):
    store.create(record(), [])
    assert store.update("g1", lambda rec: (Change(None), "same")) == "same"
    assert store.load("g1") == record()


def test_idempotent_responses_are_remembered_atomically(store):
    store.create(record(), [])

    def decide(rec):
        rec = replace(rec, version=rec.version + 1)
        return Change(rec, [], remember=("key-1", {"answer": 42})), None

    store.update("g1", decide)
    assert store.recall("g1", "key-1") == {"answer": 42}
    assert store.recall("g1", "key-2") is None


def test_concurrent_updates_are_serialized(store):
    store.create(record(), [])

    def worker():
        for _ in range(25):
            store.update("g1", bump())

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.load("g1").version == 101
    assert [e["version"] for e in store.events_after("g1", 0)] == list(range(2, 102))


def test_listing_follows_status_changes_newest_first(store):
    for i in range(5):
        store.create(
            record(f"g{i}", created_at=NOW + i, variant="stacks" if i == 4 else "sequence"), []
        )
    store.update("g2", bump("active"))
    waiting, total = store.list_games("waiting", None, 0, 10)
    assert [r.id for r in waiting] == ["g4", "g3", "g1", "g0"] and total == 4
    page, total = store.list_games("waiting", "sequence", 1, 2)
    assert [r.id for r in page] == ["g1", "g0"] and total == 3
    active, total = store.list_games("active", None, 0, 10)
    assert [r.id for r in active] == ["g2"] and total == 1


def test_memory_store_expires_by_the_ttl_policy():
    now = [0.0]
    store = MemoryStore(clock=lambda: now[0])
    store.create(record(status="finished"), [{"version": 1}])
    now[0] = TTL_SECONDS["finished"] - 1
    assert store.load("g1") is not None
    now[0] = TTL_SECONDS["finished"] + 1
    assert store.load("g1") is None and store.events_after("g1", 0) == []


def test_redis_keys_share_one_hash_tag_and_carry_the_ttl(redis_url, prefix):
    store = make_store(redis_url, prefix, 2.0, VARIANTS)
    store.create(record(), [{"version": 1}])
    client = redis.Redis.from_url(redis_url)
    keys = Keys(prefix)
    state, events = keys.state("g1"), keys.events("g1")
    assert state.startswith(f"{prefix}:") and "{g1}" in state and "{g1}" in events
    assert 0 < client.ttl(state) <= TTL_SECONDS["waiting"]
    assert 0 < client.ttl(events) <= TTL_SECONDS["waiting"]
    store.update("g1", bump("active"))
    assert TTL_SECONDS["waiting"] < client.ttl(state) <= TTL_SECONDS["active"]


def test_redis_retries_a_decision_when_another_writer_wins(redis_url, prefix):
    store = make_store(redis_url, prefix, 2.0, VARIANTS)
    other = make_store(redis_url, prefix, 2.0, VARIANTS)
    store.create(record(), [])
    calls = []

    def decide(rec):
        calls.append(rec.version)
        if len(calls) == 1:
            other.update("g1", bump())  # a rival write lands between the read and the write
        rec = replace(rec, version=rec.version + 1)
        return Change(rec, [{"version": rec.version}]), rec.version

    assert store.update("g1", decide) == 3
    assert calls == [1, 2]
    assert [e["version"] for e in store.events_after("g1", 0)] == [2, 3]


def test_redis_failing_while_listing_is_store_unavailable(redis_url, prefix, monkeypatch):
    store = make_store(redis_url, prefix, 2.0, VARIANTS)
    # An index entry whose game is gone, so listing cleans it up.
    store.client.zadd(Keys(prefix).lobby("waiting", "sequence"), {"gone": time.time()})

    real_execute, calls = redis.client.Pipeline.execute, []

    def broken(pipe, *args, **kwargs):
        calls.append(1)
        if len(calls) > 1:  # the index is read; reading the listed games fails
            raise redis.ConnectionError("Redis went away")
        return real_execute(pipe, *args, **kwargs)

    monkeypatch.setattr(redis.client.Pipeline, "execute", broken)
    with pytest.raises(StoreUnavailable):
        store.list_games("waiting", None, 0, 10)


def test_a_cluster_write_touches_one_slot_and_the_shards_spread_over_the_slots(cluster_url, prefix):
    store = make_store(cluster_url, prefix, 2.0, VARIANTS)
    keys = store.keys
    for game_id in ("g1", "g2", "another-game"):
        shard = keys.shard(game_id)
        written = [keys.state(game_id), keys.events(game_id), keys.idempotency(game_id, "0:x"),
                   keys.channel(game_id), keys.due(shard), keys.leases(shard),
                   *(keys.lobby(s, v, shard) for s in TTL_SECONDS for v in VARIANTS)]  # fmt: skip
        assert len({key_slot(k.encode()) for k in written}) == 1
    store.create(record(status="active", due_at=NOW), [{"version": 1}])  # refused across slots
    assert store.work.claim(NOW, "w", 5.0) == "g1"
    slots = sorted(key_slot(keys.due(shard).encode()) for shard in keys.all_shards())
    step = REDIS_CLUSTER_HASH_SLOTS / len(slots)
    assert [int(slot // step) for slot in slots] == list(range(len(slots)))  # one per sixteenth


def test_one_redis_keeps_the_key_names_of_earlier_releases():
    keys = Keys("stacks")
    assert (keys.state("g1"), keys.due(), keys.lobby("waiting", "sequence")) == (
        "stacks:{g1}:state", "stacks:due", "stacks:lobby:waiting:sequence")  # fmt: skip


def test_a_cluster_with_no_reachable_node_is_store_unavailable(cluster_url, prefix, monkeypatch):
    store = make_store(cluster_url, prefix, 2.0, VARIANTS)

    def unreachable(*args, **kwargs):  # what redis-py raises: not a RedisError
        raise RedisClusterException("Redis Cluster cannot be connected")

    for method in ("get", "blpop"):
        monkeypatch.setattr(store.client, method, unreachable)
    with pytest.raises(StoreUnavailable):
        store.load("g1")
    with pytest.raises(StoreUnavailable):
        store.work.wait(0.1)  # a runner waits for work: it must not die of it

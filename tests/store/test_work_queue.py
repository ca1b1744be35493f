"""One contract for the work queue of every store: entries follow the records, one
lease holder at a time, releases and repairs set entries from the records."""

import threading
import time
from dataclasses import replace

import pytest

from stacks_api.store import Change, StoreUnavailable, make_store
from stacks_api.workers.runner import Runner

from .records import game_record

VARIANTS = ("sequence", "stacks")
NOW = time.time()
LEASE = 5.0


def record(game_id="g1", status="active", due_at=NOW, version=1):
    return game_record(game_id, status=status, version=version, due_at=due_at)


def set_due(due_at, status="active"):
    def decide(rec):
        rec = replace(rec, version=rec.version + 1, due_at=due_at, status=status)
        return Change(rec, []), None

    return decide


@pytest.fixture
def store(store_url, prefix):
    return make_store(store_url, prefix, 2.0, VARIANTS)


def drop_entry(store, game_id):
    """What a lost write of the queue would leave: the game, but no entry."""
    if store.kind == "redis":
        store.client.zrem(store.keys.due(store.keys.shard(game_id)), game_id)
    else:
        store.work._due.pop(game_id)


def test_a_game_is_claimable_once_due_and_not_before(store):
    store.create(record(due_at=NOW + 10), [])
    assert store.work.claim(NOW, "a", LEASE) is None
    assert store.work.next_due() == pytest.approx(NOW + 10)
    assert store.work.claim(NOW + 10, "a", LEASE) == "g1"


def test_games_that_need_nobody_have_no_entry(store):
    store.create(record("bot_to_move", due_at=NOW), [])
    store.create(record("human", due_at=None), [])
    store.create(record("over", status="finished", due_at=NOW), [])
    assert store.work.claim(NOW + 1, "a", LEASE) == "bot_to_move"
    assert store.work.claim(NOW + 1, "a", LEASE) is None


def test_the_most_overdue_game_comes_first(store):
    for game_id, late in (("b", 1), ("a", 3), ("c", 2)):
        store.create(record(game_id, due_at=NOW - late), [])
    assert [store.work.claim(NOW, "w", LEASE) for _ in range(4)] == ["a", "c", "b", None]


def test_one_holder_at_a_time_until_its_lease_runs_out(store):
    store.create(record(), [])
    assert store.work.claim(NOW, "a", LEASE) == "g1"
    assert store.work.claim(NOW + 1, "b", LEASE) is None
    assert store.work.extend("g1", "a", LEASE, NOW + 4)  # now held until NOW + 9
    assert store.work.claim(NOW + 8, "b", LEASE) is None
    assert not store.work.extend("g1", "b", LEASE, NOW + 8), "b holds no lease"
    assert store.work.claim(NOW + 9.5, "b", LEASE) == "g1", "a stopped renewing"
    assert not store.work.extend("g1", "a", LEASE, NOW + 10), "a lost it"
    store.work.release("g1", "a")  # a late release changes nothing
    assert store.work.claim(NOW + 11, "c", LEASE) is None, "b still holds it"


def test_a_release_sets_the_entry_from_the_record(store):
    store.create(record(), [])
    assert store.work.claim(NOW, "a", LEASE) == "g1"
    store.update("g1", set_due(None))  # while held: a human must act now
    store.work.release("g1", "a")
    assert store.work.claim(NOW + 1, "b", LEASE) is None
    store.update("g1", set_due(NOW + 2))  # a deadline
    assert store.work.claim(NOW + 1, "b", LEASE) is None
    assert store.work.claim(NOW + 2, "b", LEASE) == "g1"


def test_a_release_after_the_game_expired_drops_its_entry(store):
    store.create(record(), [])
    assert store.work.claim(NOW, "a", LEASE) == "g1"
    store.update("g1", set_due(NOW, status="finished"))
    store.work.release("g1", "a")
    assert store.work.claim(NOW + 1, "b", LEASE) is None
    assert store.work.next_due() is None


def test_repair_restores_an_entry_that_went_missing(store):
    store.create(record(), [])
    store.create(record("ok", due_at=NOW - 1), [])
    drop_entry(store, "g1")
    assert store.work.claim(NOW, "a", LEASE) == "ok"
    assert store.work.claim(NOW, "a", LEASE) is None
    assert store.work.repair(NOW, 2.0) == 1
    assert store.work.claim(NOW, "a", LEASE) == "g1"


def test_a_ring_wakes_a_waiting_runner(store):
    woke = threading.Event()

    def waiter():
        store.work.wait(30)
        woke.set()

    thread = threading.Thread(target=waiter, daemon=True)
    thread.start()
    time.sleep(0.2)  # let it block first (a ring before the wait also counts)
    store.work.ring()
    assert woke.wait(10), "the ring did not wake the waiting runner"


class UnreachableQueue:
    """A work queue whose store is down: every call fails as a lost Redis does."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise StoreUnavailable("ConnectionError")

        return fail


def test_a_runner_stops_while_the_store_is_down():
    runner = Runner(UnreachableQueue(), advance=lambda game_id, renew: None)
    runner.stop()  # its ring fails; the stop must not
    assert runner.stopping
    runner.serve("owner")  # a loop started after the stop returns at once


def test_a_game_a_person_waits_in_goes_before_every_game_of_bots_alone(store):
    from stacks_api.model.record import Seat

    person = (Seat("human", name="Ada", token="t"), Seat.for_bot("easy", {}))
    bots = (Seat.for_bot("easy", {}), Seat.for_bot("easy", {}))
    for n in range(3):  # long overdue, bots alone
        store.create(replace(record(f"bots{n}", due_at=NOW - 100 + n), seats=bots), [])
    assert store.work.next_due() == pytest.approx(NOW - 100)  # the band is not a delay
    assert not store.work.people_waiting(NOW)
    store.create(replace(record("person", due_at=NOW), seats=person), [])
    assert store.work.people_waiting(NOW)
    assert not store.work.people_waiting(NOW - 1)  # not due yet
    assert store.work.claim(NOW, "a", LEASE) == "person"
    assert not store.work.people_waiting(NOW)  # leased: someone is on it
    assert store.work.claim(NOW, "b", LEASE) == "bots0"
    store.work.release("person", "a")  # the record still says it is due
    assert store.work.claim(NOW, "c", LEASE) == "person"


def test_a_game_due_exactly_now_is_claimable_in_either_band(store):
    # 14 significant digits (what Lua makes of a number handed to Redis) round
    # this time down: the bounds and scores must travel as full text.
    now = 1_796_311_381.36342
    store.create(record("bots", due_at=now), [])  # free seats: nobody waits
    assert store.work.claim(now, "a", LEASE) == "bots"
    store.work.release("bots", "a")  # written again by the release's own script
    assert store.work.claim(now, "b", LEASE) == "bots"


def test_bots_alone_overdue_are_claimed_beside_a_persons_game_not_yet_due(store):
    from stacks_api.model.record import Seat

    # Two games of one shard: a person's game due later, bots alone due now.
    shard = store.keys.shard("person") if store.kind == "redis" else None
    bots_id = next(f"bots{n}" for n in range(10_000)
                   if shard is None or store.keys.shard(f"bots{n}") == shard)  # fmt: skip
    person = (Seat("human", name="Ada", token="t"), Seat.for_bot("easy", {}))
    store.create(replace(record("person", due_at=NOW + 60), seats=person), [])
    store.create(record(bots_id, due_at=NOW), [])
    assert store.work.claim(NOW, "a", LEASE) == bots_id

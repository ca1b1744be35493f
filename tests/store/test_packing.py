"""The Redis store's packed records and events read back exactly, and what an
earlier release stored (plain JSON) still reads."""

from __future__ import annotations

import json

from stacks_api.engine import create_game
from stacks_api.store.packing import pack_events, pack_record, unpack_events, unpack_record

EVENTS = [
    {"version": 9, "type": "play", "seat": 1, "card": "JD", "cell": [4, 5]},
    {"version": 9, "type": "draw", "seat": 1},
    {"version": 9, "type": "chat", "seat": 0, "text": '¡bien jugado! 🎉 "quoted"'},
]


def test_a_record_and_its_engine_state_read_back_exactly_and_smaller():
    for variant in ("sequence", "stacks"):
        game = create_game(variant, players=3, seed=7)
        for _ in range(12):
            seat = game.to_move[0]
            game.apply(seat, game.legal_actions(seat)[-1])
        record = {"id": "g1", "status": "active", "due_at": 12.5, "game": game.to_dict()}
        stored = pack_record(record)
        assert unpack_record(stored) == record
        assert json.loads(stored)["status"] == "active", "the store's scripts read it"
        assert len(stored) < 0.7 * len(json.dumps(record))


def test_a_write_s_events_are_one_element_that_reads_back_exactly():
    element = pack_events(EVENTS)
    assert unpack_events(element) == EVENTS
    assert len(element) < len(json.dumps(EVENTS)) / 2


def test_what_an_earlier_release_stored_still_reads():
    record = {"id": "g1", "status": "active", "game": {"variant": "sequence"}}
    assert unpack_record(json.dumps(record).encode()) == record
    assert unpack_events(json.dumps(EVENTS[0]).encode()) == [EVENTS[0]]


def test_events_after_read_from_the_end_give_every_later_event_once(redis_url, prefix):
    """A long game's events, asked after each version, from a store that reads its list
    from the end back (a few elements, then more): each answer is exactly the events
    after that version, for a caller near the end and for one at the start."""
    from stacks_api.model.record import GameRecord
    from stacks_api.store import Change
    from stacks_api.store.redis import TAIL_FIRST, RedisStore

    store = RedisStore(redis_url, ("sequence",), prefix=prefix)
    game = create_game("sequence", players=2, seed=3)
    record = GameRecord(id="g-tail", variant="sequence", players=2, status="active", version=0,
                        practice=True, created_at=0.0, updated_at=0.0, host="h", bot_seed=1,
                        seats=(), game=game.to_dict())  # fmt: skip
    writes = 3 * TAIL_FIRST * 4 + 5  # three slices deep
    store.create(record, [{"version": 1, "type": "created"}])
    expected = [{"version": 1, "type": "created"}]
    for version in range(2, writes + 2):
        said = [{"version": version, "type": "chat", "text": str(version)},
                {"version": version, "type": "draw", "seat": version % 2}]  # fmt: skip
        expected += said
        store.update("g-tail", lambda r, v=version, e=said: (Change(
            GameRecord.from_json({**r.to_json(), "version": v}), e), None))  # fmt: skip
    for after in (0, 1, 5, writes - 100, writes - 3, writes + 1):
        assert store.events_after("g-tail", after) == [e for e in expected if e["version"] > after]

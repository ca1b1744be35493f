"""Actions from ``legal_actions`` are shared by every game: read-only, and applied the
same as an equal action that arrived as JSON. Sequence shares its play and draw events
the same way."""

import copy
import json
import pickle
import random

import pytest

from stacks_api.engine import create_game


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_a_handed_out_action_refuses_every_change_in_place(variant):
    game = create_game(variant, players=2, seed=3)
    action = next(a for a in game.legal_actions(game.to_move[0]) if a["type"] != "pass")
    before = json.dumps(action, sort_keys=True)
    for change in (
        lambda a: a.__setitem__("card", "XX"),
        lambda a: a.pop("card"),
        lambda a: a.update(card="XX"),
        lambda a: a.clear(),
        lambda a: a.setdefault("extra", 1),
    ):
        with pytest.raises(TypeError, match="read-only"):
            change(action)
    if "cell" in action:
        with pytest.raises(TypeError, match="read-only"):
            action["cell"][0] = 5
        with pytest.raises(TypeError, match="read-only"):
            action["cell"].append(5)
    assert json.dumps(action, sort_keys=True) == before
    assert json.dumps(game.legal_actions(game.to_move[0]), sort_keys=True).count(before) >= 1


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_copies_of_a_handed_out_action_are_plain_and_equal(variant):
    game = create_game(variant, players=2, seed=3)
    action = game.legal_actions(game.to_move[0])[0]
    for twin in (dict(action), copy.copy(action), copy.deepcopy(action),
                 pickle.loads(pickle.dumps(action))):  # fmt: skip
        assert twin == action and type(twin) is dict
        twin["card"] = "changed"  # an ordinary dict
    assert action["card"] != "changed"


@pytest.mark.parametrize(("variant", "players"), [("sequence", 2), ("sequence", 4), ("stacks", 3)])
def test_an_action_as_json_is_applied_exactly_as_the_handed_out_one(variant, players):
    for seed in range(6):
        fast = create_game(variant, players=players, seed=seed)
        slow = create_game(variant, players=players, seed=seed)
        rng = random.Random(seed)
        now = 0.0
        while fast.result is None:
            if not fast.to_move:  # a block window nobody may answer: let it close
                now += 60.0
                assert fast.expire(now) == slow.expire(now)
                continue
            seat = rng.choice(fast.to_move)
            action = rng.choice(fast.legal_actions(seat))
            as_json = json.loads(json.dumps(action))
            assert fast.apply(seat, action, now=now) == slow.apply(seat, as_json, now=now)
            assert fast.to_dict() == slow.to_dict()
            now += 1.0


def test_shared_sequence_events_are_read_only_and_the_same_in_every_game():
    first, second = (create_game("sequence", players=2, seed=5) for _ in range(2))
    seat = first.to_move[0]
    action = first.legal_actions(seat)[0]
    events = first.apply(seat, action)
    assert events == [
        {"type": "play", "seat": seat, "card": action["card"], "cell": list(action["cell"])},
        {"type": "draw", "seat": seat},
    ]
    again = second.apply(seat, json.loads(json.dumps(action)))
    assert again == events and all(a is b for a, b in zip(again, events, strict=True))
    with pytest.raises(TypeError, match="read-only"):
        events[0]["seat"] = 1 - seat
    with pytest.raises(TypeError, match="read-only"):
        events[0]["cell"][0] = 9
    with pytest.raises(TypeError, match="read-only"):
        events[1].update(seat=1 - seat)
    assert events[0]["seat"] == seat and events[1] == {"type": "draw", "seat": seat}
    assert type(dict(events[0])) is dict and json.loads(json.dumps(events)) == events

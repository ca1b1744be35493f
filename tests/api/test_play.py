"""Views and actions over HTTP, on both stores."""

import random

from stacks_api.service import GameService

from .helpers import (
    API,
    act,
    bearer,
    create,
    human_vs_bots,
    join,
    open_block_window,
    problem,
    view,
)
from .test_caching import tagged


def two_humans(client, variant="sequence", **body):
    game = create(client, variant=variant, players=2, seed=3, **body)["game"]
    first, second = join(client, game["id"], "A"), join(client, game["id"], "B")
    tokens = {first["seat"]: first["token"], second["seat"]: second["token"]}
    return game["id"], tokens


def test_a_seat_sees_its_hand_and_legal_actions_a_spectator_does_not(client):
    game_id, tokens = two_humans(client)
    spectator = view(client, game_id)
    assert "you" not in spectator and spectator["status"] == "active"
    (mover,) = spectator["to_move"]
    mine = view(client, game_id, tokens[mover])
    assert mine["you"]["seat"] == mover and len(mine["you"]["hand"]) == 7
    assert mine["you"]["legal_actions"]
    other = view(client, game_id, tokens[1 - mover])
    assert other["you"]["legal_actions"] == [] and other["you"]["hand"] != mine["you"]["hand"]


def test_etag_and_if_none_match(client):
    game_id, _ = two_humans(client)
    response = client.get(f"{API}/{game_id}")
    etag = response.headers["ETag"]
    assert tagged(etag, response.json["version"])
    cached = client.get(f"{API}/{game_id}", headers={"If-None-Match": etag})
    assert cached.status_code == 304 and cached.headers["ETag"] == etag


def test_actions_need_the_seats_own_token(client):
    game_id, _ = two_humans(client)
    other_game, other_tokens = two_humans(client)
    before = (view(client, game_id)["version"], view(client, other_game)["version"])
    action = {"type": "pass"}
    url = f"{API}/{game_id}/actions"
    problem(client.post(url, json=action), 401, "unauthorized")
    basic = {"Authorization": "Basic abc"}
    problem(client.post(url, json=action, headers=basic), 401, "unauthorized")
    problem(act(client, game_id, "not-a-token", action), 401, "unauthorized")
    problem(act(client, game_id, other_tokens[0], action), 401, "unauthorized")
    problem(client.get(f"{API}/{game_id}", headers=bearer("nope")), 401, "unauthorized")
    assert (view(client, game_id)["version"], view(client, other_game)["version"]) == before


def test_each_refusal_has_its_code_and_changes_nothing(client):
    game_id, tokens = two_humans(client)
    (mover,) = view(client, game_id)["to_move"]
    for token in tokens.values():  # both seen (presence), before the view compared
        view(client, game_id, token)
    legal = view(client, game_id, tokens[mover])["you"]["legal_actions"][0]
    before = view(client, game_id)
    problem(act(client, game_id, tokens[1 - mover], legal), 409, "not_your_turn")
    problem(act(client, game_id, tokens[mover], {"type": "pass"}), 409, "illegal_action")
    bad_cell = {"type": "play", "card": "7H", "cell": [10, 0]}
    problem(act(client, game_id, tokens[mover], bad_cell), 422, "validation_error")
    bad_card = problem(act(client, game_id, tokens[mover], {"type": "play", "card": "ZZ"}), 422,
                       "validation_error")  # fmt: skip
    assert "card" in bad_card["errors"]
    problem(act(client, game_id, tokens[mover], {"type": "play", "card": "7H", "x": 1}), 422,
            "validation_error")  # fmt: skip
    assert view(client, game_id) == before


def test_stale_versions_are_refused_with_412(client):
    game_id, tokens = two_humans(client)
    current = view(client, game_id)
    (mover,) = current["to_move"]
    action = view(client, game_id, tokens[mover])["you"]["legal_actions"][0]
    stale = f'"{current["version"] - 1}"'
    problem(
        act(client, game_id, tokens[mover], action, **{"If-Match": stale}), 412, "stale_version"
    )
    body = {**action, "expected_version": current["version"] - 1}
    problem(act(client, game_id, tokens[mover], body), 412, "stale_version")
    fresh = act(client, game_id, tokens[mover], action, **{"If-Match": f'"{current["version"]}"'})
    assert fresh.status_code == 200
    assert fresh.json["game"]["version"] == current["version"] + 1
    assert tagged(fresh.headers["ETag"], current["version"] + 1, mover)  # the seat's view
    assert [e["version"] for e in fresh.json["events"]] == [current["version"] + 1] * len(
        fresh.json["events"]
    )


def test_actions_before_the_game_starts_are_refused(client):
    game = create(client, variant="sequence", players=2)["game"]
    token = join(client, game["id"])["token"]
    problem(act(client, game["id"], token, {"type": "pass"}), 409, "game_not_active")


def play_to_end(client, game_id, token, rng, limit=3000):
    """Play random legal actions for the human seat until the game ends."""
    for _ in range(limit):
        mine = view(client, game_id, token)
        if mine["status"] != "active":
            return mine
        assert mine["to_move"], "a human must be to move whenever the server waits"
        response = act(client, game_id, token, rng.choice(mine["you"]["legal_actions"]))
        assert response.status_code == 200, response.json
    raise AssertionError("the game did not end")


def test_a_whole_sequence_game_against_a_bot(client):
    game_id, token = human_vs_bots(client, "sequence", 2, seed=11)
    final = play_to_end(client, game_id, token, random.Random(1))
    assert final["status"] == "finished" and final["result"] and final["to_move"] == []
    events = client.get(f"{API}/{game_id}/events").json["events"]
    versions = sorted({e["version"] for e in events})
    assert versions == list(range(1, final["version"] + 1))
    assert events[-1]["type"] == "game_over"
    problem(act(client, game_id, token, {"type": "pass"}), 409, "game_not_active")


def test_a_whole_stacks_game_against_two_bots(client):
    game_id, token = human_vs_bots(client, "stacks", 3, seed=5)
    final = play_to_end(client, game_id, token, random.Random(2))
    assert final["status"] == "finished" and final["result"]


def test_an_all_bot_game_plays_itself_out(client):
    game = create(client, variant="stacks", players=4, seats=[{"bot": "random"}] * 4)["game"]
    final = view(client, game["id"], wait=10)
    assert final["status"] == "finished" and final["result"]


def test_events_after_a_version(client):
    game_id, _ = two_humans(client)
    everything = client.get(f"{API}/{game_id}/events").json["events"]
    assert [e["type"] for e in everything[:3]] == ["created", "joined", "joined"]
    later = client.get(f"{API}/{game_id}/events?after=2").json["events"]
    assert later == [e for e in everything if e["version"] > 2]
    problem(client.get(f"{API}/{game_id}/events?after=-1"), 422, "validation_error")


def test_an_expired_block_window_is_closed_by_the_worker_not_by_a_view(app, client):
    clock = [1000.0]
    service: GameService = app.extensions["stacks_api.games"]
    service.table.clock = lambda: clock[0]
    service.jobs.stop()  # the test plays the runner: its own threads would race it
    game_id, tokens, response = open_block_window(client, timeout_s=30)
    window = response.json["game"]["block_window"]
    assert window == {"completer": 0, "pile": 0, "waiting": [1, 2], "deadline": 1030.0}
    clock[0] = 1031.0
    assert view(client, game_id)["block_window"]["waiting"] == [1, 2], "a GET computes nothing"
    service.turns.advance(game_id)  # what the deadline's job does
    after = view(client, game_id, tokens[0])
    assert after["block_window"] is None and after["chips"][0] == {"blue": 1, "red": 0}
    assert after["to_move"] == [0]
    types = [e["type"] for e in client.get(f"{API}/{game_id}/events").json["events"]]
    assert types[-2:] == ["window_expired", "chip"]


def test_bots_answer_a_block_window_at_once(client):
    position = {"piles": [["B1", "B2", "B3", "B4"], [], [], []],
                "hands": [["B5", "R1"], ["BLOCK"], ["R3"]], "turn": 0}  # fmt: skip
    game = create(client, variant="stacks", players=3, position=position,
                  seats=[{}, {"bot": "greedy"}, {"bot": "greedy"}])["game"]  # fmt: skip
    token = join(client, game["id"])["token"]
    action = {"type": "play", "card": "B5", "pile": 0}
    response = act(client, game["id"], token, action, Prefer="wait=10")
    assert response.headers["Preference-Applied"] == "wait=10"
    types = [e["type"] for e in response.json["events"]]
    assert types[:3] == ["play", "complete", "block_window"]
    assert types[-1] == "block" and response.json["events"][-1]["seat"] == 1
    assert response.json["game"]["block_window"] is None
    assert response.json["game"]["to_move"] == [0]

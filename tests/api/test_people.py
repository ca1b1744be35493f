"""Games between people: turn clocks, away seats, leaving and rematch (docs/api.md),
each on both stores."""

import threading
import time
from dataclasses import replace

import pytest

from stacks_api.client import Client
from stacks_api.store import Change
from stacks_api.testing import ServerProcess, parse_sse

from .helpers import (
    API,
    COMPLETE,
    COMPLETING_POSITION,
    act,
    bearer,
    create,
    join,
    problem,
    view,
)


def two_people(client, variant="sequence", **options):
    game = create(client, variant=variant, players=2, options=options)["game"]
    tokens = [join(client, game["id"], f"P{seat}", seat=seat)["token"] for seat in range(2)]
    return game["id"], tokens


def events(client, game_id, after=0):
    return client.get(f"{API}/{game_id}/events?after={after}").json["events"]


@pytest.fixture
def clock(app):
    """The service's clock, set by the test; the app's own runners are stopped, so the
    test plays the runner (``advance``) when it wants the clock looked at."""
    now = [time.time()]
    service = app.extensions["stacks_api.games"]
    service.table.clock = lambda: now[0]
    service.jobs.stop()
    return now


def test_a_clock_that_runs_out_plays_a_legal_greedy_turn(app, client, clock):
    game_id, tokens = two_people(client, turn_seconds=30)
    mover = view(client, game_id)["to_move"][0]
    seen = client.get(f"{API}/{game_id}", headers=bearer(tokens[mover])).json
    assert seen["deadline"] == pytest.approx(clock[0] + 30)
    service = app.extensions["stacks_api.games"]
    service.turns.advance(game_id)
    assert view(client, game_id)["version"] == seen["version"], "nothing runs out early"
    clock[0] += 31
    service.turns.advance(game_id)
    after = client.get(f"{API}/{game_id}", headers=bearer(tokens[mover])).json
    new = events(client, game_id, seen["version"])
    assert new[0] == {"version": seen["version"] + 1, "type": "timeout", "seat": mover}
    assert [e["type"] for e in new][-2:] == ["play", "draw"]
    assert after["to_move"] == [1 - mover] and after["deadline"] == pytest.approx(clock[0] + 30)
    assert len(after["you"]["hand"]) == len(
        seen["you"]["hand"] if mover == 0 else after["you"]["hand"]
    )
    assert not any(p["away"] for p in after["players"])


def test_three_timeouts_make_a_seat_away_and_its_own_action_brings_it_back(app, client, clock):
    game_id, tokens = two_people(client, turn_seconds=10)
    service = app.extensions["stacks_api.games"]
    mover = view(client, game_id)["to_move"][0]
    for _ in range(3):  # the mover's clock runs out; the other seat plays its turn
        clock[0] += 11
        service.turns.advance(game_id)
        other = client.get(f"{API}/{game_id}", headers=bearer(tokens[1 - mover])).json
        if other["to_move"] == [1 - mover]:
            legal = other["you"]["legal_actions"]
            assert act(client, game_id, tokens[1 - mover], legal[0]).status_code == 200
    types = [e["type"] for e in events(client, game_id)]
    assert types.count("timeout") == 3 and types.count("away") == 1
    players = client.get(f"{API}/{game_id}").json["players"]
    assert players[mover]["away"] and not players[1 - mover]["away"]
    # Away: the seat's turn is played at once, with no clock.
    service.turns.advance(game_id)
    assert client.get(f"{API}/{game_id}").json["to_move"] == [1 - mover]
    other = client.get(f"{API}/{game_id}", headers=bearer(tokens[1 - mover])).json
    act(client, game_id, tokens[1 - mover], other["you"]["legal_actions"][0])
    shown = client.get(f"{API}/{game_id}").json
    assert shown["to_move"] == [mover]  # the runner has not looked yet: the person acts first
    answer = act(client, game_id, tokens[mover], {"type": "pass"})  # refused, but present
    assert answer.status_code in (409, 422)
    mine = client.get(f"{API}/{game_id}", headers=bearer(tokens[mover])).json
    assert not mine["players"][mover]["away"]
    assert events(client, game_id, shown["version"]) == [
        {"version": shown["version"] + 1, "type": "back", "seat": mover}
    ]
    # Back: the turn runs on the normal clock again, not played by the runner.
    assert mine["deadline"] == pytest.approx(clock[0] + 10)
    service.turns.advance(game_id)
    assert client.get(f"{API}/{game_id}").json["version"] == mine["version"]


def test_an_away_seat_that_only_looks_at_its_view_is_back(app, client, clock):
    game_id, tokens = two_people(client, turn_seconds=10)
    service = app.extensions["stacks_api.games"]
    mover = view(client, game_id)["to_move"][0]
    record = service.store.load(game_id)
    away = record.with_seat(mover, replace(record.seats[mover], state="away"))
    service.store.update(game_id, lambda _: (Change(away), None))  # three timeouts, in short
    assert client.get(f"{API}/{game_id}").json["players"][mover]["away"]
    mine = client.get(f"{API}/{game_id}", headers=bearer(tokens[mover])).json
    assert not mine["players"][mover]["away"] and mine["version"] == record.version + 1
    again = client.get(f"{API}/{game_id}", headers=bearer(tokens[mover])).json
    assert again["version"] == mine["version"]  # back once: no more events


def test_a_block_window_with_no_timeout_of_its_own_ends_at_turn_seconds(app, client, clock):
    body = {"position": COMPLETING_POSITION, "options": {"turn_seconds": 20}}
    game = create(client, variant="stacks", players=3, **body)["game"]
    tokens = [join(client, game["id"], f"P{i}")["token"] for i in range(3)]
    window = act(client, game["id"], tokens[0], COMPLETE).json["game"]["block_window"]
    assert window["deadline"] == pytest.approx(clock[0] + 20)
    clock[0] += 21
    app.extensions["stacks_api.games"].turns.advance(game["id"])
    after = view(client, game["id"], tokens[0])
    assert after["block_window"] is None
    assert "window_expired" in [e["type"] for e in events(client, game["id"])]


def test_turn_seconds_is_bounded(client):
    body = {"variant": "sequence", "players": 2, "options": {"turn_seconds": 2}}
    problem(client.post(API, json=body), 422, "validation_error")


def test_a_clock_fires_with_no_request_and_its_events_reach_an_open_stream(
    store_url, prefix, make_app
):
    app = make_app(REDIS_URL=store_url, STORE_PREFIX=prefix, SSE_MAX_S=8)
    client = app.test_client()
    game_id, _ = two_people(client, turn_seconds=5)
    created = view(client, game_id)["version"]
    headers = {"Accept": "text/event-stream"}
    stream = client.get(f"{API}/{game_id}/events?after={created}", headers=headers,
                        buffered=False)  # fmt: skip
    lines = (line.decode().rstrip("\n") for line in stream.response)
    for _, event in parse_sse(lines):
        if event is not None:
            assert event["type"] == "timeout"
            break
    stream.close()


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_a_seat_that_leaves_is_played_by_the_greedy_bot(client, variant):
    players = 2 if variant == "sequence" else 3
    game = create(client, variant=variant, players=players)["game"]
    tokens = [join(client, game["id"], f"P{s}", seat=s)["token"] for s in range(players)]
    left = client.post(f"{API}/{game['id']}/leave", headers=bearer(tokens[0]))
    assert left.status_code == 200, left.json
    assert left.json["players"][0]["left"] and left.json["players"][0]["bot"] == "greedy"
    problem(act(client, game["id"], tokens[0], {"type": "pass"}), 401, "unauthorized")
    moved = view(client, game["id"], tokens[1])  # waits until a person must act
    assert 0 not in moved["to_move"]
    assert "left" in [e["type"] for e in events(client, game["id"])]


def test_leaving_before_the_start_opens_the_seat_again(client):
    game = create(client, variant="sequence", players=2)["game"]
    token = join(client, game["id"], "Ada")["token"]
    assert client.post(f"{API}/{game['id']}/leave", headers=bearer(token)).status_code == 200
    again = join(client, game["id"], "Bea")
    assert again["seat"] == 0


def finished_game(client, players=2):
    """A finished game of people (seat 0 won with the first play of a position); their
    tokens."""
    board = ["X........X"] + ["." * 10] * 8 + ["XBBB.....X"]
    others = [[f"{rank}C"] for rank in "23456789"[: players - 1]]
    position = {"board": board, "hands": [["TD"], *others], "turn": 0}
    body = {"variant": "sequence", "players": players, "position": position,
            "options": {"teams": 2, "sequences_to_win": 1}}  # fmt: skip
    game = create(client, **body)["game"]
    tokens = [join(client, game["id"], f"P{s}", seat=s)["token"] for s in range(players)]
    seen = client.get(f"{API}/{game['id']}", headers=bearer(tokens[0])).json
    winning = next(a for a in seen["you"]["legal_actions"] if a.get("cell") == [9, 4])
    assert act(client, game["id"], tokens[0], winning).json["game"]["status"] == "finished"
    return game["id"], tokens


def test_a_rematch_is_one_new_game_for_the_whole_table(client):
    game_id, tokens = finished_game(client)
    answers = [client.post(f"{API}/{game_id}/rematch", headers=bearer(t)) for t in tokens]
    assert [a.status_code for a in answers] == [200, 200]
    new_ids = {a.json["game"]["id"] for a in answers}
    assert len(new_ids) == 1 and game_id not in new_ids
    assert [a.json["seat"] for a in answers] == [0, 1]
    assert view(client, game_id)["rematch"] == new_ids.pop()
    new_id = answers[0].json["game"]["id"]
    fresh = [a.json["token"] for a in answers]
    started = client.get(f"{API}/{new_id}", headers=bearer(fresh[0])).json
    assert started["status"] == "active"
    mover = started["to_move"][0]
    mine = client.get(f"{API}/{new_id}", headers=bearer(fresh[mover])).json
    assert act(client, new_id, fresh[mover], mine["you"]["legal_actions"][0]).status_code == 200
    problem(act(client, new_id, tokens[mover], {"type": "pass"}), 401, "unauthorized")


def test_asking_again_for_a_rematch_seat_rekeys_it_and_changes_nothing_else(client):
    game_id, tokens = finished_game(client, players=4)  # seats 1 to 3 will not ask
    first = client.post(f"{API}/{game_id}/rematch", headers=bearer(tokens[0]),
                        json={"entropy": "c0ffee"})  # fmt: skip
    new_id = first.json["game"]["id"]
    before = client.get(f"{API}/{new_id}/events").json["events"]
    answers = [client.post(f"{API}/{game_id}/rematch", headers=bearer(tokens[0]))
               for _ in range(5)]  # fmt: skip
    assert [a.status_code for a in answers] == [200] * 5
    assert client.get(f"{API}/{new_id}/events").json["events"] == before  # no event, version
    assert {a.json["game"]["version"] for a in answers} == {first.json["game"]["version"]}
    newest = answers[-1].json["token"]
    assert client.get(f"{API}/{new_id}", headers=bearer(newest)).json["you"]["seat"] == 0
    stale = client.get(f"{API}/{new_id}", headers=bearer(first.json["token"]))
    problem(stale, 401, "unauthorized")  # re-keyed: the token before stops working


def test_a_rematch_seat_that_was_left_or_a_rematch_that_ended_cannot_be_claimed(app, client):
    game_id, tokens = finished_game(client, players=4)
    claimed = [client.post(f"{API}/{game_id}/rematch", headers=bearer(t)).json for t in tokens[:2]]
    new_id = claimed[0]["game"]["id"]
    left = client.post(f"{API}/{new_id}/leave", headers=bearer(claimed[1]["token"]))
    assert left.status_code == 200
    problem(client.post(f"{API}/{game_id}/rematch", headers=bearer(tokens[1])), 409, "seat_taken")
    problem(client.post(f"{API}/{game_id}/rematch", json={"entropy": "xyz"},
                        headers=bearer(tokens[2])), 422, "validation_error")  # fmt: skip


def test_seats_nobody_claims_in_time_go_to_the_stand_in_and_the_table_plays(app, client, clock):
    game_id, tokens = finished_game(client, players=4)
    mine = client.post(f"{API}/{game_id}/rematch", headers=bearer(tokens[0])).json
    new_id = mine["game"]["id"]
    service = app.extensions["stacks_api.games"]
    service.turns.advance(new_id)
    assert view(client, new_id)["status"] == "waiting"  # not yet: the others have time
    clock[0] += 121
    service.turns.advance(new_id)
    shown = client.get(f"{API}/{new_id}", headers=bearer(mine["token"])).json
    assert shown["status"] == "active"
    assert [p["left"] for p in shown["players"]] == [False, True, True, True]
    assert [p["bot"] for p in shown["players"]] == [None, "greedy", "greedy", "greedy"]
    late = client.post(f"{API}/{game_id}/rematch", headers=bearer(tokens[1]))
    problem(late, 409, "seat_taken")


def test_leaving_before_the_deal_takes_the_seats_entropy_with_it(app, client):
    game = create(client, variant="sequence", players=2)["game"]
    token = join(client, game["id"], "Ada", entropy="abc123")["token"]
    store = app.extensions["stacks_api.games"].store
    assert store.load(game["id"]).fairness.entropy[0] == "abc123"
    client.post(f"{API}/{game['id']}/leave", headers=bearer(token))
    assert store.load(game["id"]).fairness.entropy[0] is None


def test_a_rematch_of_a_game_still_on_is_refused(client):
    game_id, tokens = two_people(client)
    problem(client.post(f"{API}/{game_id}/rematch", headers=bearer(tokens[0])), 409,
            "game_not_active")  # fmt: skip


def test_concurrent_rematch_calls_make_one_game(app):
    """Eight seats ask at once, each on its own thread: one game, a working token each."""
    client = app.test_client()
    game_id, tokens = finished_game(client, players=8)
    answers = [None] * 8
    barrier = threading.Barrier(8)

    def ask(seat):
        barrier.wait()
        answers[seat] = app.test_client().post(f"{API}/{game_id}/rematch",
                                               headers=bearer(tokens[seat]))  # fmt: skip

    threads = [threading.Thread(target=ask, args=(seat,)) for seat in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [200] * 8, [a.json for a in answers]
    assert len({a.json["game"]["id"] for a in answers}) == 1
    assert [a.json["seat"] for a in answers] == list(range(8))
    new_id = answers[0].json["game"]["id"]
    for seat, answer in enumerate(answers):
        seen = client.get(f"{API}/{new_id}", headers=bearer(answer.json["token"])).json
        assert seen["you"]["seat"] == seat
    assert view(client, new_id)["status"] == "active"
    listed = client.get(f"{API}?status=active&page_size=50").json["games"]
    assert [g["id"] for g in listed].count(new_id) == 1


def test_a_clock_set_before_every_process_restarts_fires_after(redis_url, prefix):
    env = {"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": prefix}
    server = ServerProcess(env, workers=1, bot_workers=1)
    try:
        api = Client(server.url)
        game = api.create("sequence", 2, options={"turn_seconds": 5})
        for seat in range(2):
            api.join(game["id"], f"P{seat}", seat=seat)
    finally:
        server.stop()  # every process: web and bot workers
    server = ServerProcess(env, workers=1, bot_workers=1)
    try:
        api = Client(server.url)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if any(e["type"] == "timeout" for e in api.events(game["id"])):
                break
            time.sleep(0.5)
        assert "timeout" in [e["type"] for e in api.events(game["id"])]
    finally:
        server.stop()

"""Resigning and aborting over HTTP, on the embedded store with SQLite and on Redis with
PostgreSQL: who wins, what the record says (it still verifies), what ratings do."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from stacks_api.commands.verify import VERIFIED, verify_record
from stacks_api.store import Change

from . import test_archive
from .helpers import API, act, bearer, create, join, problem, view
from .test_archive import archived, new_player
from .test_rated import seat_with_key

app, client = test_archive.app, test_archive.client


def seated(client: Any, variant: str, players: int, **options: Any) -> tuple[str, list[str]]:
    game_id = create(client, variant=variant, players=players, **options)["game"]["id"]
    tokens = [join(client, game_id, f"P{n}")["token"] for n in range(players)]
    return game_id, tokens


def play_turns(client: Any, game_id: str, tokens: list[str], turns: int) -> None:
    """Each person to move plays their first legal action, ``turns`` times."""
    for _ in range(turns):
        for token in tokens:
            seen = view(client, game_id, token)
            if seen["status"] == "active" and seen["you"]["legal_actions"]:
                action = seen["you"]["legal_actions"][0]
                assert act(client, game_id, token, action).status_code == 200


def resign(client: Any, game_id: str, token: str) -> dict[str, Any]:
    response = client.post(f"{API}/{game_id}/resign", headers=bearer(token))
    assert response.status_code == 200, response.json
    return response.json


def record_of(client: Any, game_id: str) -> dict[str, Any]:
    record = client.get(f"{API}/{game_id}/record").json
    assert verify_record(record).outcome == VERIFIED, verify_record(record)
    return record


def test_one_resignation_ends_a_team_game_for_the_whole_team(client):
    game_id, tokens = seated(client, "sequence", 4)  # teams: seats 0 and 2, 1 and 3
    play_turns(client, game_id, tokens, 1)
    final = resign(client, game_id, tokens[3])
    assert final["status"] == "finished"
    assert [p["score"] for p in final["players"]] == [1.0, 0.0, 1.0, 0.0]
    assert [p["resigned"] for p in final["players"]] == [False, True, False, True]
    assert final["result"] == {"winner_team": 0, "resigned": [1]}
    events = client.get(f"{API}/{game_id}/events").json["events"]
    assert events[-1]["type"] == "resigned" and events[-1]["seats"] == [1, 3]
    assert "server_seed" in events[-1]  # the end reveals the committed deal
    record = record_of(client, game_id)
    assert record["result"]["scores"] == [1.0, 0.0, 1.0, 0.0]
    assert [s["resigned"] for s in record["seats"]] == [False, True, False, True]
    problem(client.post(f"{API}/{game_id}/resign", headers=bearer(tokens[0])), 409,
            "game_not_active")  # fmt: skip


def test_in_a_three_player_game_the_last_one_not_resigned_wins(client):
    game_id, tokens = seated(client, "stacks", 3)
    on = resign(client, game_id, tokens[0])
    assert on["status"] == "active" and on["players"][0]["resigned"] is True
    assert on["you"]["legal_actions"] == []  # the stand-in plays the seat now
    refused = client.post(f"{API}/{game_id}/actions", json={"type": "pass"},
                          headers=bearer(tokens[0]))  # fmt: skip
    problem(refused, 409, "game_not_active")
    play_turns(client, game_id, tokens[1:], 2)  # the stand-in moves for seat 0 meanwhile
    assert view(client, game_id)["status"] == "active"  # no Stacks game ends this soon
    final = resign(client, game_id, tokens[1])
    assert [p["score"] for p in final["players"]] == [0.0, 0.0, 1.0]
    assert final["result"] == {"winner_seat": 2, "resigned": [0, 1]}
    assert record_of(client, game_id)["result"]["scores"] == [0.0, 0.0, 1.0]


def test_a_forged_resignation_does_not_verify(client):
    game_id, tokens = seated(client, "sequence", 2)
    resign(client, game_id, tokens[0])
    record = record_of(client, game_id)
    record["result"]["scores"] = [1.0, 0.0]
    assert verify_record(record).outcome != VERIFIED
    record = record_of(client, game_id)
    record["seats"][0]["resigned"] = False
    assert verify_record(record).outcome != VERIFIED
    record = record_of(client, game_id)  # the resignation's own account of the result
    record["events"][-1]["result"]["winner_team"] = 0
    assert "resigned event's result" in verify_record(record).detail


def test_an_abort_ends_the_opening_unrated_and_later_only_resigning_is_left(app, client):
    ada, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    game_id = create(client, variant="sequence", players=2, rated=True)["game"]["id"]
    tokens = [seat_with_key(client, game_id, key)["token"] for key in (ada_key, bo_key)]
    play_turns(client, game_id, tokens, 1)  # one move each: the opening goes on
    problem(client.post(f"{API}/{game_id}/abort"), 401, "unauthorized")
    answer = client.post(f"{API}/{game_id}/abort", headers=bearer(bo_key))  # a key acts too
    assert answer.status_code == 200 and answer.json["status"] == "aborted"
    assert answer.json["result"] is None and [p["score"] for p in answer.json["players"]] == [
        None,
        None,
    ]
    archived(app, game_id)
    assert record_of(client, game_id)["status"] == "aborted"
    assert client.get(f"{API}/{game_id}/ratings").json["changes"] == []
    assert "sequence" not in client.get(f"/api/v1/players/{ada}").json["ratings"]
    assert client.get(f"/api/v1/players/{bo}/games").json["games"][0]["status"] == "aborted"

    later, tokens = seated(client, "sequence", 2)
    play_turns(client, later, tokens, 3)  # whoever starts, both sides have moved twice
    problem(client.post(f"{API}/{later}/abort", headers=bearer(tokens[0])), 409, "opening_over")
    assert view(client, later)["status"] == "active"


def test_a_resignation_is_a_rated_loss_once_both_sides_have_played(app, client):
    ada, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    game_id = create(client, variant="sequence", players=2, rated=True)["game"]["id"]
    tokens = [seat_with_key(client, game_id, key)["token"] for key in (ada_key, bo_key)]
    for _ in range(10):  # five moves of each side's own: a rated game's least
        shown = view(client, game_id, tokens[0])
        mover = shown["to_move"][0]
        legal = view(client, game_id, tokens[mover])["you"]["legal_actions"]
        assert act(client, game_id, tokens[mover], legal[0]).status_code == 200
    resign(client, game_id, tokens[0])
    archived(app, game_id)
    changes = {c["subject"]: c for c in client.get(f"{API}/{game_id}/ratings").json["changes"]}
    assert changes[ada]["change"] < 0 < changes[bo]["change"]


def test_a_resignation_before_both_sides_played_rates_nobody(app, client):
    _, ada_key = new_player(client, "Ada")
    _, bo_key = new_player(client, "Bo")
    game_id = create(client, variant="sequence", players=2, rated=True)["game"]["id"]
    tokens = [seat_with_key(client, game_id, key)["token"] for key in (ada_key, bo_key)]
    for _ in range(8):  # four moves each: one short of a rated game's least
        mover = view(client, game_id, tokens[0])["to_move"][0]
        legal = view(client, game_id, tokens[mover])["you"]["legal_actions"]
        assert act(client, game_id, tokens[mover], legal[0]).status_code == 200
    assert resign(client, game_id, tokens[0])["status"] == "finished"
    archived(app, game_id)
    assert client.get(f"{API}/{game_id}/ratings").json["state"] == "unrated"


def test_resign_and_abort_refuse_strangers_and_unknown_games(client):
    game_id, tokens = seated(client, "stacks", 2)
    problem(client.post(f"{API}/{game_id}/resign", headers=bearer("nope")), 401, "unauthorized")
    problem(client.post(f"{API}/nothing/resign", headers=bearer(tokens[0])), 404, "not_found")
    waiting = create(client, variant="stacks", players=2)["game"]["id"]
    token = join(client, waiting, "Ada")["token"]
    problem(client.post(f"{API}/{waiting}/abort", headers=bearer(token)), 409, "game_not_active")
    assert view(client, game_id)["status"] == "active"


def test_a_side_all_away_can_be_claimed_and_one_merely_slow_cannot(app, client):
    game_id, tokens = seated(client, "sequence", 4, options={"turn_seconds": 60})
    problem(client.post(f"{API}/{game_id}/claim", headers=bearer(tokens[0])), 409,
            "nothing_to_claim")  # fmt: skip
    games = app.extensions["stacks_api.games"]

    def away(*seats: int) -> None:  # as after three timeouts in a row each
        def decide(record):  # type: ignore[no-untyped-def]
            for seat in seats:
                record = record.with_seat(seat, replace(record.seats[seat], state="away"))
            return Change(record, []), {}

        games.table.update(game_id, decide)

    away(1)  # one of the team is away, the other is only slow: nothing to claim
    problem(client.post(f"{API}/{game_id}/claim", headers=bearer(tokens[0])), 409,
            "nothing_to_claim")  # fmt: skip
    away(3)
    claimed = client.post(f"{API}/{game_id}/claim", headers=bearer(tokens[2]))
    assert claimed.status_code == 200 and claimed.json["status"] == "finished"
    assert [p["score"] for p in claimed.json["players"]] == [1.0, 0.0, 1.0, 0.0]
    last = client.get(f"{API}/{game_id}/events").json["events"][-1]
    assert last["type"] == "resigned" and last["claimed_by"] == 2 and last["seats"] == [1, 3]
    record_of(client, game_id)

"""Challenges over HTTP, on the embedded store with SQLite and on Redis with PostgreSQL:
an accepted one seats both accounts; declined, cancelled and expired ones seat nobody;
the limits, the setting, the account stream, and a lost process's game made again."""

from __future__ import annotations

import time
from typing import Any

import pytest

from stacks_api.model.challenges import Answer
from stacks_api.service import challenges as challenge_rules

from . import test_archive
from .helpers import API, act, bearer, problem, view
from .test_archive import new_player

app, client = test_archive.app, test_archive.client
ROOT = "/api/v1"
ENTROPY = "c0ffee42"


def challenge(client: Any, key: str, target: str, status: int = 201, **body: Any) -> Any:
    response = client.post(f"{ROOT}/players/{target}/challenges",
                           json={"variant": "sequence", **body}, headers=bearer(key))  # fmt: skip
    assert response.status_code == status, response.json
    return response.json


def answer(client: Any, key: str, challenge_id: str, how: str, status: int = 200, **body: Any):
    response = client.post(f"{ROOT}/challenges/{challenge_id}/{how}", json=body,
                           headers=bearer(key))  # fmt: skip
    assert response.status_code == status, response.json
    return response.json


def feed(app: Any, player_id: str) -> list[dict[str, Any]]:
    """What the player's account stream tells a new connection."""
    return app.extensions["stacks_api.games"].account_feed.first(player_id, None)[1]


def test_an_accepted_challenge_seats_both_accounts_in_a_game_dealt_as_committed(app, client):
    ada, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    made = challenge(client, ada_key, bo, rated=True, entropy=ENTROPY)
    sent = made["challenge"]
    assert sent["status"] == "pending" and sent["from"] == ada and sent["to_name"] == "Bo"
    assert sent["turn_seconds"] == 60  # rated: always clocked
    assert "server_seed" not in sent and len(sent["commitment"]) == 64
    heard = [e for e in feed(app, bo) if e["type"] == "challenge"]
    assert [e["challenge"]["id"] for e in heard] == [sent["id"]]
    assert not [e for e in feed(app, ada) if e["type"] == "challenge"]  # not to the challenger

    problem(
        client.post(f"{ROOT}/challenges/{sent['id']}/accept", json={}, headers=bearer(bo_key)),
        422,
        "validation_error",
    )  # rated: entropy
    accepted = answer(client, bo_key, sent["id"], "accept", 201, entropy="beef")
    game = accepted["game"]
    assert accepted["seat"] == 1 and game["status"] == "active" and game["rated"] is True
    assert [p["player_id"] for p in game["players"]] == [ada, bo]
    assert game["fairness"]["commitment"] == sent["commitment"]
    assert game["you"]["seat"] == 1
    game_id = accepted["challenge"]["game_id"]
    assert game_id == game["id"]
    for token, seat in ((made["token"], 0), (accepted["token"], 1), (ada_key, 0)):
        assert view(client, game_id, token)["you"]["seat"] == seat
    told = [e for e in feed(app, ada) if e["type"] == "challenge_answered"]
    assert told == []  # a new stream is told only what is pending: the game itself is live
    games = app.extensions["stacks_api.games"]
    first_told, _ = games.account_feed.first(ada, None)
    answer(client, bo_key, sent["id"], "accept", 409)  # once
    answer(client, ada_key, sent["id"], "cancel", 409)
    assert first_told.challenges[sent["id"]] == "accepted"
    mover = [made["token"], accepted["token"]][game["to_move"][0]]
    seen = view(client, game_id, mover)
    assert act(client, game_id, mover, seen["you"]["legal_actions"][0]).status_code == 200


def test_the_challenger_hears_each_answer_on_a_stream_already_open(app, client):
    ada, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    games = app.extensions["stacks_api.games"]
    told, _ = games.account_feed.first(ada, None)
    sent = challenge(client, ada_key, bo)["challenge"]
    assert games.account_feed.poll(ada, told) == []
    answer(client, bo_key, sent["id"], "decline")
    heard = games.account_feed.poll(ada, told)
    assert [(e["type"], e["challenge"]["status"]) for e in heard] == [
        ("challenge_answered", "declined")
    ]


def test_declined_cancelled_and_expired_challenges_seat_nobody(app, client, monkeypatch):
    _, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    declined = challenge(client, ada_key, bo)["challenge"]
    assert answer(client, bo_key, declined["id"], "decline")["challenge"]["status"] == "declined"
    answer(client, bo_key, declined["id"], "accept", 409)
    problem(client.post(f"{ROOT}/challenges/{declined['id']}/decline", headers=bearer(ada_key)),
            403, "forbidden")  # fmt: skip  # only the challenged declines
    cancelled = challenge(client, ada_key, bo)["challenge"]
    problem(client.post(f"{ROOT}/challenges/{cancelled['id']}/cancel", headers=bearer(bo_key)),
            403, "forbidden")  # fmt: skip
    assert answer(client, ada_key, cancelled["id"], "cancel")["challenge"]["status"] == "cancelled"
    answer(client, bo_key, cancelled["id"], "accept", 409)
    monkeypatch.setattr(challenge_rules, "EXPIRES_S", 0.0)
    expired = challenge(client, ada_key, bo)["challenge"]
    shown = client.get(f"{ROOT}/challenges/{expired['id']}", headers=bearer(bo_key)).json
    assert shown["status"] == "expired"
    answer(client, bo_key, expired["id"], "accept", 409)
    listed = client.get(f"{ROOT}/challenges", headers=bearer(bo_key)).json["challenges"]
    assert [c["status"] for c in listed] == ["expired", "cancelled", "declined"]
    assert all(c["game_id"] is None for c in listed)
    assert client.get(f"{ROOT}/players/{bo}/games").json["games"] == []


def test_the_limits_the_setting_and_who_may_be_challenged(client):
    ada, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    problem(client.post(f"{ROOT}/players/{ada}/challenges", json={"variant": "sequence"},
                        headers=bearer(ada_key)), 422, "validation_error")  # fmt: skip
    problem(client.post(f"{ROOT}/players/nobody/challenges", json={"variant": "sequence"},
                        headers=bearer(ada_key)), 404, "not_found")  # fmt: skip
    problem(client.post(f"{ROOT}/players/{bo}/challenges", json={"variant": "sequence"}),
            401, "unauthorized")  # fmt: skip
    problem(client.post(f"{ROOT}/players/{bo}/challenges", json={"variant": "chess"},
                        headers=bearer(ada_key)), 422, "validation_error")  # fmt: skip
    problem(client.post(f"{ROOT}/players/{bo}/challenges",
                        json={"variant": "sequence", "players": 5},
                        headers=bearer(ada_key)), 422, "validation_error")  # fmt: skip
    challenge(client, ada_key, bo)
    refused = client.post(f"{ROOT}/players/{bo}/challenges", json={"variant": "stacks"},
                          headers=bearer(ada_key))  # fmt: skip
    problem(refused, 409, "challenge_pending")
    others = [new_player(client, f"P{n}")[0] for n in range(5)]
    for other in others[:4]:
        challenge(client, ada_key, other)
    problem(client.post(f"{ROOT}/players/{others[4]}/challenges", json={"variant": "sequence"},
                        headers=bearer(ada_key)), 429, "rate_limited")  # fmt: skip

    settings = client.patch(f"{ROOT}/players/me/settings", json={"accepts_challenges": False},
                            headers=bearer(bo_key))  # fmt: skip
    assert settings.status_code == 200 and settings.json == {"accepts_challenges": False}
    assert client.get(f"{ROOT}/players/{bo}").json["accepts_challenges"] is False
    _, cy_key = new_player(client, "Cy")
    problem(client.post(f"{ROOT}/players/{bo}/challenges", json={"variant": "sequence"},
                        headers=bearer(cy_key)), 403, "forbidden")  # fmt: skip
    for wrong in ("maybe", 1, "true"):  # JSON's true and false only
        problem(client.patch(f"{ROOT}/players/me/settings", json={"accepts_challenges": wrong},
                             headers=bearer(bo_key)), 422, "validation_error")  # fmt: skip
    got = client.get(f"{ROOT}/players/me/settings", headers=bearer(bo_key)).json
    assert got == {"accepts_challenges": False}
    stranger = client.get(f"{ROOT}/challenges", headers=bearer(cy_key)).json["challenges"]
    assert stranger == []


@pytest.mark.parametrize("players", [3])
def test_a_bigger_table_waits_for_its_other_seats(client, players):
    _, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    sent = challenge(client, ada_key, bo, variant="stacks", players=players)["challenge"]
    game = answer(client, bo_key, sent["id"], "accept", 201)["game"]
    assert game["status"] == "waiting"
    joined = client.post(f"{API}/{game['id']}/players", json={"name": "Cy"})
    assert joined.status_code == 201 and joined.json["seat"] == 2
    assert view(client, game["id"])["status"] == "active"


def test_a_process_that_dies_after_the_acceptance_leaves_no_game_lost(app, client, monkeypatch):
    ada, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    sent = challenge(client, ada_key, bo)["challenge"]
    games = app.extensions["stacks_api.games"]
    # The acceptance was settled, and its process died before making the game.
    games.store.challenges.settle(sent["id"], "accepted", Answer(
        answered_at=games.table.clock(), game_id="lost0game0id0000", challenged_token="0" * 64,
    ))  # fmt: skip
    assert games.store.load("lost0game0id0000") is None
    monkeypatch.setattr(challenge_rules, "RECOVER_AFTER_S", 0.0)
    shown = client.get(f"{ROOT}/challenges/{sent['id']}", headers=bearer(ada_key)).json
    assert shown["game_id"] == "lost0game0id0000"
    made = view(client, "lost0game0id0000", bo_key)
    assert made["you"]["seat"] == 1 and [p["player_id"] for p in made["players"]] == [ada, bo]


def test_games_to_watch_are_listed_best_rated_first_with_their_spectators(app, client,
                                                                          monkeypatch):  # fmt: skip
    games = app.extensions["stacks_api.games"]
    keys = {name: new_player(client, name) for name in ("Ada", "Bo", "Cy", "Di")}
    rated = {keys["Ada"][0]: 1900.0, keys["Bo"][0]: 1700.0}  # the others are new: 1500
    monkeypatch.setattr(games.table, "ratings_of",
                        lambda player: {"stacks": rated.get(player, 1500.0)})  # fmt: skip

    def played(*people: str | None, unlisted: bool = False) -> str:
        body = {"variant": "stacks", "players": len(people), "unlisted": unlisted}
        game_id = client.post(API, json=body).json["game"]["id"]
        for n, name in enumerate(people):
            headers = {} if name is None else bearer(keys[name][1])
            joined = client.post(f"{API}/{game_id}/players", json={"name": f"P{n}"},
                                 headers=headers)  # fmt: skip
            assert joined.status_code == 201, joined.json
        return game_id

    nobody = played(None, None)
    usual = played("Cy", "Di")
    best = played("Ada", "Bo")
    played("Ada", "Bo", unlisted=True)  # a private table: not listed
    games.play.watching(best, "w1", time.time() + 30)
    listed = client.get(f"{API}?status=active&variant=stacks").json["games"]
    assert [g["id"] for g in listed] == [best, usual, nobody]
    assert [g["rating"] for g in listed] == [1800.0, 1500.0, None]
    assert [g["spectators"] for g in listed] == [1, 0, 0]


def test_challenges_are_listed_a_page_at_a_time_and_one_waits_per_pair(client):
    ada, ada_key = new_player(client, "Ada")
    sent = []
    for name in ("Bo", "Cy", "Di"):
        _, key = new_player(client, name)
        sent.append(challenge(client, key, ada)["challenge"]["id"])
        problem(client.post(f"{ROOT}/players/{ada}/challenges", json={"variant": "sequence"},
                            headers=bearer(key)), 409, "challenge_pending")  # fmt: skip
    first = client.get(f"{ROOT}/challenges?limit=2", headers=bearer(ada_key)).json
    assert [c["id"] for c in first["challenges"]] == sent[::-1][:2] and first["next"]
    rest = client.get(f"{ROOT}/challenges?limit=2&cursor={first['next']}",
                      headers=bearer(ada_key)).json  # fmt: skip
    assert [c["id"] for c in rest["challenges"]] == [sent[0]] and rest["next"] is None
    problem(client.get(f"{ROOT}/challenges?cursor=nope", headers=bearer(ada_key)), 422,
            "validation_error")  # fmt: skip

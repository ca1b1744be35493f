"""Hints over HTTP: asked by the request, computed by the workers, for the seat
that must act, never in a rated game."""

from __future__ import annotations

import time
from typing import Any

from stacks_api.service import GameService
from stacks_api.store import make_store

from .helpers import API, bearer, create, join, problem, view

HINT = API + "/{}/hint"


def hinted(client: Any, game_id: str, token: str) -> dict[str, Any]:
    """The hint once a worker has made it (a bound on the wait, not a timing check)."""
    deadline = time.monotonic() + 30
    while True:
        answer = client.get(HINT.format(game_id), headers=bearer(token))
        if answer.status_code == 200:
            return dict(answer.json)
        assert answer.status_code == 202 and answer.headers["Retry-After"] == "1", answer.json
        assert time.monotonic() < deadline, "no worker made the hint"
        time.sleep(0.05)


def test_a_hint_is_one_of_the_seats_legal_actions_for_its_version(client):
    seats = [{}, {"bot": "medium"}]
    game_id = create(client, variant="sequence", players=2, seats=seats)["game"]["id"]
    token = join(client, game_id)["token"]
    seen = view(client, game_id, token)
    while seen["status"] == "active" and not seen["you"]["legal_actions"]:
        seen = view(client, game_id, token)
    answer = hinted(client, game_id, token)
    assert answer["version"] == seen["version"]
    assert 1 <= len(answer["moves"]) <= 3
    for move in answer["moves"]:
        assert move["action"] in seen["you"]["legal_actions"]
        assert 0 <= move["win"] <= 1 and move["why"]
    problem(client.get(HINT.format(game_id)), 401, "unauthorized")
    problem(client.get(HINT.format("nope"), headers=bearer(token)), 404, "not_found")


def test_a_rated_game_has_no_hints_and_a_waiting_seat_none_either(client):
    rated = create(client, variant="sequence", players=2, rated=True)["game"]["id"]
    key = client.post("/api/v1/players", json={"name": "Ada"}).json["key"]
    seat = client.post(f"{API}/{rated}/players", json={"entropy": "ab" * 8}, headers=bearer(key))
    problem(client.get(HINT.format(rated), headers=bearer(seat.json["token"])), 403, "hints_off")
    waiting = create(client, variant="sequence", players=2)["game"]["id"]
    token = join(client, waiting)["token"]
    problem(client.get(HINT.format(waiting), headers=bearer(token)), 409, "not_your_turn")


class Idle:
    """Background jobs that never run: only what a request does happens."""

    def wake(self) -> None: ...

    def ended(self) -> None: ...

    def stop(self) -> None: ...


def test_the_request_only_asks_and_a_worker_computes():
    service = GameService(make_store(None, "hints", 2.0, ("sequence", "stacks")), Idle())
    created, _ = service.lobby.create({"variant": "stacks", "players": 2, "seats": [{}, {}]})
    tokens = [service.lobby.join(created["id"], name, None)["token"] for name in ("A", "B")]
    record = service.store.load(created["id"])
    token = tokens[record.to_move[0]]
    for _ in range(3):  # asked three times: queued once, computed by no request
        assert service.hints.ask(created["id"], token) == (None, record.version)
    assert service.hints.compute() == 1
    found, version = service.hints.ask(created["id"], token)
    assert version == record.version and found is not None and found["version"] == version
    legal = service.table.game(record).view(record.to_move[0])["you"]["legal_actions"]
    assert found["moves"] and all(m["action"] in legal for m in found["moves"])

"""Nothing a client receives reveals another seat's hand, the draw pile or the seed."""

import json

import pytest

from stacks_api.engine import load_game

from .helpers import API, act, bearer, create, join

FORBIDDEN_KEYS = {"hands", "draw_pile", "rng", "seed", "bot_seed", "host", "position"}


def walk(value, path=""):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield f"{path}.{key}", key, inner
            yield from walk(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from walk(inner, f"{path}[{i}]")


def check(body, secret, own_seat=None):
    """No forbidden key, no 'hand' but the caller's own, no seed or RNG state anywhere."""
    text = json.dumps(body)
    assert str(secret["rng"]) not in text
    for path, key, inner in walk(body):
        assert key not in FORBIDDEN_KEYS, path
        if key == "hand":
            assert path.endswith("you.hand"), path
            assert inner == secret["position"]["hands"][own_seat], path
        if key == "token":
            assert path == ".token", path  # only a join's own answer


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_every_route_keeps_hidden_information_hidden(app, client, variant):
    created = create(client, variant=variant, players=3, seed=987654321)
    assert "987654321" not in json.dumps(created)
    game_id = created["game"]["id"]
    seats = [join(client, game_id, f"P{i}") for i in range(3)]
    tokens = [s["token"] for s in seats]
    store = app.extensions["stacks_api.games"].store

    def secret():
        return store.load(game_id).game

    for step in range(12):
        current = secret()
        check(client.get(f"{API}/{game_id}").json, current)
        for seat, token in enumerate(tokens):
            check(client.get(f"{API}/{game_id}", headers=bearer(token)).json, current, seat)
        check(client.get(f"{API}/{game_id}/events").json, current)
        check(client.get(f"{API}?status=active").json, current)
        mover = load_game(current).to_move[0]
        legal = client.get(f"{API}/{game_id}", headers=bearer(tokens[mover])).json
        action = legal["you"]["legal_actions"][step % len(legal["you"]["legal_actions"])]
        response = act(client, game_id, tokens[mover], action)
        assert response.status_code == 200
        check(response.json, secret(), mover)
        refused = act(client, game_id, tokens[(mover + 1) % 3], {"type": "pass"})
        check(refused.json, secret())
        draw_top = secret()["position"]["draw_pile"][:3]
        assert json.dumps(draw_top)[1:-1] not in json.dumps(client.get(f"{API}/{game_id}").json)

"""Idempotency-Key: a retried action returns the first response and acts once."""

from .helpers import act, human_vs_bots, problem, view


def test_a_retry_with_the_same_key_returns_the_first_response(client):
    game_id, token = human_vs_bots(client, "stacks", 2, seed=4)
    action = view(client, game_id, token)["you"]["legal_actions"][0]
    first = act(client, game_id, token, action, **{"Idempotency-Key": "k1"})
    assert first.status_code == 200
    again = act(client, game_id, token, action, **{"Idempotency-Key": "k1"})
    assert again.status_code == 200 and again.json == first.json
    assert view(client, game_id)["version"] == first.json["game"]["version"]


def test_a_reused_key_with_another_body_is_refused(client):
    game_id, token = human_vs_bots(client, "stacks", 2, seed=4)
    legal = view(client, game_id, token)["you"]["legal_actions"]
    act(client, game_id, token, legal[0], **{"Idempotency-Key": "k2"})
    other = {"type": "discard", "card": "R1"}
    problem(act(client, game_id, token, other, **{"Idempotency-Key": "k2"}), 422,
            "idempotency_key_reused")  # fmt: skip


def test_a_refusal_is_the_first_response_too(client):
    game_id, token = human_vs_bots(client, "stacks", 2, seed=4)
    before = view(client, game_id)["version"]
    for _ in range(2):
        problem(act(client, game_id, token, {"type": "pass"}, **{"Idempotency-Key": "k3"}), 409,
                "illegal_action")  # fmt: skip
    legal = view(client, game_id, token)["you"]["legal_actions"][0]
    problem(act(client, game_id, token, legal, **{"Idempotency-Key": "k3"}), 422,
            "idempotency_key_reused")  # fmt: skip
    assert view(client, game_id)["version"] == before

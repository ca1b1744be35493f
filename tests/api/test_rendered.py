"""Views and action results are sent as the service renders them, not dumped through
their schemas again: so what is sent must be exactly what those schemas would send."""

import random

import pytest

from stacks_api import variants
from stacks_api.api.schemas import ActionResultSchema, CreatedSchema

from .helpers import API, act, bearer, create, join
from .test_openapi_examples import validator

GAME_VIEW = validator({"$ref": "#/components/schemas/GameView"})
EVENT = validator({"$ref": "#/components/schemas/Event"})

MOVES = 30


def dumped_as_sent(schema, body):
    assert schema.dump(body) == body


def fits_the_document(view, prefix):
    """The view, and each of its legal actions, valid against openapi.yaml."""
    assert not [e.message for e in GAME_VIEW.iter_errors(view)]
    actions = validator({"$ref": f"#/components/schemas/{prefix}Action"})
    for action in view.get("you", {}).get("legal_actions", []):
        assert not [e.message for e in actions.iter_errors(action)], action


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_every_answer_is_what_its_schema_would_send(client, variant):
    rng = random.Random(variant)
    view_schema = variants.get(variant).schemas.view()
    created = create(client, variant=variant, players=3 if variant == "stacks" else 2, seed=11)
    dumped_as_sent(CreatedSchema(), created)
    game_id, players = created["game"]["id"], created["game"]["players"]
    tokens = [join(client, game_id, f"p{seat}")["token"] for seat in range(len(players))]
    answers = 0
    for _ in range(MOVES):
        spectator = client.get(f"{API}/{game_id}").json
        dumped_as_sent(view_schema, spectator)
        if spectator["status"] != "active":
            break
        seat = spectator["to_move"][0]
        seen = client.get(f"{API}/{game_id}", headers=bearer(tokens[seat])).json
        dumped_as_sent(view_schema, seen)
        fits_the_document(seen, variants.get(variant).schema_prefix)
        response = act(client, game_id, tokens[seat], rng.choice(seen["you"]["legal_actions"]))
        assert response.status_code == 200, response.json
        dumped_as_sent(ActionResultSchema(), response.json)
        for event in response.json["events"]:
            assert not [e.message for e in EVENT.iter_errors(event)], event
        answers += 1
    assert answers > 10
    for event in client.get(f"{API}/{game_id}/events").json["events"]:
        assert not [e.message for e in EVENT.iter_errors(event)], event

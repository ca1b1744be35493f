"""Views and action results are sent as the service renders them, not dumped through
their schemas again: so what is sent must be exactly what those schemas would send."""

import random

import pytest

from stacks_api import variants
from stacks_api.api.event_schemas import (
    SERVER_EVENT_SCHEMAS,
    ActionResultSchema,
    game_over_event,
)
from stacks_api.api.schemas import CreatedSchema

from ..spec_check import validator
from .helpers import API, act, bearer, create, join

GAME_VIEW = validator({"$ref": "#/components/schemas/GameView"})
EVENTS = {v.name: validator({"$ref": f"#/components/schemas/{v.schema_prefix}Event"})
          for v in variants.registered().values()}  # fmt: skip

MOVES = 30


def dumped_as_sent(schema, body):
    assert schema.dump(body) == body


def event_schema(variant, kind):
    """The schema documenting events of ``kind`` in games of ``variant``."""
    parts = variants.get(variant).schemas
    if kind == "game_over":
        return game_over_event(parts.result)()
    return (parts.events.get(kind) or SERVER_EVENT_SCHEMAS[kind])()


def event_as_documented(variant, event):
    """The event is exactly what its type's schema sends, and valid against the spec."""
    dumped_as_sent(event_schema(variant, event["type"]), event)
    assert not [e.message for e in EVENTS[variant].iter_errors(event)], event


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_every_event_and_log_type_has_a_schema_and_a_meaning(variant):
    parts = variants.get(variant).schemas
    assert set(parts.events) | set(parts.log) == set(variants.get(variant).events)
    assert not set(parts.events) & set(SERVER_EVENT_SCHEMAS), "a variant's own types"


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
            event_as_documented(variant, event)
        answers += 1
    assert answers > 10
    for event in client.get(f"{API}/{game_id}/events").json["events"]:
        event_as_documented(variant, event)

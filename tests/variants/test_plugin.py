"""A variant is one plug-in: a toy game registered from the tests alone is listed,
created, played over HTTP against bots and documented, with no edit to the server."""

from __future__ import annotations

import pytest

from stacks_api import variants
from stacks_api.app import create_app
from stacks_api.runtime.config import TestConfig

from ..api.helpers import API, act, create, join, problem, view
from .nim import NIM


@pytest.fixture
def nim_client(store_url, prefix):
    variants.register(NIM)
    app = create_app(TestConfig, REDIS_URL=store_url, STORE_PREFIX=prefix)
    yield app.test_client()
    app.extensions["stacks_api.games"].jobs.stop()
    variants.unregister(NIM.name)


def test_a_toy_variant_is_listed_created_and_played_over_http_against_a_bot(nim_client):
    game = create(nim_client, variant="nim", players=2, seats=[{}, {"bot": "greedy"}],
                  options={"stones": 11})["game"]  # fmt: skip
    listed = nim_client.get(f"{API}?variant=nim").json["games"]
    assert [g["id"] for g in listed] == [game["id"]]
    me = join(nim_client, game["id"], "Ada")
    assert me["team"] is None
    taken = 0
    for _ in range(20):
        seen = view(nim_client, game["id"], me["token"], wait=5)
        if seen["status"] == "finished":
            break
        assert seen["to_move"] == [me["seat"]]
        answer = act(nim_client, game["id"], me["token"], {"type": "take", "count": 1})
        assert answer.status_code == 200, answer.json
        taken += 1
    assert seen["status"] == "finished" and seen["stones"] == 0
    # The greedy bot leaves a multiple of four after each of its moves, so it wins.
    assert seen["result"] == {"winner_seat": 1 - me["seat"]} and taken >= 2
    events = nim_client.get(f"{API}/{game['id']}/events").json["events"]
    assert {e["seat"] for e in events if e["type"] == "take"} == {0, 1}


def test_a_toy_variant_refuses_what_its_rules_refuse(nim_client):
    game = create(nim_client, variant="nim", players=2, options={"stones": 5})["game"]
    seats = [join(nim_client, game["id"], name) for name in ("A", "B")]
    mover = next(s for s in seats if s["seat"] in view(nim_client, game["id"])["to_move"])
    before = view(nim_client, game["id"])["version"]
    for action in [{"type": "take", "count": 7}, {"type": "take"}, {"type": "take", "count": "2"},
                   {"type": "play", "card": "7H", "cell": [1, 1]}]:  # fmt: skip
        problem(act(nim_client, game["id"], mover["token"], action), 422, "validation_error")
    assert view(nim_client, game["id"])["version"] == before  # nothing applied
    problem(nim_client.post(API, json={"variant": "nim", "players": 3}), 422, "validation_error")


def test_bots_of_every_kind_play_a_toy_variant_to_the_end(nim_client):
    game = create(nim_client, variant="nim", players=2,
                  seats=[{"bot": "pimc"}, {"bot": "random"}])["game"]  # fmt: skip
    for _ in range(10):
        seen = view(nim_client, game["id"], wait=5)
        if seen["status"] == "finished":
            break
    assert seen["status"] == "finished" and seen["result"]["winner_seat"] in (0, 1)


def test_a_toy_variant_is_documented_in_the_openapi_document(nim_client):
    schemas = nim_client.get("/openapi.json").json["components"]["schemas"]
    assert {"NimView", "NimTakeAction", "NimAction", "NimPosition", "NimOptions"} <= set(schemas)
    assert {"$ref": "#/components/schemas/NimView"} in schemas["GameView"]["oneOf"]
    assert schemas["GameView"]["discriminator"]["mapping"]["nim"].endswith("/NimView")
    assert "nim" in schemas["CreateGame"]["properties"]["variant"]["enum"]
    assert {"$ref": "#/components/schemas/NimPosition"} in (
        schemas["CreateGame"]["properties"]["position"]["oneOf"]
    )
    assert schemas["NimView"]["example"]["variant"] == "nim"
    assert "stones" in schemas["NimView"]["properties"]


def test_the_registry_refuses_a_second_variant_of_the_same_name():
    assert variants.get("sequence") is not None
    with pytest.raises(ValueError, match="already registered"):
        variants.register(
            variants.Variant(
                game=variants.get("sequence").game,
                title="Again",
                schema_prefix="Again",
                summary="",
                bots=NIM.bots,
                schemas=NIM.schemas,
                examples=NIM.examples,
            )
        )

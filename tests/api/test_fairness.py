"""A deal nobody could choose: the commitment, the entropy, the reveal, and verify
(docs/fairness.md), on both stores."""

import json
import random

import pytest

from stacks_api.commands.verify import verify_record
from stacks_api.model.fairness import commitment, game_seed

from .helpers import API, act, bearer, create, join


def play_out(client, variant, entropy):
    """A game of two people (one of them with ``entropy``) and a bot, played by random
    moves to the end; its final view and events."""
    players = 3
    seats = [{}, {}, {"bot": "random"}]
    game = create(client, variant=variant, players=players, seats=seats)["game"]
    tokens = [join(client, game["id"], f"P{s}", seat=s, **({"entropy": entropy} if s == 0 and
              entropy else {}))["token"] for s in range(2)]  # fmt: skip
    rng = random.Random(variant)
    for _ in range(3000):
        headers = {"Prefer": "wait=10"}
        shown = client.get(f"{API}/{game['id']}", headers=headers).json
        if shown["status"] != "active":
            break
        seat = next(s for s in shown["to_move"] if s < 2)
        mine = client.get(f"{API}/{game['id']}", headers=bearer(tokens[seat])).json
        legal = mine["you"]["legal_actions"]
        if legal:
            act(client, game["id"], tokens[seat], rng.choice(legal))
    final = client.get(f"{API}/{game['id']}").json
    events = client.get(f"{API}/{game['id']}/events").json["events"]
    return final, events, tokens


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
@pytest.mark.parametrize("entropy", [None, "c0ffee42"])
def test_a_finished_game_reveals_its_deal_and_its_record_verifies(client, variant, entropy):
    final, events, _ = play_out(client, variant, entropy)
    assert final["status"] == "finished"
    fair = final["fairness"]
    assert fair["scheme"] == "commit-reveal-v2"
    assert fair["entropy"][0] == entropy and fair["entropy"][1] is None
    assert commitment(fair["server_seed"], fair["dealer"]) == fair["commitment"]
    ending = next(e for e in events if e["type"] == "game_over")
    assert ending["server_seed"] == fair["server_seed"]
    record = client.get(f"{API}/{final['id']}/record").json
    verdict = verify_record(record, fair["commitment"], entropy)
    assert verdict.ok, verdict.detail


def test_a_live_game_shows_nothing_of_its_secrets(app, client, caplog):
    game = create(client, variant="stacks", players=2)["game"]
    joined = [join(client, game["id"], f"P{s}", entropy="deadbeef") for s in range(2)]
    assert all("entropy" not in j and "deadbeef" not in json.dumps(j) for j in joined)
    record = app.extensions["stacks_api.games"].store.load(game["id"])
    fair = record.fairness
    secrets = [fair.server_seed, "deadbeef", str(game_seed(fair.server_seed, list(fair.entropy)))]
    seen = [client.get(f"{API}/{game['id']}").get_data(as_text=True)]
    seen += [client.get(f"{API}/{game['id']}", headers=bearer(j["token"])).get_data(as_text=True)
             for j in joined]  # fmt: skip
    seen.append(client.get(f"{API}/{game['id']}/events").get_data(as_text=True))
    seen.append(client.get(f"{API}?status=active").get_data(as_text=True))
    seen.append(caplog.text)
    for text in seen:
        for secret in secrets:
            assert secret not in text


def test_a_chosen_deal_says_so(client):
    game = create(client, variant="sequence", players=2, seed=5)["game"]
    assert game["fairness"] == {"scheme": "chosen"}


def test_entropy_is_hex_of_at_most_64(client):
    game = create(client, variant="sequence", players=2)["game"]
    answer = client.post(f"{API}/{game['id']}/players", json={"name": "A", "entropy": "xyz"})
    assert answer.status_code == 422
    answer = client.post(f"{API}/{game['id']}/players", json={"name": "A", "entropy": "a" * 65})
    assert answer.status_code == 422


def test_a_waiting_table_shows_no_deal_before_it_is_made(client):
    game = create(client, variant="sequence", players=2)["game"]
    token = join(client, game["id"], "Ada")["token"]
    for seen in (client.get(f"{API}/{game['id']}").json,
                 client.get(f"{API}/{game['id']}", headers=bearer(token)).json):  # fmt: skip
        assert seen["status"] == "waiting"
        assert seen["log"] == [] and seen["dealer"] is None
        assert all(p["hand_size"] == 0 for p in seen["players"])
    assert client.get(f"{API}/{game['id']}", headers=bearer(token)).json["you"]["hand"] == []
    join(client, game["id"], "Bo")
    dealt = client.get(f"{API}/{game['id']}").json
    assert dealt["status"] == "active" and dealt["log"] and dealt["dealer"] is not None
    assert all(p["hand_size"] == 7 for p in dealt["players"])

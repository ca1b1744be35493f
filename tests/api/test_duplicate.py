"""Duplicate events over HTTP: every table of a round dealt the same cards, each side
compared with the others that held its seat, run to the end by the workers' steps;
on the embedded store with SQLite and on Redis with PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any

import pytest
import requests
from simple_websocket import Client as WebSocket
from simple_websocket import ConnectionClosed

from stacks_api.commands.verify import verify_record
from stacks_api.commands.verify_rounds import _round
from stacks_api.competition.duplicate import Held, round_table
from stacks_api.engine import restore_game
from stacks_api.model.fairness import commitment, mixed_entropy
from stacks_api.service.duplicate import progress, turns
from stacks_api.service.replay import dealt, final_record
from stacks_api.testing import ServerProcess

from . import test_archive
from .helpers import API, bearer, problem
from .test_archive import new_player
from .test_tournaments import LATER, TOURNAMENTS, enter_bots, run_to_the_end, swiss

app, client = test_archive.app, test_archive.client


def duplicate(client: Any, key: str, **body: Any) -> dict[str, Any]:
    """A duplicate event made as ``test_tournaments.swiss`` makes a swiss."""
    return swiss(client, key, **{"system": "duplicate", **body})


def by_hand(records: list[dict[str, Any]], tables: list[dict[str, Any]]) -> dict[int, list]:
    """A round's comparison from its games' records alone."""
    held = []
    for table, record in zip(tables, records, strict=True):
        game = restore_game(final_record(record).game)
        for seat, entry in enumerate(table["seats"]):
            held.append(Held(entry, table["board"], seat, record["result"]["scores"][seat],
                             turns(record["events"]), progress(game, seat)))  # fmt: skip
    return {seat: [(s.held.entry, s.matchpoints) for s in group]
            for seat, group in round_table(held).items()}  # fmt: skip


def socket_frames(game: str, key: str) -> list[str]:
    """Every frame a seat's socket on a game is sent until it closes (or 2 s)."""
    ws = WebSocket.connect(f"{game.replace('http', 'ws', 1)}/socket")
    ws.send(json.dumps({"type": "hello", "token": key}))
    frames: list[str] = []
    deadline = time.monotonic() + 2
    try:
        while time.monotonic() < deadline:
            frame = ws.receive(1)
            if frame is not None:
                frames.append(str(frame))
    except ConnectionClosed:
        pass
    finally:
        ws.close()
    assert frames and json.loads(frames[0])["type"] == "state"
    return frames


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_a_duplicate_event_of_eight_bots_deals_each_round_alike_and_scores_itself(
    app, client, variant
):
    _, key = new_player(client)
    made = duplicate(client, key, variant=variant)
    assert [d["over"] for d in made["deals"]] == [False] * 3
    commitments = [d["commitment"] for d in made["deals"]]
    enter_bots(client, key, made["id"], 8)
    done = run_to_the_end(app, made["id"], stepping=2)
    assert done["status"] == "finished" and done["round"] == 3
    met = [frozenset(t["seats"]) for r in done["pairings"] for t in r["tables"]]
    assert len(met) == 12 and len(set(met)) == 12, "four tables a round, no pair twice"
    totals: dict[str, float] = {}
    for played, deal in zip(done["pairings"], done["deals"], strict=True):
        assert deal["over"] and deal["commitment"] == commitments[played["round"] - 1]
        assert commitment(deal["server_seed"], None) == deal["commitment"]
        records = [client.get(f"{API}/{t['game_id']}/record").json for t in played["tables"]]
        for record in records:
            assert verify_record(record).ok, verify_record(record)
            assert record["fairness"]["server_seed"] == deal["server_seed"]
            assert record["duplicate"] == {"tournament": made["id"], "round": played["round"]}
        first_deals = [dealt(r).view(None) for r in records]
        hands = [dealt(r).view(0)["you"]["hand"] for r in records]
        assert all(d == first_deals[0] for d in first_deals), "one deal, one first player"
        assert all(h == hands[0] for h in hands), "the same cards in the same seat"
        expected = by_hand(records, played["tables"])
        shown = {c["seat"]: [(r["entry"], r["matchpoints"]) for r in c["results"]]
                 for c in deal["comparison"]}  # fmt: skip
        assert shown == expected
        for group in expected.values():
            for entry, points in group:
                totals[entry] = totals.get(entry, 0.0) + points
    standings = {s["entry"]: s for s in done["standings"]}
    assert {e: s["points"] for e, s in standings.items()} == totals
    assert all(s["top"] == 9 and s["percentage"] == round(100 * s["points"] / 9, 2)
               for s in standings.values())  # fmt: skip
    ranked = [s["points"] for s in done["standings"]]
    assert ranked == sorted(ranked, reverse=True)


def test_a_person_s_entropy_is_mixed_into_every_deal(app, client):
    player_id, key = new_player(client)
    made = duplicate(client, key, rounds=1)
    entered = client.post(f"{TOURNAMENTS}/{made['id']}/players", headers=bearer(key),
                          json={"entropy": "C0FFEE"})  # fmt: skip
    assert entered.status_code == 201, entered.json
    assert entered.json["entries"][0]["entropy"] is None, "shown once it has started"
    enter_bots(client, key, made["id"], 3)
    service = app.extensions["stacks_api.games"]
    service.tournaments.step(time.time() + LATER)
    started = client.get(f"{TOURNAMENTS}/{made['id']}").json
    assert started["entries"][0]["entropy"] == "C0FFEE"
    assert all(t["points"] is None for t in started["pairings"][0]["tables"])
    mixed = mixed_entropy(["c0ffee"])
    mine = next(t for t in started["pairings"][0]["tables"] if player_id in t["seats"])
    resigned = client.post(f"{API}/{mine['game_id']}/resign", headers=bearer(key))
    assert resigned.status_code == 200, resigned.json  # the round need not wait for Ada
    done = run_to_the_end(app, made["id"])
    for table in done["pairings"][0]["tables"]:
        record = client.get(f"{API}/{table['game_id']}/record").json
        assert record["fairness"]["entropy"] == [mixed, mixed]
    assert done["deals"][0]["entropy"] == mixed


def test_a_duplicate_event_refuses_what_it_cannot_be(app, client):
    _, key = new_player(client)
    _, other = new_player(client, "Bo")
    body = {"variant": "stacks", "system": "duplicate", "rounds": 2, "starts_at": 0}
    problem(client.post(TOURNAMENTS, headers=bearer(key), json={**body, "players": 3}),
            422, "validation_error")  # fmt: skip
    problem(client.post(TOURNAMENTS, headers=bearer(key), json={**body, "rounds": None}),
            422, "validation_error")  # fmt: skip
    made = duplicate(client, key)
    players = f"{TOURNAMENTS}/{made['id']}/players"
    problem(client.post(players, headers=bearer(key), json={"entropy": "xyz"}), 422,
            "validation_error")  # fmt: skip
    enter_bots(client, key, made["id"], 3)
    start = f"{TOURNAMENTS}/{made['id']}/start"
    problem(client.post(start, headers=bearer(key)), 409, "too_few_entries")
    enter_bots(client, key, made["id"], 1)
    assert client.post(start, headers=bearer(key)).status_code == 200
    app.extensions["stacks_api.games"].tournaments.step(time.time())
    problem(client.post(players, headers=bearer(other), json={}), 409, "tournament_started")


def test_no_route_shows_another_table_of_the_round_until_the_round_is_over(tmp_path):
    """Four people in a duplicate event: while round 1 runs, an entrant (with their key)
    and an anonymous caller try every way the API offers to see the other table."""
    server = ServerProcess({"REDIS_URL": "", "DATABASE_URL": f"sqlite:///{tmp_path}/a.sqlite3"})
    try:
        url = f"{server.url}/api/v1"
        keys = {n: requests.post(f"{url}/players", json={"name": n}, timeout=5).json()["key"]
                for n in ("Ada", "Bo", "Cy", "Di")}  # fmt: skip
        ids = {n: requests.get(f"{url}/players/me", headers=bearer(k), timeout=5).json()["id"]
               for n, k in keys.items()}  # fmt: skip
        made = requests.post(f"{url}/tournaments", headers=bearer(keys["Ada"]), timeout=5, json={
            "variant": "sequence", "system": "duplicate", "rounds": 1,
            "starts_at": time.time() + LATER}).json()  # fmt: skip
        for key in keys.values():
            requests.post(f"{url}/tournaments/{made['id']}/players", headers=bearer(key),
                          json={}, timeout=5)  # fmt: skip
        requests.post(f"{url}/tournaments/{made['id']}/start", headers=bearer(keys["Ada"]),
                      timeout=5)  # fmt: skip
        tables = []
        for _ in range(100):  # the workers make the round within a second or two
            tables = requests.get(f"{url}/tournaments/{made['id']}", timeout=5).json()["pairings"]
            if tables:
                break
            time.sleep(0.1)
        mine, other = sorted(tables[0]["tables"], key=lambda t: ids["Ada"] not in t["seats"])
        names = {v: n for n, v in ids.items()}
        seated = [names[e] for e in other["seats"]]
        game = f"{url}/games/{other['game_id']}"

        def closed_to(headers: dict[str, str]) -> None:
            for path in ("", "/events", "/record", "/replay/1", "/chat", "/analysis"):
                answer = requests.get(f"{game}{path}", headers=headers, timeout=5)
                # (a key holding no seat of a game is refused its view as ever: 401)
                assert answer.json()["code"] in ("duplicate_closed", "unauthorized"), path
                assert answer.status_code in (401, 403) and '"hand"' not in answer.text
                if not headers:
                    assert answer.json()["code"] == "duplicate_closed", path
            stream = requests.get(f"{game}/events", timeout=5,
                                  headers={**headers, "Accept": "text/event-stream"})  # fmt: skip
            assert stream.status_code == 403
            said = requests.post(f"{game}/chat", json={"text": "hi"}, headers=headers, timeout=5)
            assert said.status_code in (401, 403)
            ws = WebSocket.connect(f"{game.replace('http', 'ws', 1)}/socket")
            ws.send(json.dumps({"type": "hello", "token": headers.get("Authorization", " ")[7:]
                                or None}))  # fmt: skip
            try:  # refused, then closed (the close may overtake the refusal)
                refused = json.loads(ws.receive(10))
                assert refused["type"] == "refused" and "view" not in refused
            except ConnectionClosed:
                assert ws.close_reason in (4400, 4401)
            listed = [requests.get(f"{url}/games?status={s}", timeout=5).json()
                      for s in ("active", "finished")]  # fmt: skip
            assert other["game_id"] not in json.dumps(listed)

        closed_to(bearer(keys["Ada"]))
        closed_to({})
        own = requests.get(game, headers=bearer(keys[seated[0]]), timeout=5)
        assert own.status_code == 200 and "you" in own.json(), "its own seats see it"
        assert "private" in own.headers["Cache-Control"]

        # Ada's own table ends first: its game stays closed to the other table (and out
        # of every history) while the round runs on.
        for name in [names[e] for e in mine["seats"]][:1]:
            requests.post(f"{url}/games/{mine['game_id']}/resign", headers=bearer(keys[name]),
                          timeout=5)  # fmt: skip
        record = requests.get(f"{url}/games/{mine['game_id']}/record",
                              headers=bearer(keys[seated[0]]), timeout=5)  # fmt: skip
        assert record.status_code == 403 and record.json()["code"] == "duplicate_closed"
        # Ada sees her own board end, but not the seed that dealt the other table too.
        ended = f"{url}/games/{mine['game_id']}"
        own_view = requests.get(ended, headers=bearer(keys["Ada"]), timeout=5).json()
        own_record = requests.get(f"{ended}/record", headers=bearer(keys["Ada"]), timeout=5)
        assert own_view["status"] == "finished" and own_record.status_code == 200
        for fairness in (own_view["fairness"], own_record.json()["fairness"]):
            assert "server_seed" not in fairness and fairness["commitment"]
        seen = [own_record.text, json.dumps(own_view), *(
            requests.get(f"{ended}{path}", headers={**bearer(keys["Ada"]), **accept},
                         timeout=5).text
            for path, accept in (("/events", {}), ("/ratings", {}), ("/chat", {}),
                                 ("/events", {"Accept": "text/event-stream"})))]  # fmt: skip
        seen += socket_frames(ended, keys["Ada"])
        for path in ("/replay/1", "/analysis"):  # both would deal the cards again
            problem = requests.get(f"{ended}{path}", headers=bearer(keys["Ada"]), timeout=5)
            assert problem.status_code == 403 and problem.json()["code"] == "duplicate_closed"
        history = requests.get(f"{url}/players/{ids['Ada']}/games", timeout=5).json()
        assert mine["game_id"] not in json.dumps(history), "no result before the round ends"
        shown = requests.get(f"{url}/tournaments/{made['id']}", timeout=5).json()
        assert all(t["points"] is None for t in shown["pairings"][0]["tables"])

        requests.post(f"{game}/resign", headers=bearer(keys[seated[0]]), timeout=5)
        for _ in range(100):  # the workers score the round, then everything opens
            if requests.get(f"{game}/record", timeout=5).status_code == 200:
                break
            time.sleep(0.1)
        opened = requests.get(f"{game}/record", timeout=5)
        assert opened.status_code == 200 and "public" in opened.headers["Cache-Control"]
        assert verify_record(opened.json()).ok
        assert requests.get(f"{url}/games/{mine['game_id']}/events", timeout=5).status_code == 200
        checked = subprocess.run([sys.executable, "-m", "stacks_api.cli", "verify", server.url,
                                  "--tournament", made["id"]], capture_output=True, text=True,
                                 timeout=120)  # fmt: skip
        assert checked.returncode == 0 and checked.stdout.startswith("verified: 1 round"), checked
        deal = requests.get(f"{url}/tournaments/{made['id']}", timeout=5).json()["deals"][0]
        secrets = [deal["server_seed"], *filter(None, opened.json()["fairness"]["entropy"])]
        assert not [s for s in secrets if s in "\n".join(seen)], "the deal told too early"
        ending = requests.get(f"{ended}/events", timeout=5).json()["events"][-1]
        assert ending["server_seed"] == deal["server_seed"], "told once the round is over"
        forged = _round(server.url, {**deal, "entropy": "00"}, "00", [other["game_id"]])
        assert forged is not None and "not dealt from the round's seed" in forged
    finally:
        server.stop()


def test_one_withdrawal_leaves_a_duplicate_event_of_four_going_with_a_stand_in(app, client):
    """Four entries, one withdrawn after round 1: three are too few to compare a deal
    at two tables, so a bot plays the withdrawn seat (it ended the event for all)."""
    _, key = new_player(client)
    made = duplicate(client, key, rounds=2)
    enter_bots(client, key, made["id"], 4)
    client.post(f"{TOURNAMENTS}/{made['id']}/start", headers=bearer(key))
    service = app.extensions["stacks_api.games"]
    for _ in range(100):  # bounded: round 1 is made by the first steps
        service.tournaments.step(time.time())
        if service.tournaments.get(made["id"])["round"] == 1:
            break
    gone = client.delete(f"{TOURNAMENTS}/{made['id']}/players?entry=bot:random:4",
                         headers=bearer(key))  # fmt: skip
    assert gone.status_code == 200, gone.json
    done = run_to_the_end(app, made["id"], at=time.time())
    assert done["status"] == "finished" and done["round"] == 2
    second = next(r for r in done["pairings"] if r["round"] == 2)["tables"]
    assert len(second) == 2 and "bot:random:4" in {e for t in second for e in t["seats"]}
    table = next(t for t in second if "bot:random:4" in t["seats"])
    record = client.get(f"{API}/{table['game_id']}/record").json
    seat = record["seats"][table["seats"].index("bot:random:4")]
    assert seat["bot"] == "medium" and seat["name"].endswith("(stand-in)")
    standing = next(s for s in done["standings"] if s["entry"] == "bot:random:4")
    assert standing["withdrawn"] and standing["games"] == 2

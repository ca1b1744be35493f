"""Quick pairing and the account's event stream over HTTP, on the embedded store
with SQLite and on Redis with PostgreSQL."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from sqlalchemy import insert

from stacks_api.archive import open_archive
from stacks_api.archive.models import PlayerRating
from stacks_api.model.seeks import Seek
from stacks_api.service import GameService
from stacks_api.service.pairing import RATED_CLOCK_S, RECOVER_AFTER_S, groups
from stacks_api.store import make_store

from . import test_archive
from .helpers import API, bearer, problem
from .test_archive import new_player
from .test_rated import ENTROPY, seat_with_key

# The archive's app and client: the embedded store with SQLite, Redis with PostgreSQL.
app, client = test_archive.app, test_archive.client

SEEKS = "/api/v1/seeks"


def seek(client: Any, key: str, status: int = 201, **body: Any) -> dict[str, Any]:
    response = client.post(SEEKS, json={"variant": "sequence", "players": 2, **body},
                           headers=bearer(key))  # fmt: skip
    assert response.status_code == status, response.json
    return dict(response.json)


def paired(client: Any, key: str, seek_id: str) -> dict[str, Any]:
    """The seek once paired (a bound on the wait, not a timing check)."""
    deadline = time.monotonic() + 30
    while True:
        found = client.get(f"{SEEKS}/{seek_id}", headers=bearer(key)).json
        if found["status"] != "waiting":
            return dict(found)
        assert time.monotonic() < deadline, "never paired"
        time.sleep(0.05)


def with_ratings(app: Any, ratings: dict[str, float]) -> None:
    engine = app.extensions["stacks_api.games"].archive.engine
    with engine.begin() as connection:
        connection.execute(insert(PlayerRating), [
            {"subject": p, "variant": "sequence", "mu": mu, "sigma": 200.0, "games": 20,
             "last_at": time.time()} for p, mu in ratings.items()])  # fmt: skip


def test_the_oldest_seek_is_seated_with_the_closest_ratings_within_both_ranges():
    now = 1000.0

    def s(i: str, rating: float, since: float, player: str | None = None) -> Seek:
        return Seek(id=i, player_id=player or i, name=i, pool="sequence:2:casual:0",
                    variant="sequence", players=2, rated=False, turn_seconds=None, days=None,
                    rating=rating, since=since, expires_at=since + 60)  # fmt: skip

    seeks = [s("a", 1500, now), s("b", 1590, now), s("c", 1520, now), s("d", 1900, now)]
    assert [[x.id for x in g] for g in groups(seeks, 2, now)] == [["a", "c"]]
    assert groups([s("a", 1500, now), s("d", 1900, now)], 2, now) == []
    # Both waited 30 s: each accepts ±400 now.
    assert len(groups([s("a", 1500, now - 30), s("d", 1900, now - 30)], 2, now)) == 1
    # One seek waited long, the other just came: the newcomer's range decides.
    assert groups([s("a", 1500, now - 60), s("d", 1900, now)], 2, now) == []
    assert groups([s("a", 1500, now, "ada"), s("b", 1500, now, "ada")], 2, now) == []
    three = groups([s("a", 1500, now), s("b", 1510, now), s("c", 1590, now), s("d", 1450, now)],
                   3, now)  # fmt: skip
    assert [[x.id for x in g] for g in three] == [["a", "b", "d"]]


def test_two_seekers_are_paired_join_with_their_keys_and_the_table_is_dealt(client):
    ada, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    first = seek(client, ada_key, rated=True)
    assert first["status"] == "waiting" and first["rating"] == 1500
    assert first["turn_seconds"] == RATED_CLOCK_S, "a rated seek is always clocked"
    problem(client.post(SEEKS, json={"variant": "sequence", "players": 2},
                        headers=bearer(ada_key)), 409, "already_seeking")  # fmt: skip
    second = seek(client, bo_key, rated=True)
    found = [paired(client, ada_key, first["id"]), paired(client, bo_key, second["id"])]
    assert found[0]["game_id"] == found[1]["game_id"] and {f["seat"] for f in found} == {0, 1}
    game_id = found[0]["game_id"]
    view = client.get(f"{API}/{game_id}").json
    assert view["status"] == "waiting" and view["rated"] and view["unlisted"]
    assert {p["player_id"] for p in view["players"]} == {ada, bo}
    problem(client.post(f"{API}/{game_id}/players", json={"name": "Cy", "entropy": ENTROPY}),
            422, "validation_error")  # fmt: skip
    _, cy_key = new_player(client, "Cy")
    problem(client.post(f"{API}/{game_id}/players", json={"entropy": ENTROPY},
                        headers=bearer(cy_key)), 409, "game_full")  # fmt: skip
    seats = [seat_with_key(client, game_id, key)["seat"] for key in (ada_key, bo_key)]
    assert sorted(seats) == [0, 1] and seats[0] == found[0]["seat"]
    dealt = client.get(f"{API}/{game_id}").json
    assert dealt["status"] == "active" and dealt["options"]["turn_seconds"] == RATED_CLOCK_S


def test_a_withdrawn_or_expired_seek_seats_nobody(client):
    _, ada_key = new_player(client, "Ada")
    _, bo_key = new_player(client, "Bo")
    mine = seek(client, ada_key)
    gone = client.delete(f"{SEEKS}/{mine['id']}", headers=bearer(ada_key))
    assert gone.status_code == 200 and gone.json["status"] == "withdrawn"
    theirs = seek(client, bo_key, wait_s=5)
    assert client.get(f"{SEEKS}/{theirs['id']}", headers=bearer(bo_key)).json["status"] in (
        "waiting", "expired")  # fmt: skip
    problem(client.get(f"{SEEKS}/{theirs['id']}", headers=bearer(ada_key)), 404, "not_found")
    problem(client.post(SEEKS, json={"variant": "sequence", "players": 2}), 401, "unauthorized")
    problem(client.post(SEEKS, json={"variant": "sequence", "players": 13},
                        headers=bearer(ada_key)), 422, "validation_error")  # fmt: skip


def test_fifty_seekers_at_once_are_each_seated_once_beside_the_closest_rating(app, client):
    people = [new_player(client, f"P{n}") for n in range(50)]
    # Pairs 300 points apart, the two of a pair 5 points apart.
    with_ratings(app, {p: 1000.0 + 300 * (n // 2) + 5 * (n % 2) for n, (p, _) in enumerate(people)})
    seeks: dict[str, dict[str, Any]] = {}
    barrier = threading.Barrier(50)

    def ask(player: str, key: str) -> None:
        mine = app.test_client()
        barrier.wait()
        seeks[player] = seek(mine, key)

    threads = [threading.Thread(target=ask, args=p) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    found = {p: paired(client, key, seeks[p]["id"]) for p, key in people}
    assert all(f["status"] == "paired" for f in found.values())
    tables: dict[str, list[str]] = {}
    for player, f in found.items():
        tables.setdefault(f["game_id"], []).append(player)
    assert len(tables) == 25 and all(len(t) == 2 for t in tables.values())
    rating = {p: found[p]["rating"] for p in found}
    assert all(abs(rating[a] - rating[b]) == 5 for a, b in tables.values())


def read_events(response: Any, until: set[str], limit: int = 200) -> list[dict[str, Any]]:
    """Events from an account stream until every type of ``until`` was seen."""
    seen: list[dict[str, Any]] = []
    chunks = iter(response.response)
    for _ in range(limit):
        chunk = next(chunks)
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        for line in text.splitlines():
            if line.startswith("data: "):
                seen.append(json.loads(line[6:]))
        if until <= {e["type"] for e in seen}:
            return seen
    raise AssertionError(f"the stream never told {until - {e['type'] for e in seen}}")


def test_the_account_stream_tells_pairing_start_turns_and_end(client):
    ada, ada_key = new_player(client, "Ada")
    _, bo_key = new_player(client, "Bo")
    stream = client.get("/api/v1/players/me/events", headers=bearer(ada_key), buffered=False)
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    mine, theirs = seek(client, ada_key), seek(client, bo_key)
    game_id = paired(client, ada_key, mine["id"])["game_id"]
    paired(client, bo_key, theirs["id"])
    tokens = [seat_with_key(client, game_id, key)["token"] for key in (ada_key, bo_key)]
    events = read_events(stream, {"paired", "game_started"})
    assert next(e for e in events if e["type"] == "paired")["game_id"] == game_id
    for token in tokens:  # every person agrees: the dealt game is cancelled
        assert client.delete(f"{API}/{game_id}", headers=bearer(token)).status_code == 200
    events += read_events(stream, {"game_ended"})
    ended = next(e for e in events if e["type"] == "game_ended")
    assert ended["game_id"] == game_id and ended["status"] == "cancelled"
    kinds = [e["type"] for e in events]
    assert kinds.index("paired") < kinds.index("game_started") < kinds.index("game_ended")
    stream.close()
    # A reconnect after the end is told the ended game again, and only once.
    resume = {**bearer(ada_key), "Last-Event-ID": str(int(mine["since"] * 1000))}
    again = client.get("/api/v1/players/me/events", headers=resume, buffered=False)
    told = read_events(again, {"game_ended"})
    assert [e["game_id"] for e in told if e["type"] == "game_ended"] == [game_id]
    again.close()
    assert ada


def test_a_pairing_whose_process_died_before_the_game_was_made_is_made_by_the_next_read(tmp_path):
    now = [time.time()]

    class Jobs:
        def wake(self) -> None: ...
        def ended(self) -> None: ...
        def stop(self) -> None: ...

    archive = open_archive(f"sqlite:///{tmp_path}/archive.sqlite3")
    store = make_store(None, "recover", 2.0, ("sequence", "stacks"))
    service = GameService(store, Jobs(), clock=lambda: now[0], archive=archive)
    players = [archive.accounts.create(name, "test")[0]["id"] for name in ("Ada", "Bo")]
    seeks = []
    for player in players:  # added straight to the board: nobody pairs them yet
        seeks.append(Seek(id=f"s-{player}", player_id=player, name=player,
                          pool="sequence:2:casual:0", variant="sequence", players=2,
                          rated=False, turn_seconds=None, days=None, rating=1500,
                          since=now[0], expires_at=now[0] + 60))  # fmt: skip
        assert store.seeks.add(seeks[-1]) is None
    # The pairing is stored, then its process dies before it makes the game.
    assert store.seeks.pair([s.id for s in seeks], "lostgame", now[0])
    assert store.load("lostgame") is None
    assert service.pairing.status(players[0], seeks[0].id)["game_id"] == "lostgame"
    assert store.load("lostgame") is None  # too soon: the pairing process may still be at it
    now[0] += RECOVER_AFTER_S
    service.pairing.status(players[0], seeks[0].id)
    made = store.load("lostgame")
    assert made is not None and made.status == "waiting"
    assert [s.player_id for s in made.seats] == players
    assert [s.state for s in made.seats] == ["reserved", "reserved"]
    service.pairing.status(players[1], seeks[1].id)  # made once: the second read finds it
    assert store.load("lostgame").version == made.version
    archive.engine.dispose()


def test_a_table_cancelled_before_its_deal_ends_but_never_started_for_the_stream(app, client):
    ada, key = new_player(client, "Ada")
    body = client.post(API, json={"variant": "sequence", "players": 2}).json
    game_id = body["game"]["id"]
    assert client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key)).status_code == 201
    feed = app.extensions["stacks_api.games"].account_feed
    told, first = feed.first(ada, None)
    assert first == []  # waiting for a second person: nothing to tell
    assert client.delete(f"{API}/{game_id}", headers=bearer(body["host_token"])).status_code == 200
    told_now = feed.poll(ada, told)
    assert [(e["type"], e["status"]) for e in told_now] == [("game_ended", "cancelled")]

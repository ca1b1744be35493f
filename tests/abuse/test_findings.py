"""One regression test per finding of the hostile-client review (issue 14), numbered
as the findings were; each runs on both stores unless the finding is Redis's own."""

import json
import socket
import time

import pytest
import redis
import requests

from stacks_api import store as store_module
from stacks_api.testing import RedisServer, ServerProcess

from ..api.helpers import API, act, create, join, problem, view
from ..store.records import game_record


def post_raw(client, path, body: bytes, **headers):
    return client.post(path, data=body, content_type="application/json", headers=headers)


def two_humans(client, variant="sequence", **body):
    game = create(client, variant=variant, players=2, seed=3, **body)["game"]
    tokens = [join(client, game["id"], name)["token"] for name in "AB"]
    return game["id"], tokens


# 1. Client input that used to raise (RecursionError, int() of odd digits, huge numbers).


def test_1_deeply_nested_json_is_a_400_or_a_413(client):
    problem(post_raw(client, API, b"[" * 30_000 + b"]" * 30_000), 400, "bad_request")
    problem(post_raw(client, API, b"[" * 100_000 + b"]" * 100_000), 413, "payload_too_large")
    nested = {
        "variant": "stacks",
        "players": 2,
        "position": {"piles": [[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]},
    }
    problem(client.post(API, json=nested), 400, "bad_request")


def test_1_integers_too_long_to_read_are_a_400(client):
    huge = b"9" * 5000
    problem(post_raw(client, API, b'{"variant": "sequence", "players": 2, "seed": ' + huge + b"}"),
            400, "bad_request")  # fmt: skip
    game_id = create(client, variant="sequence", players=2)["game"]["id"]
    problem(post_raw(client, f"{API}/{game_id}/players", b'{"name": "A", "seat": ' + huge + b"}"),
            400, "bad_request")  # fmt: skip
    too_big = {"variant": "sequence", "players": 2, "seed": 2**63}
    problem(client.post(API, json=too_big), 422, "validation_error")


@pytest.mark.parametrize("value", ['"²"', "¹", "1" * 5000, '"12', "-1", "W/ 3", "0x1"])
def test_1_odd_version_headers_are_a_400(client, value):
    game_id, tokens = two_humans(client)
    pass_ = {"type": "pass"}
    assert act(client, game_id, tokens[0], pass_, **{"If-Match": value}).status_code == 400
    headers = {"If-None-Match": value}
    problem(client.get(f"{API}/{game_id}", headers=headers), 400, "bad_request")
    headers = {"Last-Event-ID": value}
    problem(client.get(f"{API}/{game_id}/events", headers=headers), 400, "bad_request")


# 2. A float where an integer is meant used to break a game for good.


@pytest.mark.parametrize("field", ["direction", "turn", "plays"])
def test_2_a_float_in_a_position_is_refused_and_breaks_nothing(client, field):
    position = {"piles": [[], [], [], []], "hands": [["B1"], ["R1"]], "turn": 0, field: 1.0}
    body = problem(client.post(API, json={"variant": "stacks", "players": 2, "position": position}),
                   422, "validation_error")  # fmt: skip
    assert field in body["detail"]


# 3. An Idempotency-Key must not reach into another key.


@pytest.mark.parametrize("key", ["x}:state", "a b", "k" * 65, "ключ", ""])
def test_3_malformed_idempotency_keys_are_a_400(client, key):
    game_id, tokens = two_humans(client)
    before = view(client, game_id)
    mine = view(client, game_id, tokens[before["to_move"][0]])
    action = mine["you"]["legal_actions"][0]
    response = act(client, game_id, tokens[mine["you"]["seat"]], action, **{"Idempotency-Key": key})
    problem(response, 400, "bad_request")
    assert view(client, game_id)["version"] == before["version"]  # nothing applied


def test_3_idempotency_records_are_keyed_by_seat_and_digest(redis_url, prefix, make_app):
    app = make_app(REDIS_URL=redis_url, STORE_PREFIX=prefix)
    client = app.test_client()
    game_id, tokens = two_humans(client)
    mover = view(client, game_id)["to_move"][0]
    action = view(client, game_id, tokens[mover])["you"]["legal_actions"][0]
    assert (
        act(client, game_id, tokens[mover], action, **{"Idempotency-Key": "Key_1.x-"}).status_code
        == 200
    )
    keys = [k.decode() for k in redis.Redis.from_url(redis_url).scan_iter(f"{prefix}:*idem*")]
    assert len(keys) == 1 and "Key_1" not in keys[0]
    assert keys[0].startswith(f"{prefix}:{{{game_id}}}:idem:{mover}:")


# 4. Keys are checked after authentication, per seat; a refused token stores nothing.


def test_4_a_refused_token_stores_nothing_and_keys_are_per_seat(client):
    game_id, tokens = two_humans(client)
    mover = view(client, game_id)["to_move"][0]
    action = view(client, game_id, tokens[mover])["you"]["legal_actions"][0]
    refused = act(client, game_id, "bogus", action, **{"Idempotency-Key": "1"})
    problem(refused, 401, "unauthorized")
    first = act(client, game_id, tokens[mover], action, **{"Idempotency-Key": "1"})
    assert first.status_code == 200
    again = act(client, game_id, tokens[mover], action, **{"Idempotency-Key": "1"})
    assert again.json == first.json  # a retry replays
    other = view(client, game_id, tokens[1 - mover])
    if other["to_move"] == [1 - mover]:  # the same key from another seat is its own
        reply = other["you"]["legal_actions"][0]
        assert (
            act(client, game_id, tokens[1 - mover], reply, **{"Idempotency-Key": "1"}).status_code
            == 200
        )


def test_4_the_memory_store_expires_games_and_idempotency_records():
    now = [0.0]
    memory = store_module.memory.MemoryStore(clock=lambda: now[0])
    memory.create(game_record("g", status="waiting", version=1, created_at=0.0), [])
    memory.update("g", lambda r: (store_module.Change(r, [], remember=("0:abc", {"x": 1})), None))
    now[0] = store_module.TTL_SECONDS["waiting"] + 1
    memory.sweep()
    assert memory._slots == {}


# 5. Bodies are bounded before anything is sized by them.


def test_5_a_body_over_64_kib_is_a_413_and_long_lists_are_refused_quickly(client):
    big = {"variant": "sequence", "players": 2, "seats": [{}] * 200_000}
    problem(client.post(API, json=big), 413, "payload_too_large")
    options = {f"k{i}": 1 for i in range(700_000)}
    problem(client.post(API, json={"variant": "stacks", "players": 2, "options": options}),
            413, "payload_too_large")  # fmt: skip
    many = {"variant": "sequence", "players": 2, "seats": [{}] * 6000}  # 20 KB
    refused = problem(client.post(API, json=many), 422, "validation_error")
    # Refused by its length before any item is looked at: one error, not 6,000.
    assert refused["errors"] == {"seats": ["at most 12 seats"]}


# 6. Bot options are bounded.


@pytest.mark.parametrize("options", [{"seconds": 10}, {"iterations": 20_000}, {"seconds": 2.01}])
def test_6_bot_options_past_two_seconds_a_decision_are_refused(client, options):
    seats = [{"bot": "mcts", "options": options}, {}]
    problem(client.post(API, json={"variant": "sequence", "players": 2, "seats": seats}),
            422, "validation_error")  # fmt: skip


# 7. Rate limits per client address.


def test_7_rate_limits_answer_429_with_retry_after_and_ratelimit_headers(
    store_url, prefix, make_app
):
    app = make_app(REDIS_URL=store_url, STORE_PREFIX=prefix, RATE_LIMITS=True,
                   LIMIT_CREATE="3/minute")  # fmt: skip
    client = app.test_client()
    body = {"variant": "sequence", "players": 2}
    answers = [client.post(API, json=body) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert answers[0].headers["RateLimit-Limit"] == "3"
    assert answers[2].headers["RateLimit-Remaining"] == "0"
    refused = problem(answers[3], 429, "rate_limited")
    assert 1 <= int(answers[3].headers["Retry-After"]) <= 61  # never 0: see limits.py
    assert 0 <= int(answers[3].headers["RateLimit-Reset"]) <= 61  # the window, rounded up
    assert refused["detail"]
    other = client.post(API, json=body, environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert other.status_code == 201, "another address has its own budget"
    assert client.get(f"{API}?status=waiting").status_code == 200, "the lobby has its own budget"


def test_7_games_of_bots_alone_are_limited_per_creator_and_peoples_games_are_not(make_app):
    app = make_app(RATE_LIMITS=True, LIMIT_BOTS_ALONE="2/minute")
    client = app.test_client()
    bots = {"variant": "sequence", "players": 2, "seats": [{"bot": "random"}] * 2}
    people = {"variant": "sequence", "players": 2, "seats": [{}, {"bot": "random"}]}
    answers = [client.post(API, json=bots) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]
    problem(answers[2], 429, "rate_limited")
    assert all(client.post(API, json=people).status_code == 201 for _ in range(3))
    other = client.post(API, json=bots, environ_base={"REMOTE_ADDR": "10.1.2.4"})
    assert other.status_code == 201, "another creator has its own budget"


# 8. Slow clients are cut off and cost the server nothing meanwhile.


def test_8_slow_clients_time_out_and_do_not_stop_the_server():
    server = ServerProcess({"REDIS_URL": "", "STACKS_READ_TIMEOUT_S": "1"})
    try:
        slow = []
        for _ in range(40):
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.sendall(b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         b"application/json\r\nContent-Length: 100\r\n\r\n{")  # fmt: skip
            slow.append(sock)
        # Served while 40 clients stall; a server they blocked would hit the timeouts
        # (generous, so a loaded machine does not fail it).
        assert requests.get(f"{server.url}/api/v1/health", timeout=5).status_code == 200
        slow[0].settimeout(5)
        answer = slow[0].recv(4096)  # the server cuts it off after its 1 s read timeout
        assert answer == b"" or b" 408 " in answer.split(b"\r\n")[0]
        for sock in slow:
            sock.close()
    finally:
        server.stop()


# 9. Bounded events, an expiring lobby, honest health, clean stream ends, JSON refusals.


def test_9_skip_markers_past_the_deck_are_refused(client):
    position = {"piles": [[], [], [], []], "hands": [["B1"], ["R1"], ["R2"]], "turn": 0,
                "skips": [1000, 0, 0]}  # fmt: skip
    problem(client.post(API, json={"variant": "stacks", "players": 3, "position": position}),
            422, "validation_error")  # fmt: skip


def test_9_lobby_entries_expire_with_their_games(store_url, prefix, monkeypatch, make_app):
    monkeypatch.setitem(store_module.TTL_SECONDS, "waiting", 1)
    app = make_app(REDIS_URL=store_url, STORE_PREFIX=prefix)
    client = app.test_client()
    for _ in range(3):
        create(client, variant="sequence", players=2)
    assert client.get(f"{API}?page_size=1").json["total"] == 3
    time.sleep(2.1)
    listing = client.get(f"{API}?page_size=1").json  # entries past the page expire too
    assert listing["total"] == 0 and listing["games"] == []


@pytest.fixture
def own_redis():
    server = RedisServer()
    server.start()
    yield server
    server.cleanup()


def test_9_health_is_degraded_while_redis_refuses_writes(own_redis, make_app):
    client = make_app(REDIS_URL=own_redis.url).test_client()
    assert client.get("/api/v1/health").status_code == 200
    admin = redis.Redis.from_url(own_redis.url)
    admin.config_set("maxmemory", "1")
    try:
        for refused in (client.get("/api/v1/health"),
                        client.post(API, json={"variant": "sequence", "players": 2})):  # fmt: skip
            body = problem(refused, 503, "degraded")
            assert "refuses writes" in body["detail"]
            assert int(refused.headers["Retry-After"]) >= 1
    finally:
        admin.config_set("maxmemory", "0")
    assert client.get("/api/v1/health").status_code == 200


def test_9_a_stream_ends_cleanly_when_redis_goes_away(own_redis, make_app, caplog):
    client = make_app(REDIS_URL=own_redis.url, STORE_TIMEOUT_S=1).test_client()
    game_id, _ = two_humans(client)
    response = client.get(f"{API}/{game_id}/events", headers={"Accept": "text/event-stream"},
                          buffered=False)  # fmt: skip
    chunks = iter(response.response)
    assert b"created" in next(chunks) + next(chunks)
    own_redis.stop(kill=True)
    start = time.monotonic()
    rest = list(chunks)  # the stream must end by itself, without an exception
    assert time.monotonic() - start < 5
    assert all(b"data:" not in chunk for chunk in rest)
    assert not [r for r in caplog.records if r.exc_info], "no traceback is logged"


def test_9_gunicorn_refusals_are_problem_details():
    server = ServerProcess({"REDIS_URL": ""})
    try:
        answer = requests.get(f"{server.url}/api/v1/games/{'x' * 9000}", timeout=5)
        assert answer.status_code == 414
        assert answer.headers["Content-Type"] == "application/problem+json"
        assert answer.json()["code"] == "uri_too_long"
        header = requests.get(f"{server.url}/api/v1/health", headers={"X-Big": "y" * 9000},
                              timeout=5)  # fmt: skip
        assert header.status_code in (400, 431) and header.json()["status"] == header.status_code
    finally:
        server.stop()


# 10. A Stacks turn holds at most 100 plays (docs/rules.md).


def test_10_after_a_hundred_plays_only_a_discard_is_offered(client):
    position = {"piles": [[], [], [], []], "hands": [["B1", "R3"], ["R1"]], "turn": 0,
                "plays": 100}  # fmt: skip
    game = create(client, variant="stacks", players=2, position=position)["game"]
    token = join(client, game["id"], "A")["token"]
    join(client, game["id"], "B")
    mine = view(client, game["id"], token)
    assert {a["type"] for a in mine["you"]["legal_actions"]} == {"discard"}
    problem(act(client, game["id"], token, {"type": "play", "card": "B1", "pile": 0}), 409,
            "illegal_action")  # fmt: skip
    assert json.dumps(mine).count('"plays": 100') == 1


# 11. Names are shown to everyone: no control characters, no text direction tricks.


@pytest.mark.parametrize(
    "name", ["Ada\x00", "\x1b[31mAda", "Ada\nBo", "\u202eadA", "Ada\u2066", "   ", "A\u2029B"]
)
def test_11_names_with_control_or_bidi_characters_are_refused(client, name):
    game_id = client.post(API, json={"variant": "sequence", "players": 2}).json["game"]["id"]
    body = problem(client.post(f"{API}/{game_id}/players", json={"name": name}), 422,
                   "validation_error")  # fmt: skip
    assert "name" in body["errors"]
    assert "control" in str(body["errors"]["name"]) or "visible" in str(body["errors"]["name"])


@pytest.mark.parametrize("name", ["Zoë", "李雷", "Ana-María O'Neil", "👩‍💻 Bo", "عائشة"])
def test_11_names_in_any_script_and_emoji_are_taken(client, name):
    game_id = client.post(API, json={"variant": "sequence", "players": 2}).json["game"]["id"]
    joined = client.post(f"{API}/{game_id}/players", json={"name": name})
    assert joined.status_code == 201
    assert client.get(f"{API}/{game_id}").json["players"][0]["name"] == name


def test_7_lobby_reads_are_limited_per_address_and_pages_are_capped(client, make_app):
    app = make_app(RATE_LIMITS=True, LIMIT_LIST="2/second")
    limited = app.test_client()
    answers = [limited.get(API) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert int(answers[2].headers["Retry-After"]) >= 1
    problem(client.get(f"{API}?page_size=51"), 422, "validation_error")

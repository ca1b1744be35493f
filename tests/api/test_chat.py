"""Table chat over HTTP: who reads what while the game is on and after it, the limits,
what a line may hold, and that chat never makes a player's move stale."""

from __future__ import annotations

import time
from typing import Any

from . import test_archive
from .helpers import API, act, bearer, create, join, problem, view
from .test_archive import new_player

app, client = test_archive.app, test_archive.client


def say(client: Any, game_id: str, token: str, text: str, status: int = 201) -> Any:
    response = client.post(f"{API}/{game_id}/chat", json={"text": text}, headers=bearer(token))
    assert response.status_code == status, response.json
    return response


def texts(client: Any, game_id: str, token: str | None = None) -> list[str]:
    headers = {} if token is None else bearer(token)
    answer = client.get(f"{API}/{game_id}/chat", headers=headers).json
    return [m["text"] for m in answer["messages"]]


def two_people(client: Any) -> tuple[str, list[str]]:
    game_id = create(client, variant="sequence", players=2)["game"]["id"]
    return game_id, [join(client, game_id, name)["token"] for name in ("Ada", "Bo")]


def test_players_talk_at_one_table_and_spectators_apart_until_the_end(client):
    game_id, tokens = two_people(client)
    _, watcher_key = new_player(client, "Cy")
    line = say(client, game_id, tokens[0], "  Good luck!  ").json
    assert line["text"] == "Good luck!" and line["seat"] == 0 and line["name"] == "Ada"
    assert line["type"] == "chat" and "spectator" not in line
    aside = say(client, game_id, watcher_key, "Ada will win this").json
    assert aside["name"] == "Cy" and "seat" not in aside
    say(client, game_id, tokens[1], "<b>you too</b>")  # kept as typed: the client escapes
    both = ["Good luck!", "Ada will win this", "<b>you too</b>"]
    assert texts(client, game_id, tokens[1]) == ["Good luck!", "<b>you too</b>"]
    assert texts(client, game_id) == texts(client, game_id, watcher_key) == both
    played = client.get(f"{API}/{game_id}/events").json["events"]
    assert [e["text"] for e in played if e["type"] == "chat"] == ["Good luck!", "<b>you too</b>"]
    watched = client.get(f"{API}/{game_id}/events?watch=true").json["events"]
    assert [e["text"] for e in watched if e["type"] == "chat"] == both

    client.post(f"{API}/{game_id}/resign", headers=bearer(tokens[1]))
    assert texts(client, game_id, tokens[1]) == both  # the game is over: all of it
    record = client.get(f"{API}/{game_id}/record").json
    assert [e["text"] for e in record["events"] if e["type"] == "chat"] == both
    say(client, game_id, tokens[0], "gg", status=409)


def test_a_line_of_chat_does_not_make_a_move_stale(client):
    game_id, tokens = two_people(client)
    first = view(client, game_id, tokens[0])["to_move"][0]
    seen = view(client, game_id, tokens[first])
    say(client, game_id, tokens[1 - first], "hurry up")
    answer = act(client, game_id, tokens[first], seen["you"]["legal_actions"][0],
                 **{"If-Match": f'"{seen["version"]}"'})  # fmt: skip
    assert answer.status_code == 200, answer.json
    # A move since the version the other player names: that one is stale.
    other = view(client, game_id, tokens[1 - first])
    stale = act(client, game_id, tokens[1 - first], other["you"]["legal_actions"][0],
                **{"If-Match": f'"{seen["version"]}"'})  # fmt: skip
    problem(stale, 412, "stale_version")


def test_each_sender_has_a_limit_and_a_line_a_length(client):
    game_id, tokens = two_people(client)
    for n in range(5):
        say(client, game_id, tokens[0], f"line {n}")
    refused = problem(say(client, game_id, tokens[0], "one more", status=429), 429, "rate_limited")
    assert "5 lines" in refused["detail"]
    wait = client.post(f"{API}/{game_id}/chat", json={"text": "again"}, headers=bearer(tokens[0]))
    assert 1 <= int(wait.headers["Retry-After"]) <= 10
    say(client, game_id, tokens[1], "my own limit")  # another sender is not held back
    for text in ("", "   ", "x" * 301, "bell\x07", "zero\u200bwidth"):
        problem(say(client, game_id, tokens[1], text, status=422), 422, "validation_error")
    say(client, game_id, tokens[1], "x" * 300)
    problem(client.post(f"{API}/{game_id}/chat", json={"text": "hi"}), 401, "unauthorized")
    problem(say(client, game_id, "stranger", "hi", status=401), 401, "unauthorized")
    problem(say(client, "nothing", tokens[0], "hi", status=404), 404, "not_found")


def test_spectators_are_counted_and_shown(app, client):
    game_id, tokens = two_people(client)
    games = app.extensions["stacks_api.games"]
    chat = client.get(f"{API}/{game_id}/chat", headers=bearer(tokens[0])).json
    assert chat["spectators"] == 0
    games.play.watching(game_id, "one", time.time() + 30)
    games.play.watching(game_id, "two", time.time() + 30)
    games.play.watching(game_id, "gone", time.time() - 1)  # ran out without a refresh
    assert client.get(f"{API}/{game_id}/chat").json["spectators"] == 2
    games.play.watching(game_id, "one", None)
    assert client.get(f"{API}/{game_id}/chat").json["spectators"] == 1


def test_a_watching_stream_counts_while_it_is_open(app, client):
    game_id, _ = two_people(client)
    response = client.get(f"{API}/{game_id}/events?watch=true",
                          headers={"Accept": "text/event-stream"}, buffered=False)  # fmt: skip
    stream = iter(response.response)
    next(stream)  # the stream has begun: it is counted
    assert client.get(f"{API}/{game_id}/chat").json["spectators"] == 1
    response.close()
    assert client.get(f"{API}/{game_id}/chat").json["spectators"] == 0


def test_a_game_holds_so_many_lines_of_each_audience(client, monkeypatch):
    from stacks_api.service import chat

    monkeypatch.setattr(chat, "MOST_LINES", 3)
    monkeypatch.setattr(chat, "PER_WINDOW", 100)
    game_id, tokens = two_people(client)
    _, watcher_key = new_player(client, "Cy")
    for n in range(3):
        say(client, game_id, tokens[n % 2], f"line {n}")
    full = say(client, game_id, tokens[0], "one more", status=409).json
    assert full["code"] == "chat_full" and "players" in full["detail"]
    for n in range(3):  # the spectators' count is their own
        say(client, game_id, watcher_key, f"aside {n}")
    assert say(client, game_id, watcher_key, "and more", status=409).json["code"] == "chat_full"
    assert texts(client, game_id, tokens[1]) == ["line 0", "line 1", "line 2"]
    assert view(client, game_id)["status"] == "active"

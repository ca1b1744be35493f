"""No cache can hand one seat's view to anyone else (docs/api.md, caching)."""

import re

import pytest

from .helpers import API, act, bearer, create, join, problem


@pytest.fixture
def table(client):
    """A two-person Sequence game: (game id, the two seat tokens)."""
    game_id = create(client, variant="sequence", players=2, seed=3)["game"]["id"]
    tokens = [join(client, game_id, name)["token"] for name in ("Ada", "Bo")]
    return game_id, tokens


def tagged(etag: str, version: int, seat: int | None = None) -> bool:
    """Whether ``etag`` is the tag of a view of ``version`` (a seat's, or a spectator's),
    with or without the digest of what it shows of its people."""
    own = f"{version}" if seat is None else f"{version}-s{seat}"
    return re.fullmatch(rf'"{own}(-p[0-9a-f]{{8}})?"', etag) is not None


def vary(response) -> set[str]:
    return {v.strip() for line in response.headers.getlist("Vary") for v in line.split(",")}


def test_a_seat_view_is_private_and_tagged_with_its_seat(client, table):
    game_id, tokens = table
    spectator = client.get(f"{API}/{game_id}")
    seats = [client.get(f"{API}/{game_id}", headers=bearer(t)) for t in tokens]
    version = spectator.json["version"]
    assert tagged(spectator.headers["ETag"], version)
    assert [tagged(s.headers["ETag"], version, n) for n, s in enumerate(seats)] == [True, True]
    for seat in seats:
        assert seat.headers["Cache-Control"] == "private, no-cache"
        assert "Authorization" in vary(seat)
    assert "private" not in spectator.headers["Cache-Control"]
    assert "Authorization" in vary(spectator), "the same URL answers by Authorization"


def test_if_none_match_only_ever_matches_the_callers_own_view(client, table):
    game_id, tokens = table
    for token in tokens:  # both people seen: what the views show of them holds a while
        client.get(f"{API}/{game_id}", headers=bearer(token))
    spectator_tag = client.get(f"{API}/{game_id}").headers["ETag"]
    seat_tags = [client.get(f"{API}/{game_id}", headers=bearer(t)).headers["ETag"] for t in tokens]
    # Every other view's tag gets the whole view, with its own tag.
    for asking, tag in (
        (tokens[0], spectator_tag),
        (tokens[0], seat_tags[1]),
        (None, seat_tags[0]),
    ):
        headers = {"If-None-Match": tag, **(bearer(asking) if asking else {})}
        answer = client.get(f"{API}/{game_id}", headers=headers)
        assert answer.status_code == 200 and answer.headers["ETag"] != tag
        assert ("you" in answer.json) == (asking is not None)
    # The caller's own tag, and only it, is a 304 with the same headers.
    mine = client.get(
        f"{API}/{game_id}", headers={"If-None-Match": seat_tags[1], **bearer(tokens[1])}
    )
    assert mine.status_code == 304 and mine.data == b""
    assert mine.headers["Cache-Control"] == "private, no-cache" and "Authorization" in vary(mine)
    assert (
        client.get(f"{API}/{game_id}", headers={"If-None-Match": spectator_tag}).status_code == 304
    )


def test_an_actions_answer_is_private_to_the_seat(client, table):
    game_id, tokens = table
    mover = client.get(f"{API}/{game_id}").json["to_move"][0]
    legal = client.get(f"{API}/{game_id}", headers=bearer(tokens[mover])).json["you"]
    answer = act(client, game_id, tokens[mover], legal["legal_actions"][0])
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "private, no-cache"
    assert tagged(answer.headers["ETag"], answer.json["game"]["version"], mover)
    assert "Authorization" in vary(answer)


def test_answers_that_carry_a_token_are_never_stored(client):
    created = client.post(API, json={"variant": "sequence", "players": 2})
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"
    joined = client.post(f"{API}/{created.json['game']['id']}/players", json={"name": "Ada"})
    assert joined.status_code == 201 and joined.headers["Cache-Control"] == "no-store"


def test_refusals_are_never_stored(client, table):
    game_id, _ = table
    refused = client.get(f"{API}/{game_id}", headers=bearer("not-a-token"))
    problem(refused, 401, "unauthorized")
    assert refused.headers["Cache-Control"] == "no-store"
    assert client.get(f"{API}/nope").headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("tag", ['"12-s"', '"12-x1"', '"12-s123"', "12-s1-s1", '"-s1"'])
def test_malformed_view_tags_are_a_400(client, table, tag):
    game_id, _ = table
    problem(client.get(f"{API}/{game_id}", headers={"If-None-Match": tag}), 400, "bad_request")


def test_a_view_asked_again_is_the_same_until_the_game_changes(client, table):
    game_id, tokens = table
    first, again = (client.get(f"{API}/{game_id}", headers=bearer(tokens[0])) for _ in range(2))
    assert first.data == again.data and first.headers["ETag"] == again.headers["ETag"]
    mover = first.json["to_move"][0]
    mine = client.get(f"{API}/{game_id}", headers=bearer(tokens[mover])).json
    act(client, game_id, tokens[mover], mine["you"]["legal_actions"][0])
    after = client.get(f"{API}/{game_id}", headers=bearer(tokens[0]))
    assert after.json["version"] == first.json["version"] + 1
    assert tagged(after.headers["ETag"], after.json["version"], 0)


def test_each_token_and_the_spectators_get_their_own_view_of_one_state(client, table):
    game_id, tokens = table
    for _ in range(2):  # the second time round, every view may come from what was sent
        seats = [client.get(f"{API}/{game_id}", headers=bearer(t)).json for t in tokens]
        spectator = client.get(f"{API}/{game_id}").json
        assert [s["you"]["seat"] for s in seats] == [0, 1]
        assert seats[0]["you"]["hand"] != seats[1]["you"]["hand"]
        assert "you" not in spectator
        problem(client.get(f"{API}/{game_id}", headers=bearer("x" * 64)), 401, "unauthorized")

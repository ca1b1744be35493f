"""Duplicate challenges over HTTP: two people, each against the same bot on the same
deal from the same seat, each game closed to all but its own player until both
have ended, and the match decided by the better result."""

from __future__ import annotations

from typing import Any

import pytest

from stacks_api.commands import verify_rounds
from stacks_api.commands.verify import verify_record
from stacks_api.model.challenges import Answer, match_games
from stacks_api.model.fairness import game_seed
from stacks_api.service import challenges as challenge_rules
from stacks_api.service import duplicate_games

from . import test_archive
from .helpers import API, act, bearer, problem, view
from .test_archive import new_player
from .test_challenges import ROOT, answer, challenge

app, client = test_archive.app, test_archive.client


def board(seen: dict[str, Any]) -> Any:
    """What of a seat's view the deal and the play decide (not who sits there)."""
    return {k: v for k, v in seen.items() if k not in ("id", "players", "version", "deadline")}


def my_turn(client: Any, game_id: str, key: str) -> dict[str, Any]:
    """The seat's view once the bot has moved (it moves in the background)."""
    return view(client, game_id, key, wait=10)


def test_two_people_play_one_deal_against_one_bot_and_the_better_result_wins(
    app, client, monkeypatch
):
    _, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    made = challenge(client, ada_key, bo, deals="duplicate", bot="random", entropy="ab")
    sent = made["challenge"]
    assert sent["deals"] == "duplicate" and sent["bot"] == "random"
    assert sent["turn_seconds"] == 60, "never unclocked: an abandoned game ends by itself"
    accepted = answer(client, bo_key, sent["id"], "accept", 201, entropy="cd")
    assert accepted["seat"] == 0
    games = [accepted["challenge"]["game_id"], accepted["game"]["id"]]
    assert len(set(games)) == 2
    match = client.get(f"{ROOT}/matches/{sent['id']}").json
    assert match["status"] == "playing" and [g["game_id"] for g in match["games"]] == games
    assert all(g["score"] is None for g in match["games"])

    # The same moves bring the same answers from the bot: one deal, one bot.
    keys = [ada_key, bo_key]
    for _ in range(6):
        seen = [my_turn(client, g, k) for g, k in zip(games, keys, strict=True)]
        assert board(seen[0]) == board(seen[1])
        assert seen[0]["you"]["seat"] == seen[1]["you"]["seat"] == 0
        if seen[0]["status"] != "active":
            break
        for game_id, key, mine in zip(games, keys, seen, strict=True):
            act(client, game_id, key, mine["you"]["legal_actions"][0])

    # Its result is the match's: never aborted nor cancelled, and played without hints.
    problem(client.post(f"{API}/{games[0]}/abort", headers=bearer(ada_key)), 403, "forbidden")
    problem(client.delete(f"{API}/{games[0]}", headers=bearer(ada_key)), 403, "forbidden")
    problem(client.get(f"{API}/{games[0]}/hint", headers=bearer(ada_key)), 403, "hints_off")

    for game_id in games:  # closed to the other player and to everyone else
        problem(client.get(f"{API}/{game_id}"), 403, "duplicate_closed")
    problem(client.get(f"{API}/{games[1]}/record", headers=bearer(ada_key)), 403,
            "duplicate_closed")  # fmt: skip

    # Ada resigns first; her game stays closed while Bo's goes on, then Bo resigns later.
    assert client.post(f"{API}/{games[0]}/resign", headers=bearer(ada_key)).status_code == 200
    problem(client.get(f"{API}/{games[0]}/events", headers=bearer(bo_key)), 403,
            "duplicate_closed")  # fmt: skip
    assert client.get(f"{ROOT}/matches/{sent['id']}").json["status"] == "playing"
    mine = my_turn(client, games[1], bo_key)
    act(client, games[1], bo_key, mine["you"]["legal_actions"][0])
    my_turn(client, games[1], bo_key)
    assert client.post(f"{API}/{games[1]}/resign", headers=bearer(bo_key)).status_code == 200

    match = client.get(f"{ROOT}/matches/{sent['id']}").json
    assert match["status"] == "over" and [g["score"] for g in match["games"]] == [0.0, 0.0]
    turns = [g["turns"] for g in match["games"]]
    assert turns[1] > turns[0], "Bo lost later"
    assert match["winner"] == bo and not match["draw"], "a loss in more turns does better"
    for game_id in games:
        record = client.get(f"{API}/{game_id}/record").json
        assert verify_record(record).ok
        assert record["duplicate"] == {"match": sent["id"], "games": games}
    records = [client.get(f"{API}/{g}/record").json for g in games]
    assert records[0]["fairness"] == records[1]["fairness"]
    assert records[0]["fairness"]["commitment"] == sent["commitment"] == match["commitment"]

    # stacks-api verify URL --match ID, served by this app: both dealt alike; a record
    # whose entropy was changed is caught.
    monkeypatch.setattr(
        verify_rounds, "fetch_json", lambda url, path, timeout: client.get(f"{ROOT}/{path}").json
    )
    served = dict(zip(games, records, strict=True))
    monkeypatch.setattr(verify_rounds, "fetch_record",
                        lambda url, game_id, timeout: served[game_id])  # fmt: skip
    assert verify_rounds.verify_match("http://server", sent["id"]).ok
    forged = {**records[1], "fairness": {**records[1]["fairness"], "entropy": ["ab", "ab"]}}
    served[games[1]] = forged
    assert not verify_rounds.verify_match("http://server", sent["id"]).ok


def test_a_duplicate_challenge_refuses_what_it_cannot_be(client):
    _, ada_key = new_player(client, "Ada")
    bo, _ = new_player(client, "Bo")
    for body in ({"bot": "nobody"}, {"bot": "random", "players": 3},
                 {"bot": "random", "rated": True, "entropy": "ab"}, {}):  # fmt: skip
        challenge(client, ada_key, bo, 422, deals="duplicate", **body)
    challenge(client, ada_key, bo, 422, bot="random")  # a bot without duplicate deals
    problem(client.get(f"{ROOT}/matches/nope"), 404, "not_found")


@pytest.mark.parametrize("within_s", [3600.0, 0.0])
def test_a_process_that_dies_after_the_acceptance_leaves_neither_game_lost(
    app, client, monkeypatch, within_s
):
    ada, ada_key = new_player(client, "Ada")
    bo, _ = new_player(client, "Bo")
    sent = challenge(client, ada_key, bo, deals="duplicate", bot="random")["challenge"]
    games = app.extensions["stacks_api.games"]
    ids = match_games(sent["id"])
    # The acceptance was settled, and its process died before making either game.
    games.store.challenges.settle(sent["id"], "accepted", Answer(
        answered_at=games.table.clock(), game_id=ids[0], challenged_token="0" * 64,
    ))  # fmt: skip
    monkeypatch.setattr(challenge_rules, "RECOVER_AFTER_S", 0.0)
    monkeypatch.setattr(challenge_rules, "RECOVER_WITHIN_S", within_s)
    client.get(f"{ROOT}/challenges/{sent['id']}", headers=bearer(ada_key))
    made = [games.store.load(game_id) for game_id in ids]
    if not within_s:  # too long after the answer: a game gone from the live store
        assert made == [None, None]  # (archived, perhaps) is never made again
        return
    first, second = made
    assert first is not None and second is not None, "both games made"
    assert [first.seats[0].player_id, second.seats[0].player_id] == [ada, bo]
    assert first.fairness == second.fairness, "one deal"


class Died(Exception):
    """The accepting process, dying between the match's two games."""


def test_a_process_that_dies_between_the_two_games_leaves_the_second_one_made_later(
    app, client, monkeypatch
):
    _, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    sent = challenge(client, ada_key, bo, deals="duplicate", bot="random")["challenge"]
    games = app.extensions["stacks_api.games"]
    create = games.table.create

    def dies_before_the_second(record, events):  # type: ignore[no-untyped-def]
        if record.id == match_games(sent["id"])[1]:
            raise Died
        return create(record, events)

    monkeypatch.setattr(games.table, "create", dies_before_the_second)
    try:
        died = client.post(f"{ROOT}/challenges/{sent['id']}/accept", json={},
                           headers=bearer(bo_key)).status_code  # fmt: skip
    except Died:
        died = 500
    assert died == 500
    first, second = (games.store.load(game_id) for game_id in match_games(sent["id"]))
    assert first is not None and second is None
    monkeypatch.setattr(games.table, "create", create)  # a later process reads it
    monkeypatch.setattr(challenge_rules, "RECOVER_AFTER_S", 0.0)
    client.get(f"{ROOT}/challenges/{sent['id']}", headers=bearer(ada_key))
    second = games.store.load(match_games(sent["id"])[1])
    assert second is not None and second.seats[0].player_id == bo
    assert second.fairness == first.fairness, "the same deal as the first"


def everything_a_seat_reads(client: Any, game_id: str, key: str, match_id: str) -> str:
    """All that a seat's key is answered about its own board and the match: the view,
    the events (a list and a stream), the record, the replay, the analysis, the
    ratings, the chat, the match and the player's history, as text."""
    me = client.get(f"{ROOT}/players/me", headers=bearer(key)).json["id"]
    stream = {**bearer(key), "Accept": "text/event-stream"}
    answers = [client.get(f"{API}/{game_id}{path}", headers=bearer(key))
               for path in ("", "/events", "/record", "/replay/1", "/analysis", "/ratings",
                            "/chat")]  # fmt: skip
    answers += [client.get(f"{API}/{game_id}/events", headers=stream),
                client.get(f"{ROOT}/matches/{match_id}", headers=bearer(key)),
                client.get(f"{ROOT}/players/{me}/games", headers=bearer(key))]  # fmt: skip
    assert all(a.status_code < 500 for a in answers)
    return "\n".join(a.get_data(as_text=True) for a in answers)


def test_a_board_ended_at_move_1_tells_its_seat_nothing_of_the_deal_while_the_other_plays(
    app, client
):
    """Resigning at once and reading everything one's own seat may read must not give
    the seed (nor the entropy, nor what they derive) that deals the other board."""
    _, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    sent = challenge(client, ada_key, bo, deals="duplicate", bot="random", entropy="ab")
    match_id = sent["challenge"]["id"]
    accepted = answer(client, bo_key, match_id, "accept", 201, entropy="cd")
    games = [accepted["challenge"]["game_id"], accepted["game"]["id"]]
    resigned = client.post(f"{API}/{games[0]}/resign", headers=bearer(ada_key))
    assert resigned.status_code == 200
    seen = resigned.get_data(as_text=True) + everything_a_seat_reads(
        client, games[0], ada_key, match_id
    )
    match = client.get(f"{ROOT}/matches/{match_id}").json
    assert [g["status"] for g in match["games"]] == ["active", "active"], (
        "nobody learns that one board is over before the other"
    )
    problem(client.get(f"{API}/{games[0]}/ratings"), 403, "duplicate_closed")

    mine = my_turn(client, games[1], bo_key)  # Bo's board plays on, then ends
    act(client, games[1], bo_key, mine["you"]["legal_actions"][0])
    assert client.post(f"{API}/{games[1]}/resign", headers=bearer(bo_key)).status_code == 200
    fairness = client.get(f"{API}/{games[0]}/record").json["fairness"]
    derived = game_seed(fairness["server_seed"], fairness["entropy"], fairness["scheme"])
    secrets = [
        fairness["server_seed"],
        *fairness["entropy"],
        str(derived),
        str(duplicate_games._bot_seed(fairness["server_seed"])),
    ]
    leaked = [seen[max(0, seen.find(s) - 300) : seen.find(s) + 80] for s in secrets if s in seen]
    assert not leaked, "a secret reached the seat before its time"
    assert '"entropy"' not in seen and '"server_seed"' not in seen

    # Once the group is over, every ending is told with the secrets.
    for game_id in games:
        ending = client.get(f"{API}/{game_id}/events").json["events"][-1]
        assert ending["type"] == "resigned" and ending["server_seed"] == fairness["server_seed"]
        assert ending["entropy"] == fairness["entropy"]
        assert verify_record(client.get(f"{API}/{game_id}/record").json).ok
    assert [g["status"] for g in client.get(f"{ROOT}/matches/{match_id}").json["games"]] == [
        "finished",
        "finished",
    ]

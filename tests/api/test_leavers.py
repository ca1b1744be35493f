"""A person who left has lost: in the result, the record (which still verifies), the
account's history and the ratings' order, whatever the stand-in did on the board."""

from __future__ import annotations

import pytest

from stacks_api.commands.verify import VERIFIED, verify_record
from stacks_api.model.outcomes import with_leavers

from .helpers import API, act, bearer, create, join, view


def by_seat(seat: int) -> int:
    return seat


def by_team(seat: int) -> int:
    return seat % 2


@pytest.mark.parametrize(
    ("scores", "left", "side", "expected"),
    [
        ([1, 0], set(), by_seat, (1, 0)),
        ([1, 0], {0}, by_seat, (0, 1)),  # the leaver's stand-in won: the other side wins
        ([0, 1], {0}, by_seat, (0, 1)),
        ([0.5, 0.5], {1}, by_seat, (1, 0)),  # a draw, one side left: the other wins
        ([1, 0, 0], {0}, by_seat, (0, 0.5, 0.5)),  # three sides: those left share a draw
        ([0, 1, 0], {0}, by_seat, (0, 1, 0)),
        ([1, 0, 1, 0], {0}, by_team, (0, 0, 1, 0)),  # a teammate stayed: the team still won
        ([1, 0, 1, 0], {0, 2}, by_team, (0, 1, 0, 1)),
    ],
)
def test_a_person_who_left_scores_as_a_loser(scores, left, side, expected):
    assert with_leavers(scores, left, side) == expected


def test_a_leaver_loses_in_the_result_and_the_record_still_verifies(client):
    game_id = create(client, variant="sequence", players=2)["game"]["id"]
    tokens = [join(client, game_id, name)["token"] for name in ("Ada", "Bo")]
    for _ in range(4):  # a few moves each, then Bo goes
        for token in tokens:
            seen = view(client, game_id, token)
            if seen["you"]["legal_actions"]:
                assert (
                    act(client, game_id, token, seen["you"]["legal_actions"][0]).status_code == 200
                )
    assert client.post(f"{API}/{game_id}/leave", headers=bearer(tokens[1])).status_code == 200
    for _ in range(500):
        seen = view(client, game_id, tokens[0])
        if seen["status"] != "active":
            break
        act(client, game_id, tokens[0], seen["you"]["legal_actions"][0])
    final = client.get(f"{API}/{game_id}").json
    assert [p["score"] for p in final["players"]] == [1.0, 0.0]
    assert [p["left"] for p in final["players"]] == [False, True]
    # The result names who won by the scores: never the leaver's team, even when the
    # stand-in completed the sequences; the board's own account is kept beside it.
    teams = [p["team"] for p in final["players"]]
    assert final["result"]["winner_team"] == teams[0]
    if "board" in final["result"]:  # (the stand-in usually wins against first-legal play)
        assert final["result"]["board"] == {"winner_team": teams[1]}
    record = client.get(f"{API}/{game_id}/record").json
    assert record["format"]["version"] == 3 and record["result"]["scores"] == [1.0, 0.0]
    assert verify_record(record).outcome == VERIFIED
    forged = {**record, "result": {**record["result"], "scores": [0.0, 1.0]}}
    assert verify_record(forged).outcome != VERIFIED

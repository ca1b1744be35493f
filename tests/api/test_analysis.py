"""The analysis of a finished game: asked by a request, made by a worker, kept in
the archive; a known blunder is marked with the move that was better."""

from __future__ import annotations

import time
from typing import Any

from stacks_api.variants.sequence.board import LAYOUT

from . import test_archive
from .helpers import API, act, create, join, problem, view
from .test_archive import archived

# The archive's app and client: the embedded store with SQLite, Redis with PostgreSQL.
app, client = test_archive.app, test_archive.client

# Blue (seat 0, a person) holds four in a row on row 2 and the AH that completes it
# at F2; green (the bot) holds four on row 4 and the 3C that completes it at F4.
# One sequence wins.
BLUNDER = {
    "board": ["X........X", ".BBBB.....", "..........", ".GGGG.....", *[".........."] * 5,
              "X........X"],
    "hands": [["AH", "2D", "3D", "4D", "5D", "7D", "8D"],
              [LAYOUT[35], "2H", "3H", "4H", "5H", "6H", "7H"]],
    "turn": 0,
}  # fmt: skip


def analysis(client: Any, game_id: str) -> dict[str, Any]:
    """The analysis once a worker has made it (a bound on the wait, not a timing check)."""
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(f"{API}/{game_id}/analysis")
        if answer.status_code == 200:
            return dict(answer.json)
        assert answer.status_code == 202 and answer.headers["Retry-After"] == "2"
        assert time.monotonic() < deadline, "no worker analysed the game"
        time.sleep(0.1)


def test_a_blunder_is_marked_with_the_better_move(app, client):
    body = create(client, variant="sequence", players=2, position=BLUNDER,
                  options={"sequences_to_win": 1}, seats=[{}, {"bot": "medium"}])  # fmt: skip
    game_id = body["game"]["id"]
    problem(client.get(f"{API}/{game_id}/analysis"), 409, "game_not_active")
    token = join(client, game_id)["token"]
    blunder = {"type": "play", "card": "2D", "cell": [2, 2]}
    assert act(client, game_id, token, blunder).status_code == 200
    final = view(client, game_id, token)
    assert final["status"] == "finished" and final["result"] == {"winner_team": 1}
    archived(app, game_id)
    found = analysis(client, game_id)
    [move] = found["moves"]  # the person's only move
    assert move["seat"] == 0 and move["action"] == blunder and move["mistake"]
    assert move["best"] == {"type": "play", "card": "AH", "cell": [1, 5]}
    # From blue's own view green holds the winning card only in some deals: the
    # chance after the blunder is well below the sure win it passed up.
    assert move["win_before"] > 0.9 and move["win_after"] < move["win_before"] - 0.1
    luck = {s["seat"]: s for s in found["luck"]["seats"]}
    assert found["luck"]["cards"] == ["JC", "JD", "JH", "JS"]
    # Seven cards without a jack, then one drawn after the move (it may be one).
    assert luck[0]["received"] == 8 and luck[0]["lucky"] in (0, 1) and luck[0]["expected"] > 0
    assert client.get(f"{API}/{game_id}/analysis").json == found  # kept: answered again
    problem(client.get(f"{API}/nope/analysis"), 404, "not_found")

"""Challenges, one contract for every store (embedded, Redis, cluster)."""

from __future__ import annotations

import threading
import time

import pytest

from stacks_api.model.challenges import Answer, Challenge
from stacks_api.store import make_store

VARIANTS = ("sequence", "stacks")


@pytest.fixture
def board(store_url, prefix):
    return make_store(store_url, prefix, 2.0, VARIANTS).challenges


def challenge(challenge_id: str, sender: str = "ada", to: str = "bo") -> Challenge:
    now = time.time()
    return Challenge(
        id=challenge_id, challenger=sender, challenger_name=sender.title(), challenged=to,
        challenged_name=to.title(), variant="sequence", players=2, rated=True,
        turn_seconds=60, days=None, unlisted=False, server_seed="5e" * 16,
        commitment="c0" * 32, challenger_entropy="ab" * 8, challenger_token="0" * 64,
        created_at=now, expires_at=now + 600,
    )  # fmt: skip


def test_a_challenge_is_kept_whole_and_shows_no_secret(board):
    made = challenge("c1")
    assert board.add(made, 5) is None
    assert board.get("c1") == made and board.get("nope") is None
    assert board.of("ada") == [made] == board.of("bo") and board.of("cy") == []
    shown = made.shown()
    assert (shown["from"], shown["to"], shown["status"]) == ("ada", "bo", "pending")
    assert "server_seed" not in shown and "5e" * 16 not in str(shown)
    assert not any("token" in key or "entropy" in key for key in shown)


def test_one_pending_challenge_to_a_player_and_a_limit_of_pending_ones(board):
    assert board.add(challenge("c1"), 2) is None
    assert board.add(challenge("c2"), 2) == "pending"  # to Bo again
    assert board.add(challenge("c3", to="cy"), 2) is None
    assert board.add(challenge("c4", to="di"), 2) == "limit"
    assert board.add(challenge("c5", sender="bo", to="ada"), 2) is None  # Bo's own
    assert [c.id for c in board.of("ada")][::-1] == ["c1", "c3", "c5"]  # newest first


def test_a_challenge_is_settled_once_and_keeps_its_answer(board):
    board.add(challenge("c1"), 5)
    answer = Answer(answered_at=time.time(), game_id="g1", challenged_token="1" * 64,
                    challenged_entropy="cd" * 8)  # fmt: skip
    settled = board.settle("c1", "accepted", answer)
    assert (settled.status, settled.game_id) == ("accepted", "g1")
    assert settled.challenged_token == "1" * 64 and settled.challenged_entropy == "cd" * 8
    assert settled.server_seed == "5e" * 16 and settled.challenger == "ada"
    again = board.settle("c1", "declined", Answer(answered_at=time.time()))
    assert again == settled == board.get("c1")  # unchanged: no longer pending
    assert board.settle("nope", "declined", Answer()) is None


def test_racing_answers_settle_a_challenge_once(board):
    board.add(challenge("c1"), 5)
    won: list[str] = []

    def answer(game_id: str) -> None:
        settled = board.settle("c1", "accepted", Answer(answered_at=time.time(), game_id=game_id))
        if settled is not None and settled.game_id == game_id:
            won.append(game_id)

    threads = [threading.Thread(target=answer, args=(f"g{n}",)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1 and board.get("c1").game_id == won[0]

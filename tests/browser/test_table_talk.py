"""People who know each other, in two browsers: one challenges the other from the
leaderboard, they talk at the table with a one-tap phrase and a typed line (shown as
text), one resigns; the phone layout keeps the chat below the board."""

from __future__ import annotations

import sqlite3
import time

import pytest
import requests

from stacks_api.testing import ServerProcess

from .conftest import PHONE, shoot
from .test_ratings import account

API = "/api/v1"


@pytest.fixture
def archived_server(tmp_path):
    """A server whose archive is a file this test can also write to."""
    database = tmp_path / "archive.sqlite3"
    # Bo is put on the leaderboard by hand, with no rated games behind him.
    process = ServerProcess({"REDIS_URL": "", "DATABASE_URL": f"sqlite:///{database}",
                             "STACKS_LEADERBOARD_OPPONENTS": "0"})  # fmt: skip
    yield process, database
    process.stop()


def on_the_leaderboard(database, player_id: str) -> None:
    """Give the player an established rating (as a dozen rated games would)."""
    with sqlite3.connect(database) as connection:
        connection.execute(
            "INSERT INTO ratings (subject, variant, mu, sigma, games, last_at)"
            " VALUES (?, 'sequence', 1640.0, 120.0, 14, ?)",
            (player_id, time.time()),
        )


def play_moves(url: str, game_id: str, keys: list[str], turns: int) -> None:
    """Each key plays its seat's first legal action, ``turns`` times round."""
    for _ in range(turns):
        for key in keys:
            auth = {"Authorization": f"Bearer {key}"}
            view = requests.get(f"{url}{API}/games/{game_id}", headers=auth, timeout=10).json()
            if view["you"]["legal_actions"]:
                sent = requests.post(f"{url}{API}/games/{game_id}/actions",
                                     json=view["you"]["legal_actions"][0], headers=auth,
                                     timeout=10)  # fmt: skip
                assert sent.status_code == 200, sent.text


def chat_lines(page) -> list[str]:
    return page.eval_on_selector_all("[data-chat]", "items => items.map(i => i.textContent)")


def test_a_challenge_from_the_leaderboard_a_chat_and_a_resignation(archived_server, open_page):
    server, database = archived_server
    ada_page, bo_page = open_page(f"{server.url}/play"), open_page(f"{server.url}/play", PHONE)
    ada_key, bo_key = account(ada_page, "Ada"), account(bo_page, "Bo")
    auth = {"Authorization": f"Bearer {bo_key}"}
    bo = requests.get(f"{server.url}{API}/players/me", headers=auth, timeout=5).json()["id"]
    on_the_leaderboard(database, bo)

    ada_page.goto(f"{server.url}/play#leaderboard=sequence")
    ada_page.click(f"[data-challenge='{bo}']")
    ada_page.click("[data-challenge-send]")  # casual, 60 s a move: the form's defaults
    ada_page.wait_for_selector("[data-challenge-sent]")
    shoot(ada_page, "challenge-sent")
    bo_page.wait_for_selector("[data-accept]", timeout=15_000)
    assert "Ada challenges you to Sequence" in bo_page.text_content("[data-challenge-notice]")
    shoot(bo_page, "challenge-received-phone")
    bo_page.click("[data-accept]")
    bo_page.wait_for_selector(".hand [data-card]", timeout=15_000)
    ada_page.click("[data-open-challenge-game]", timeout=15_000)
    ada_page.wait_for_selector(".hand [data-card]", timeout=15_000)
    game_id = ada_page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    view = requests.get(f"{server.url}{API}/games/{game_id}", timeout=5).json()
    assert [p["name"] for p in view["players"]] == ["Ada", "Bo"]

    bo_page.click("[data-phrase='phrase_good_luck']")
    ada_page.fill("#chat-text", "<b>thanks</b> and you")
    ada_page.click("[data-say]")
    for page in (ada_page, bo_page):
        page.wait_for_function("document.querySelectorAll('[data-chat]').length === 2")
        lines = chat_lines(page)
        assert "Good luck!" in lines[0] and "<b>thanks</b> and you" in lines[1]
        assert page.locator("[data-chat-lines] b").count() == 0  # typed markup stays text
    # Measured in one go in the page: a redraw between two measures detaches the first.
    below = bo_page.evaluate("""() => document.querySelector('.chat').getBoundingClientRect().top
        >= document.querySelector('.board').getBoundingClientRect().bottom""")
    assert below, "on a phone the chat sits below the board"
    shoot(bo_page, "chat-phone")
    shoot(ada_page, "chat-desktop")

    # A report asks why before it is sent, then says it was.
    bo_page.click("[data-chat]:nth-child(2) [data-report-line]")
    bo_page.wait_for_selector("[data-report-form]")
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT COUNT(*) FROM reports").fetchone()[0] == 0
    bo_page.select_option("[data-report-why]", "abuse")
    bo_page.fill("[data-report-more]", "rude all game")
    shoot(bo_page, "report-form-phone")
    bo_page.click("[data-report-send]")
    bo_page.wait_for_selector("[data-reported]")
    assert bo_page.locator("[data-report-form]").count() == 0
    assert "Reported to the operators" in bo_page.text_content("body")
    with sqlite3.connect(database) as connection:
        reason, reported_game = connection.execute("SELECT reason, game_id FROM reports").fetchone()
    assert "abuse" in reason and "rude all game" in reason and reported_game == game_id

    assert ada_page.locator("[data-abort]").count() == 1  # the opening: abort, not resign
    play_moves(server.url, game_id, [ada_key, bo_key], 3)
    ada_page.wait_for_selector("[data-resign]", timeout=15_000)
    ada_page.click("[data-resign]")
    ada_page.click("[data-confirm]")
    ada_page.wait_for_selector(".gameover")
    assert "You resigned" in ada_page.text_content(".gameover h2")
    bo_page.wait_for_selector(".gameover", timeout=15_000)
    assert bo_page.text_content(".gameover h2") == "You won!"
    assert "Ada resigned." in bo_page.text_content(".gameover")
    shoot(bo_page, "resigned-phone")
    shoot(ada_page, "resigned-desktop")
    final = requests.get(f"{server.url}{API}/games/{game_id}", timeout=5).json()
    assert [p["score"] for p in final["players"]] == [0.0, 1.0]

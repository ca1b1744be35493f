"""A tournament in the browser: a player joins an arena from its page, the page opens
their game by itself, they play it by clicks, and come back to the standings."""

from __future__ import annotations

import time

import pytest
import requests

from stacks_api.testing import ServerProcess

from .conftest import DESKTOP, PHONE, choose_language, play_sequence_turn, shoot, status, wait_turn
from .test_ratings import account

API = "/api/v1"


@pytest.fixture
def archived_server(tmp_path):
    process = ServerProcess({"REDIS_URL": "", "DATABASE_URL": f"sqlite:///{tmp_path}/a.sqlite3"})
    yield process
    process.stop()


def test_an_arena_joined_from_its_page_opens_the_game_and_keeps_the_standings(
    archived_server, open_page
):
    url = archived_server.url
    page = open_page(f"{url}/play")
    key = account(page, "Ada")
    auth = {"Authorization": f"Bearer {key}"}
    made = requests.post(f"{url}{API}/tournaments", headers=auth, timeout=10, json={
        "name": "Friday arena", "variant": "sequence", "system": "arena", "minutes": 30,
        "starts_at": 0})  # fmt: skip
    assert made.status_code == 201, made.text
    arena = made.json()["id"]
    bots = requests.post(f"{url}{API}/tournaments/{arena}/players", headers=auth, timeout=10,
                         json={"bot": "random"})  # fmt: skip
    assert bots.status_code == 201, bots.text

    page.click("[data-tournaments-link]")
    page.wait_for_selector(f"[data-tournament='{arena}']")
    assert "Friday arena" in page.text_content("[data-tournaments]")
    shoot(page, "tournaments-list")
    page.click(f"[data-tournament='{arena}'] a")
    page.wait_for_selector("[data-join-tournament]")
    shoot(page, "tournament-before-join")
    page.click("[data-join-tournament]")
    page.wait_for_selector(".hand [data-card]", timeout=20_000)  # the game opened by itself
    game_id = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    view = requests.get(f"{url}{API}/games/{game_id}", timeout=10).json()
    assert view["tournament"] == {"id": arena, "round": 1}
    assert sorted(p["name"] for p in view["players"]) == ["Ada", "random bot 1"]
    for _ in range(200):
        if wait_turn(page) != "active":
            break
        play_sequence_turn(page)
    assert status(page) == "finished"
    page.wait_for_selector("[data-back-to-tournament]")
    assert page.locator("[data-rematch]").count() == 0, "no rematch outside the tournament"
    shoot(page, "tournament-game-over")
    page.click("[data-back-to-tournament]")
    played_one = ("[...document.querySelectorAll('[data-standing]')]"
                  ".some(r => r.lastChild.textContent === '1')")  # fmt: skip
    page.wait_for_function(played_one, timeout=20_000)
    final = requests.get(f"{url}{API}/tournaments/{arena}", timeout=10).json()
    mine = next(s for s in final["standings"] if s["name"] == "Ada")
    assert mine["games"] == 1 and mine["points"] in (0, 1, 2)
    shown = page.text_content(f"[data-standing='{mine['entry']}']")
    assert "Ada" in shown and f"{mine['points']:g}" in shown
    assert page.locator(f"[data-table='{game_id}']").count() == 1
    shoot(page, "tournament-standings")
    phone = open_page(f"{url}/play#tournament={arena}", PHONE)
    phone.wait_for_selector("[data-standings]")
    shoot(phone, "tournament-standings-phone")

    page.goto(f"{url}/play#tournaments=1")
    page.fill("#t-name", "Saturday swiss")
    page.select_option("#t-starts", "60")
    page.click("[data-create-tournament]")
    page.wait_for_selector("[data-tournament-status='upcoming']")
    assert page.text_content("h1") == "Saturday swiss"
    assert page.locator("[data-join-tournament]").count() == 1
    shoot(page, "tournament-made")
    assert not open_page.problems, open_page.problems


@pytest.mark.parametrize(("viewport", "language"), [(DESKTOP, "en"), (PHONE, "ro")],
                         ids=["desktop-en", "phone-ro"])  # fmt: skip
def test_a_tournament_game_says_so_offers_what_it_allows_and_opens_the_next_round(
    archived_server, open_page, viewport, language
):
    url = archived_server.url
    page = open_page(f"{url}/play", viewport)
    choose_language(page, language)
    key = account(page, "Ada")
    auth = {"Authorization": f"Bearer {key}"}
    made = requests.post(f"{url}{API}/tournaments", headers=auth, timeout=10, json={
        "name": "Two rounds", "variant": "sequence", "system": "swiss", "rounds": 2,
        "starts_at": time.time() + 3600})  # fmt: skip
    swiss = made.json()["id"]
    for body in ({}, {"bot": "random"}):
        entered = requests.post(f"{url}{API}/tournaments/{swiss}/players", headers=auth,
                                timeout=10, json=body)  # fmt: skip
        assert entered.status_code == 201, entered.text
    page.goto(f"{url}/play#tournament={swiss}")
    page.click("[data-start-tournament]")  # its creator starts it before its hour
    page.wait_for_selector(".hand [data-card]", timeout=20_000)
    first = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    page.wait_for_selector("[data-tournament-line] a:has-text('Two rounds')")
    assert {"en": "Round 1", "ro": "Runda 1"}[language] in page.text_content(
        "[data-tournament-line]"
    )
    for refused in ("[data-hint]", "[data-abort]", "[data-cancel]"):
        assert page.locator(refused).count() == 0, refused
    shoot(page, f"tournament-table-{language}-{viewport['width']}")
    page.click("[data-resign]")
    page.click("[data-confirm]")
    page.wait_for_selector("[data-next-round]", timeout=30_000)  # round 2, paired meanwhile
    shoot(page, f"tournament-next-round-{language}-{viewport['width']}")
    page.click("[data-next-round]")
    page.wait_for_selector(".hand [data-card]")
    assert page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')") != first
    page.wait_for_selector("[data-tournament-line]:has-text('2')")
    page.goto(f"{url}/play#tournament={swiss}")
    page.wait_for_selector("[data-standings]")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    shoot(page, f"tournament-standings-{language}-{viewport['width']}")
    assert not open_page.problems, open_page.problems

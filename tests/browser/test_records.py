"""Accounts, histories, replays and records in the web client (headless Chromium
against stacks-api serve)."""

from __future__ import annotations

import time

import pytest
import requests

from stacks_api.client import Client

from .conftest import DESKTOP, PHONE, shoot, status, version

API = "/api/v1"


def finished_bot_game(url: str, variant: str, players: int) -> str:
    """A game between random bots, played to its end by the server."""
    api = Client(url)
    game = api.create(variant, players, seats=[{"bot": "random"}] * players)
    deadline = time.monotonic() + 60
    while api.view(game["id"], wait=10)["status"] != "finished":
        assert time.monotonic() < deadline
    return game["id"]


def test_an_account_made_in_one_browser_shows_the_same_history_in_another(server, open_page):
    first = open_page(f"{server.url}/play")
    first.fill("#account-name", "Ada")
    first.click("[data-create-account]")
    first.wait_for_selector("[data-my-page]")
    # A game against a bot from the lobby's form: the seat joins with the key.
    first.click("form.create button[type=submit]")
    first.wait_for_selector("[data-cell='0,1']")
    game_id = first.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    key = first.evaluate("localStorage.getItem('stacks:key')")
    player = first.evaluate("JSON.parse(localStorage.getItem('stacks:player')).id")
    seen = requests.get(f"{server.url}{API}/games/{game_id}", timeout=5).json()
    assert seen["players"][0]["player_id"] == player
    shown = first.get_attribute("[data-commitment]", "data-commitment")
    assert shown == seen["fairness"]["commitment"]
    kept = first.evaluate(f"JSON.parse(localStorage.getItem('stacks:deals'))['{game_id}']")
    assert kept["commitment"] == shown and len(kept["entropy"]) == 32
    shoot(first, "account-game")

    second = open_page(f"{server.url}/play")
    second.fill("#account-key", key)
    second.click("[data-use-key]")
    second.wait_for_selector(f"[data-history-game='{game_id}']")
    assert "Ada" in second.text_content("[data-account]")
    shoot(second, "account-second-browser")
    second.click("[data-my-page]")
    second.wait_for_selector(f".player-page [data-history-game='{game_id}']")
    shoot(second, "account-player-page")
    # The key acts for the seat on the second device too: it sees the hand.
    second.click(f".player-page [data-history-game='{game_id}'] a")
    second.wait_for_selector(".hand [data-card]")
    assert not open_page.problems, open_page.problems


@pytest.mark.parametrize("variant, players", [("sequence", 2), ("stacks", 3)])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_replay_steps_to_the_end_and_back(server, open_page, variant, players, viewport):
    game_id = finished_bot_game(server.url, variant, players)
    record = requests.get(f"{server.url}{API}/games/{game_id}/record", timeout=5).json()
    versions = sorted({e["version"] for e in record["events"]})
    page = open_page(f"{server.url}/play#replay={game_id}", viewport)
    page.wait_for_selector(f"[data-replay-at='{len(versions) - 1}']")
    assert (status(page), version(page)) == ("replay", versions[-1])
    name = f"replay-{variant}-{'desktop' if viewport is DESKTOP else 'phone'}"
    shoot(page, f"{name}-end")
    final = requests.get(f"{server.url}{API}/games/{game_id}", timeout=5).json()
    if variant == "sequence":
        chips = sum(cell != "." for row in final["board"] for cell in row) - 4  # the corners
        assert page.locator("[data-chip]").count() >= chips > 0
    page.click("[data-step=first]")
    page.wait_for_selector("[data-replay-at='0']")
    assert version(page) == versions[0]
    for step in range(1, 6):  # forwards, move by move
        page.click("[data-step=forward]")
        page.wait_for_selector(f"[data-replay-at='{step}']")
        assert version(page) == versions[step]
    page.click("[data-step=back]")
    page.wait_for_selector("[data-replay-at='4']")
    page.keyboard.press("End")
    page.wait_for_selector(f"[data-replay-at='{len(versions) - 1}']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"[data-replay-at='{len(versions) - 2}']")
    shoot(page, f"{name}-one-before-the-end")
    assert page.get_attribute("[data-download]", "href") == f"{API}/games/{game_id}/record"
    assert not open_page.problems, open_page.problems


CANCELLED = "document.querySelector('[data-status]').textContent === 'cancelled'"


def test_the_host_cancels_a_waiting_game_and_people_agree_to_cancel_a_dealt_one(server, open_page):
    page = open_page(f"{server.url}/play")
    page.select_option("#seat-1", "")  # a second person, not a bot: the table waits
    page.click("form.create button[type=submit]")
    page.wait_for_selector("[data-invite='1']")
    page.click("[data-cancel]")
    page.click("[data-confirm]")
    page.wait_for_function(CANCELLED)
    # A dealt game: the person agrees, and (the only person) so cancels it.
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "random"}])
    me = api.join(game["id"], "Ada")
    page.goto(f"{server.url}/play#game={game['id']}&token={me.token}")
    page.wait_for_selector("[data-cancel]")
    page.click("[data-cancel]")
    shoot(page, "cancel-asked")
    page.click("[data-confirm]")
    page.wait_for_function(CANCELLED)
    assert api.view(game["id"])["cancel_agreed"] == [0]
    assert not open_page.problems, open_page.problems


def test_a_link_with_a_wrong_token_does_not_wipe_the_seat_kept_here(server, open_page):
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "random"}])
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}")
    page.wait_for_selector(".hand [data-card]")
    with page.expect_response(lambda answer: answer.status == 401):  # refused, then the reload
        page.goto(f"{server.url}/play#game={game['id']}&token=nope")
    page.reload()
    page.wait_for_selector(".hand [data-card]")  # the kept token still holds the seat
    kept = page.evaluate("JSON.parse(localStorage.getItem('stacks:my-games'))[0].token")
    assert kept == me.token
    # The crafted token's 401 was answered by falling back, and the reload cut off
    # what the page had in flight; nothing else failed.
    refused = [p for p in open_page.problems if "status of 401" in p]
    aborted = [p for p in open_page.problems if p.endswith("net::ERR_ABORTED")]
    assert refused and len(refused) + len(aborted) == len(open_page.problems), open_page.problems


def test_the_pages_forbid_framing_and_foreign_scripts_and_still_work(server, open_page):
    for path in ("/play", "/docs", "/play/app.js", "/docs/explorer.js"):
        answer = requests.get(f"{server.url}{path}", timeout=5)
        policy = answer.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
    docs = open_page(f"{server.url}/docs", enforce_csp=True)
    docs.wait_for_selector(".swagger-ui .info")  # the explorer runs under the policy
    assert "createGame" in docs.content() or docs.locator(".opblock").count() > 5
    shoot(docs, "docs-explorer")
    play = open_page(f"{server.url}/play", enforce_csp=True)
    play.wait_for_selector("form.create")
    play.click("form.create button[type=submit]")  # a game against a bot, under the policy
    play.wait_for_selector(".hand [data-card]")
    assert not open_page.problems, open_page.problems  # no policy violation reported


def test_a_table_made_for_friends_is_private_and_its_invite_works(server, open_page):
    page = open_page(f"{server.url}/play")
    page.select_option("#seat-1", "")  # a friend, not a bot
    assert not page.is_checked("#listed")  # private by default
    page.click("form.create button[type=submit]")
    page.wait_for_selector("[data-invite='1']")
    game_id = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    lobby = requests.get(f"{server.url}{API}/games?status=waiting&page_size=50", timeout=5)
    assert game_id not in {g["id"] for g in lobby.json()["games"]}
    friend = open_page(f"{server.url}/play#game={game_id}&seat=1")
    friend.fill("#join-name", "Bo")
    friend.click("form.create button[type=submit]")
    friend.wait_for_selector(".hand [data-card]")
    assert requests.get(f"{server.url}{API}/games/{game_id}", timeout=5).json()["unlisted"]
    assert not open_page.problems, open_page.problems

"""Whole paths two people take in their own browsers, each from the lobby or a link,
never from an API shortcut where the page offers a way; each at laptop size in
English and at phone size in Romanian (whose refusals must read in Romanian).

1. An invitation to a game of one day a move, taken by a signed-in person; the
   "your turn" list and the title follow; then a game without a clock, whose
   absent player is claimed the moment the claim opens.
2. A rated challenge with days from a player's page, accepted, played, resigned
   after the opening: the rating change is shown and explained.
3. A tournament in which a player never moves: told as a no-show, to both.
4. (The same journeys at phone size in Romanian.)
5. Notifications turned on, this browser shown as notified, turned off.
"""

from __future__ import annotations

import json
import re

import pytest
import requests

from ..api.pushservice import PushService
from .conftest import DESKTOP, PHONE, choose_language, play_sequence_turn, shoot, wait_turn
from .test_ratings import account

API = "/api/v1"
SIZES = [(DESKTOP, "en"), (PHONE, "ro")]
IDS = ["laptop-en", "phone-ro"]
# The words each journey looks for, in the two languages it is taken in.
WORDS = {
    "en": {"join_as": "You take the seat as", "no_show": "did not show up", "rules": "is a no-show",
           "you_no_show": "You did not make your first move in time",
           "pending": "waits for an answer already", "notified": "This browser is notified.",
           "not_notified": "This browser is not notified.", "claim_in": "you can claim the game in",
           "away": "away", "days": "1 day a move", "rating_why": "How far a rating"},
    "ro": {"join_as": "Ocupi locul ca", "no_show": "nu s-a prezentat", "rules": "nu s-a prezentat",
           "you_no_show": "Nu ți-ai făcut prima mutare la timp",
           "pending": "așteaptă deja un răspuns", "notified": "Acest browser primește notificări.",
           "not_notified": "Acest browser nu primește notificări.",
           "claim_in": "poți revendica jocul în", "away": "lipsește",
           "days": "1 zi pe mutare", "rating_why": "Cât se mișcă un rating"},
}  # fmt: skip


def person(open_page, url: str, name: str, viewport: dict, language: str):  # type: ignore[no-untyped-def]
    """A browser of its own, in ``language``, signed in as a new account ``name``."""
    page = open_page(f"{url}/play", viewport)
    choose_language(page, language)
    account(page, name)
    return page


def game_of(page) -> str:  # type: ignore[no-untyped-def]
    return str(page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')"))


def fits(page, viewport: dict) -> None:  # type: ignore[no-untyped-def]
    """Nothing on the page is wider than the screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def new_game_from_the_form(page, days: str | None = None) -> str:  # type: ignore[no-untyped-def]
    """Seat 1 a person, the rest of the form as it is; the new game's id."""
    page.goto(page.url.split("#")[0])
    page.wait_for_selector("form.create #seat-1")
    page.select_option("#seat-1", "")
    if days:
        page.select_option("#days", days)
    page.click("form.create button[type=submit]")
    page.wait_for_selector("[data-invite='1']")
    return game_of(page)


def take_the_invitation(page, ada, viewport, words) -> None:  # type: ignore[no-untyped-def]
    """Bo opens the invitation Ada's page offers (its link, as she would paste it)."""
    link = ada.input_value(".invite input")
    assert "seat=1" in link and "token" not in link
    page.goto(link)
    page.wait_for_selector("[data-join-as]")
    name = page.evaluate("JSON.parse(localStorage.getItem('stacks:player')).name")
    assert f"{words['join_as']} {name}" in page.text_content("[data-join-as]")
    fits(page, viewport)
    shoot(page, f"journey-invitation-{page.evaluate('document.documentElement.lang')}-"
                f"{viewport['width']}")  # fmt: skip
    page.click("[data-take-seat='1']")
    page.wait_for_selector(".table")


@pytest.mark.parametrize(("viewport", "language"), SIZES, ids=IDS)
def test_an_invitation_taken_signed_in_a_days_game_and_a_claim(
    people_server, open_page, viewport, language
):
    url, words, size = people_server.url, WORDS[language], f"{language}-{viewport['width']}"
    names = {"en": ("Ada", "Bo"), "ro": ("Ana", "Bogdan")}[language]
    ada = person(open_page, url, names[0], viewport, language)
    bo = person(open_page, url, names[1], viewport, language)

    # A game of one day a move: Ada makes it and copies the invitation; Bo, signed
    # in, opens it and takes the seat as his account (not as a guest).
    days_game = new_game_from_the_form(ada, days="1")
    shoot(ada, f"journey-invite-{size}")
    take_the_invitation(bo, ada, viewport, words)
    view = requests.get(f"{url}{API}/games/{days_game}", timeout=5).json()
    assert [p["name"] for p in view["players"]] == list(names)
    assert view["players"][1]["player_id"] is not None, "Bo's account holds the seat"
    assert view["pace"] == {"days": 1}
    pages = {0: ada, 1: bo}
    for page in pages.values():
        page.wait_for_selector(".hand [data-card]")
    # Each moves twice; whoever waits has the game in their "your turn" list and title.
    for _ in range(4):
        mover = requests.get(f"{url}{API}/games/{days_game}", timeout=5).json()["to_move"][0]
        page, other = pages[mover], pages[1 - mover]
        page.wait_for_selector(f"[data-turn-game='{days_game}']")
        assert page.title().startswith("(1) ")
        assert words["days"] in page.text_content(".turnline")
        assert "urgent" not in (page.get_attribute("[data-clock]", "class") or "")
        play_sequence_turn(page)
        other.wait_for_selector(f"[data-turn-game='{days_game}']")
    shoot(other, f"journey-days-turn-{size}")
    pill = other.text_content(f"[data-turn-game='{days_game}']")
    assert words["days"] in pill and any(name in pill for name in names)

    # A game without a clock: Bo closes his browser while it is his turn, and Ada
    # sees how long he has been away and, when the claim opens, claims the win.
    casual = new_game_from_the_form(ada)
    take_the_invitation(bo, ada, viewport, words)
    ada.wait_for_selector(".hand [data-card]")
    bo.wait_for_selector(".hand [data-card]")
    if requests.get(f"{url}{API}/games/{casual}", timeout=5).json()["to_move"] == [0]:
        play_sequence_turn(ada)
    bo.context.close()
    ada.wait_for_selector(f"[data-absent='1']:has-text('{words['away']}')", timeout=30_000)
    line = ada.text_content("[data-absent='1']")
    claim_opens = ada.locator("[data-claim-win]").count() == 0
    assert words["claim_in"] in line or not claim_opens, line
    shoot(ada, f"journey-absent-{size}")
    ada.wait_for_selector("[data-claim-win]", timeout=30_000)  # the page redraws by itself
    shoot(ada, f"journey-claimable-{size}")
    ada.click("[data-claim-win]")
    ada.click("[data-confirm]")
    ada.wait_for_selector(".gameover[data-mood='won']")
    final = requests.get(f"{url}{API}/games/{casual}", timeout=5).json()
    assert final["players"][1]["resigned"] and final["players"][0]["score"] == 1.0
    assert all(name in ada.text_content(".log") for name in names)
    fits(ada, viewport)
    assert not open_page.problems, open_page.problems


@pytest.mark.parametrize(("viewport", "language"), SIZES, ids=IDS)
def test_a_rated_challenge_with_days_played_and_its_rating_change_explained(
    people_server, open_page, viewport, language
):
    url, words, size = people_server.url, WORDS[language], f"{language}-{viewport['width']}"
    ada = person(open_page, url, f"Ada{language}", viewport, language)
    bo = person(open_page, url, f"Bo{language}", viewport, language)
    bo_id = bo.evaluate("JSON.parse(localStorage.getItem('stacks:player')).id")

    ada.goto(f"{url}/play#player={bo_id}")
    ada.click("[data-challenge-line] [data-challenge]")  # Sequence: the first offered
    ada.check("[data-challenge-rated]")
    ada.select_option("[data-challenge-pace]", "days:2")
    shoot(ada, f"journey-challenge-form-{size}")
    ada.click("[data-challenge-send]")
    ada.wait_for_selector("[data-challenge-sent]")
    # A second challenge to the same person is refused, in the page's language.
    ada.click("[data-challenge-line] [data-challenge]")
    ada.click("[data-challenge-send]")
    ada.wait_for_function(
        f"document.getElementById('message').textContent.includes({json.dumps(words['pending'])})"
    )
    bo.wait_for_selector("[data-accept]", timeout=15_000)
    notice = bo.text_content("[data-challenge-notice]")
    assert re.search(r"2 (days|zile)", notice), notice
    shoot(bo, f"journey-challenged-{size}")
    bo.click("[data-accept]")
    bo.wait_for_selector(".hand [data-card]", timeout=15_000)
    ada.click("[data-open-challenge-game]", timeout=15_000)
    ada.wait_for_selector(".hand [data-card]")
    game_id = game_of(ada)
    view = requests.get(f"{url}{API}/games/{game_id}", timeout=5).json()
    assert view["rated"] and view["pace"] == {"days": 2}
    ada.wait_for_selector("[data-stakes]")
    pages = {0: ada, 1: bo}
    for _ in range(12):  # six moves each: the game counts for ratings
        mover = requests.get(f"{url}{API}/games/{game_id}", timeout=5).json()["to_move"][0]
        wait_turn(pages[mover])  # its page may hear of the last move a moment later
        play_sequence_turn(pages[mover])
    bo.click("[data-resign]")
    bo.click("[data-confirm]")
    for page in (ada, bo):
        page.wait_for_selector("[data-rating-change]", timeout=30_000)
        assert words["rating_why"] in page.text_content("[data-rating-why]")
    assert ada.get_attribute(".gameover", "data-mood") == "won"
    assert bo.get_attribute(".gameover", "data-mood") == "lost"
    shoot(ada, f"journey-rated-won-{size}")
    shoot(bo, f"journey-rated-lost-{size}")
    fits(bo, viewport)
    refused = [p for p in open_page.problems if "409" in p and "/challenges" in p]
    assert len(refused) == 1 and open_page.problems == refused, open_page.problems  # the second


@pytest.mark.parametrize(("viewport", "language"), SIZES, ids=IDS)
def test_a_tournament_no_show_is_told_as_one(people_server, open_page, viewport, language):
    url, words, size = people_server.url, WORDS[language], f"{language}-{viewport['width']}"
    ada = person(open_page, url, f"Ann{language}", viewport, language)
    bo = person(open_page, url, f"Ben{language}", viewport, language)
    ada.click("[data-tournaments-link]")
    ada.fill("#t-name", f"Cup {language}")
    ada.fill("#t-rounds", "1")
    ada.select_option("#t-starts", "60")
    ada.select_option("#t-clock", "clock:15")
    ada.click("[data-create-tournament]")
    ada.wait_for_selector("[data-join-tournament]")
    cup = ada.evaluate("new URLSearchParams(location.hash.slice(1)).get('tournament')")
    rules = ada.text_content("[data-tournament-rules]")
    assert words["rules"] in rules
    shoot(ada, f"journey-tournament-rules-{size}")
    ada.click("[data-join-tournament]")
    ada.wait_for_selector("[data-withdraw-tournament]")
    bo.goto(f"{url}/play#tournament={cup}")
    bo.click("[data-join-tournament]")
    bo.wait_for_selector("[data-withdraw-tournament]")
    bo.goto(f"{url}/play")  # Ben wanders off and never plays
    ada.click("[data-start-tournament]")
    ada.wait_for_selector(".hand [data-card]", timeout=20_000)
    game_id = game_of(ada)
    # Ann makes her first move if the deal gave her the first turn; Ben's clock then
    # runs out on his first turn (15 s), and the server resigns him as a no-show.
    first = requests.get(f"{url}{API}/games/{game_id}", timeout=5).json()
    ann = next(p["seat"] for p in first["players"] if p["name"].startswith("Ann"))
    if first["to_move"] == [ann]:
        ada.wait_for_selector(".turnline.mine")
        play_sequence_turn(ada)
    ada.wait_for_selector(".gameover", timeout=60_000)
    assert words["no_show"] in ada.text_content(".log")
    assert ada.get_attribute(".gameover", "data-mood") == "won"
    shoot(ada, f"journey-no-show-{size}")
    bo.goto(f"{url}/play#game={game_id}")
    bo.wait_for_selector(".gameover")
    assert words["you_no_show"] in bo.text_content(".gameover h2")
    assert bo.get_attribute(".gameover", "data-mood") == "lost"
    shoot(bo, f"journey-no-show-told-{size}")
    fits(bo, viewport)
    assert not open_page.problems, open_page.problems


# Chromium reaches no push service on this closed network: the page's PushManager
# answers with the test's own push service, and remembers the subscription as a
# browser does (its getSubscription, its unsubscribe), all else real.
FAKE_PUSH = """
(() => {
  const key = "test:push-subscription";
  const made = () => {
    const sub = window.__push;
    return { endpoint: sub.endpoint, toJSON: () => ({ endpoint: sub.endpoint, keys: sub.keys }),
             unsubscribe: async () => { localStorage.removeItem(key); return true; } };
  };
  PushManager.prototype.subscribe = async function () {
    localStorage.setItem(key, "1");
    return made();
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem(key) ? made() : null;
  };
})();
"""


@pytest.mark.parametrize(("viewport", "language"), SIZES, ids=IDS)
def test_notifications_turned_on_shown_and_turned_off(people_server, browser, viewport, language):
    url, words, size = people_server.url, WORDS[language], f"{language}-{viewport['width']}"
    service = PushService(
        server_key=requests.get(f"{url}{API}/push/key", timeout=5).json()["public_key"]
    )
    endpoint = service.start()
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    context.grant_permissions(["notifications"], origin=url)
    subscription = json.dumps({"endpoint": endpoint, "keys": service.keys})
    context.add_init_script(f"window.__push = {subscription};" + FAKE_PUSH)
    try:
        page = context.new_page()
        page.goto(f"{url}/play")
        choose_language(page, language)
        key = account(page, f"Eve{language}")
        auth = {"Authorization": f"Bearer {key}"}
        page.click("[data-notifications-link]")
        page.wait_for_selector("[data-browser-push='off']")
        assert page.text_content("[data-browser-push]").startswith(words["not_notified"])
        page.click("[data-push-toggle='on']")
        page.wait_for_selector("[data-browser-push='on']")
        assert page.text_content("[data-browser-push]").startswith(words["notified"])
        subs = requests.get(f"{url}{API}/players/me/push", headers=auth, timeout=5).json()
        assert [s["endpoint"] for s in subs["subscriptions"]] == [endpoint]
        assert page.get_attribute("[data-bell]", "data-subscribed") == "yes"
        shoot(page, f"journey-notified-{size}")
        page.click("[data-push-toggle='off']")
        page.wait_for_selector("[data-browser-push='off']")
        subs = requests.get(f"{url}{API}/players/me/push", headers=auth, timeout=5).json()
        assert subs["subscriptions"] == []
        shoot(page, f"journey-not-notified-{size}")
        fits(page, viewport)
    finally:
        context.close()
        service.stop()

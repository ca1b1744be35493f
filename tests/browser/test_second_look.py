"""What a newcomer hit at the table, each caught in the browser: a leaver who stays on
the page, the chat, the words for jacks and refused clicks, and the small things."""

from __future__ import annotations

import pytest
import requests

from stacks_api.client import Client

from .conftest import DESKTOP, PHONE, choose_language, history, shoot
from .test_ratings import account, play_out_by_keys
from .test_truth import rated_game

SIZES = pytest.mark.parametrize(("viewport", "language"), [(DESKTOP, "en"), (PHONE, "ro")],
                                ids=["desktop-en", "phone-ro"])  # fmt: skip


@SIZES
def test_a_leaver_who_stays_is_told_they_lost_and_their_stand_in_is_named(
    server, open_page, viewport, language
):
    api = Client(server.url)
    game = api.create("sequence", 2, seed=31)
    ada, bo = (api.join(game["id"], name, seat=s).token for s, name in enumerate(("Ada", "Bo")))
    page = open_page(f"{server.url}/play#game={game['id']}&token={ada}", viewport)
    choose_language(page, language)
    page.wait_for_selector(".hand [data-card]")
    page.click("[data-leave]")
    page.click("[data-confirm]")
    page.wait_for_selector("[data-left-note]")
    play_out_by_keys(server.url, game["id"], [bo])  # Bo against Ada's stand-in
    page.wait_for_selector(".gameover", timeout=30_000)
    lost = {
        "en": "You left the game, so you lost it.",
        "ro": "Ai părăsit jocul, așa că l-ai pierdut.",
    }
    assert page.text_content(".gameover h2") == lost[language]
    stand_in = {"en": "Ada's stand-in", "ro": "Înlocuitor pentru Ada"}[language]
    lines = [text for _, text in history(page)]  # the newest first
    left = {"en": "Ada left the game.", "ro": "Ada a părăsit jocul."}[language]
    since = lines[: lines.index(left)]
    assert any(line.startswith(stand_in) for line in since), lines
    assert not [line for line in since if line.startswith("Ada ")], lines
    assert page.locator(".error, [role=alert]:has-text('token')").count() == 0
    shoot(page, f"leaver-stays-{language}-{viewport['width']}")
    assert not open_page.problems, open_page.problems


def at_newest(page) -> bool:
    seen = "l => l.scrollTop + l.clientHeight >= l.scrollHeight - 8"
    return bool(page.eval_on_selector("[data-chat-lines]", seen))


def say(url: str, game_id: str, token: str, text: str) -> None:
    said = requests.post(f"{url}/api/v1/games/{game_id}/chat", json={"text": text}, timeout=10,
                         headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert said.status_code == 201, said.text


@SIZES
def test_the_chat_keeps_its_newest_line_in_sight_and_says_when_a_line_is_full(
    server, open_page, viewport, language
):
    api = Client(server.url)
    game = api.create("sequence", 3, seed=32)
    names = ("Ada", "Bo", "Cy")
    ada, bo, cy = (api.join(game["id"], name, seat=s).token for s, name in enumerate(names))
    for n in range(8):  # long lines, more than the panel holds (a seat says 5 in 10 s)
        say(server.url, game["id"], (bo, cy)[n % 2], f"line {n} " + "word " * 50)
    page = open_page(f"{server.url}/play#game={game['id']}&token={ada}", viewport)
    choose_language(page, language)
    page.wait_for_selector("[data-chat-lines] li:has-text('line 7')")
    assert at_newest(page)
    say(server.url, game["id"], bo, "line 30, heard live")
    page.wait_for_selector("[data-chat-lines] li:has-text('heard live')")
    assert at_newest(page)
    # A reader who scrolled up to older lines keeps their place when a line comes.
    page.eval_on_selector(
        "[data-chat-lines]", "l => { l.scrollTop = 0; l.dispatchEvent(new Event('scroll')); }"
    )
    say(server.url, game["id"], cy, "line 31")
    page.wait_for_selector("[data-chat-lines] li:has-text('line 31')")
    assert page.eval_on_selector("[data-chat-lines]", "l => l.scrollTop") == 0
    assert page.text_content("[data-chat-room]") == ""
    page.fill("#chat-text", "é" * 260)
    assert "40" in page.text_content("[data-chat-room]")
    page.fill("#chat-text", "")
    page.type("#chat-text", "x" * 305, delay=0)
    assert len(page.input_value("#chat-text")) == 300
    full = {"en": "at most 300 characters", "ro": "cel mult 300 de caractere"}[language]
    assert full in page.text_content("[data-chat-room]"), page.text_content("[data-chat-room]")
    shoot(page, f"chat-full-{language}-{viewport['width']}")
    page.click("[data-say]")
    page.wait_for_selector(f"[data-chat-lines] li:has-text('{'x' * 300}')")
    assert at_newest(page), "one's own line is brought into sight"
    assert not open_page.problems, open_page.problems


def test_a_spectator_counts_themself_among_the_watchers(server, open_page):
    api = Client(server.url)
    game = api.create("sequence", 2, seed=33)
    for s, name in enumerate(("Ada", "Bo")):
        api.join(game["id"], name, seat=s)
    page = open_page(f"{server.url}/play#game={game['id']}")
    page.wait_for_selector("[data-spectators]")
    page.wait_for_function(
        "Number(document.querySelector('[data-spectators]').dataset.spectators) >= 1"
    )
    assert "1 watching" in page.text_content(".chat h2")
    assert not open_page.problems, open_page.problems


def said(page) -> str:
    return page.text_content("#message") or ""


@SIZES
def test_a_click_that_does_nothing_says_why_and_the_jacks_are_told(
    server, open_page, viewport, language
):
    api = Client(server.url)
    position = {"board": ["X........X"] + ["." * 10] * 8 + ["X........X"],
                "hands": [["JD", "JS", "2S"], ["3S"]], "turn": 0}  # fmt: skip
    game = api.create("sequence", 2, position=position)
    ada = api.join(game["id"], "Ada", seat=0).token
    api.join(game["id"], "Bo", seat=1)
    page = open_page(f"{server.url}/play#game={game['id']}&token={ada}", viewport)
    choose_language(page, language)
    page.wait_for_selector(".hand [data-card]")
    words = {
        "en": ("Pick a card first", "cannot go there", "two eyes", "No opposing chip"),
        "ro": (
            "Alege mai întâi o carte",
            "nu poate merge acolo",
            "doi ochi",
            "Niciun jeton advers",
        ),
    }[language]
    assert words[2] in page.text_content("[data-jacks]")
    page.click("[data-cell='4,4']", force=True)  # aria-disabled: a person's click still lands
    assert words[0] in said(page)
    page.click(".hand [data-card='2S']")
    page.click("[data-cell='4,4']", force=True)  # not a 2♠ space
    assert words[1] in said(page) and "2♠" in said(page)
    page.click(".hand [data-card='JS']")  # a one-eyed jack on a board without opposing chips
    assert said(page) == "" and page.locator(".cell.target").count() == 0
    assert words[3] in page.text_content("[data-why-not]")
    shoot(page, f"jacks-and-refusals-{language}-{viewport['width']}")
    watcher = open_page(f"{server.url}/play#game={game['id']}", viewport)
    watcher.wait_for_selector("[data-cell='4,4']")
    watcher.click("[data-cell='4,4']", force=True)
    assert said(watcher) == "", "a spectator's click is no turn of theirs"
    assert not open_page.problems, open_page.problems


@SIZES
def test_an_unplayable_action_card_says_why(server, open_page, viewport, language):
    api = Client(server.url)
    position = {"piles": [[], [], [], []], "turn": 0,
                "hands": [["STEAL_CARD", "STEAL_CHIP", "BLOCK", "B3"], ["R1"], ["R2"]]}  # fmt: skip
    game = api.create("stacks", 3, position=position)
    ada = api.join(game["id"], "Ada", seat=0).token
    for seat, name in ((1, "Bo"), (2, "Cy")):
        api.join(game["id"], name, seat=seat)
    page = open_page(f"{server.url}/play#game={game['id']}&token={ada}", viewport)
    choose_language(page, language)
    page.wait_for_selector(".hand [data-card]")
    reasons = {
        "en": ("all of them are empty", "a steal cannot win", "completes a pile", "fits no pile"),
        "ro": (
            "toate sunt goale",
            "un furt nu poate câștiga",
            "completează un teanc",
            "nu se potrivește",
        ),
    }[language]
    for card, reason in zip(("STEAL_CARD", "STEAL_CHIP", "BLOCK", "B3"), reasons, strict=True):
        page.click(f".hand [data-card='{card}']")
        assert reason in page.text_content("[data-why-not]"), card
        assert page.locator("[data-discard='0'].target").count() == 1, "it may still be discarded"
    page.click("[data-pile='0']", force=True)
    assert "B3" not in said(page) and said(page), "a pile that takes nothing says so"
    shoot(page, f"unplayable-action-{language}-{viewport['width']}")
    assert not open_page.problems, open_page.problems


def test_a_guest_name_is_remembered_and_no_empty_challenge_line_is_shown(server, open_page):
    page = open_page(f"{server.url}/play")
    page.fill("#name", "Zed")
    page.select_option("#seat-1", "easy")
    page.click("form.create button[type=submit]")
    page.wait_for_selector(".hand [data-card]")
    page.goto(f"{server.url}/play")
    page.wait_for_selector("#name")
    assert page.input_value("#name") == "Zed" and page.input_value("#account-name") == "Zed"

    ada_page, bo_page = open_page(f"{server.url}/play"), open_page(f"{server.url}/play")
    account(ada_page, "Ada")
    account(bo_page, "Bo")
    ada_id = ada_page.evaluate("JSON.parse(localStorage.getItem('stacks:player')).id")
    stranger = open_page(f"{server.url}/play")
    for shown in (ada_page, stranger):  # her own page; a visitor signed out
        shown.goto(f"{server.url}/play#player={ada_id}")
        shown.wait_for_selector("[data-player] h1:has-text('Ada')")
        assert shown.locator("[data-challenge-line]").count() == 0
        assert "Sequence:" not in (shown.text_content("[data-player]") or "")
    bo_page.goto(f"{server.url}/play#player={ada_id}")  # another account may challenge her
    bo_page.wait_for_selector("[data-challenge-line] [data-challenge-box]")
    shoot(stranger, "player-page-signed-out")
    assert not open_page.problems, open_page.problems


@SIZES
def test_games_played_as_a_guest_stay_listed_after_signing_up(
    server, open_page, viewport, language
):
    api = Client(server.url)
    done = api.create("sequence", 2, seats=[{}, {"bot": "easy"}], seed=34)
    live = api.create("stacks", 2, seats=[{}, {"bot": "easy"}], seed=35)
    page = open_page(f"{server.url}/play", viewport)
    choose_language(page, language)
    for game in (done, live):
        seat = api.join(game["id"], "Zed", seat=0).token
        page.goto(f"{server.url}/play#game={game['id']}&token={seat}")
        page.wait_for_selector(".hand [data-card]")
        kept = f"(localStorage.getItem('stacks:my-games') || '').includes('{game['id']}')"
        page.wait_for_function(kept)  # "my games" holds it once its view is in
    page.goto(f"{server.url}/play")
    page.wait_for_selector(f"[data-my-game='{live['id']}']")
    account(page, "Zed")
    page.wait_for_selector("[data-guest-games]")
    for game in (done, live):
        assert page.locator(f"[data-my-game='{game['id']}']").count() == 1
    shoot(page, f"guest-games-kept-{language}-{viewport['width']}")
    page.click(f"[data-my-game='{live['id']}'] button >> nth=0")  # reopen: still the seat
    page.wait_for_selector(".hand [data-card]")
    # Going from page to page cancels what each still had in flight: no fault.
    faults = [p for p in open_page.problems if not p.endswith(" net::ERR_ABORTED")]
    assert faults == [], open_page.problems


@pytest.mark.parametrize("language", ["en", "ro"])
def test_on_a_phone_new_game_comes_first_and_the_table_opens_at_its_top(
    server, open_page, language
):
    page = open_page(f"{server.url}/play", PHONE)
    choose_language(page, language)
    page.wait_for_selector("form.create")
    new_game = page.locator("form.create").bounding_box()
    my_games = page.locator("ul.my-games").bounding_box()
    assert new_game and my_games and new_game["y"] < my_games["y"]
    shoot(page, f"phone-lobby-{language}")
    page.select_option("#seat-1", "easy")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # read down to the foot
    assert page.evaluate("window.scrollY") > 0
    page.evaluate("document.querySelector('form.create').requestSubmit()")
    page.wait_for_selector(".hand [data-card]")
    assert page.evaluate("window.scrollY") == 0
    board = ["X........X", ".B........", "..G......."] + ["." * 10] * 6 + ["X........X"]
    game = Client(server.url).create(
        "sequence", 2, position={"board": board, "hands": [["2S"], ["3S"]], "turn": 0}
    )
    page.goto(f"{server.url}/play#game={game['id']}")
    page.wait_for_selector("[data-cell='1,1'][data-chip]")
    # Found and measured in one evaluation: a redraw between the two detaches them.
    hidden = page.evaluate(
        "[...document.querySelectorAll('[data-chip] .printed')]"
        ".map(l => getComputedStyle(l).visibility)"
    )
    assert hidden == ["hidden", "hidden"], "a chip covers its card's label"
    page.wait_for_selector("[data-spectators='1']", state="attached")  # the reader, counted
    shoot(page, f"phone-chips-{language}")
    assert not open_page.problems, open_page.problems


@SIZES
def test_a_player_is_found_by_name_and_challenged_from_their_page(
    server, open_page, viewport, language
):
    newcomer = open_page(f"{server.url}/play")
    account(newcomer, f"Grace Hopper {language}")  # provisional: on no leaderboard
    page = open_page(f"{server.url}/play", viewport)
    choose_language(page, language)
    account(page, "Ada")
    page.fill("#player-search", "hop")
    page.click("[data-search]")
    page.wait_for_selector("[data-found] a:has-text('Grace Hopper')")
    shoot(page, f"player-search-{language}-{viewport['width']}")
    page.click("[data-found] a")
    page.wait_for_selector("[data-player] h1:has-text('Grace Hopper')")
    page.wait_for_selector("[data-challenge-line] [data-challenge-box]")
    page.goto(f"{server.url}/play#leaderboard=stacks")
    page.fill("#player-search", "zzz")
    page.click("[data-search]")
    nobody = {"en": "Nobody of that name.", "ro": "Nimeni cu acest nume."}[language]
    page.wait_for_selector(f"[data-found-players] li:has-text('{nobody}')")
    assert not open_page.problems, open_page.problems


@SIZES
def test_a_rated_game_says_its_stakes_before_the_first_move_and_explains_the_change(
    server, open_page, viewport, language
):
    pages = [open_page(f"{server.url}/play", viewport), open_page(f"{server.url}/play")]
    keys = [account(page, name) for page, name in zip(pages, ("Ada", "Bo"), strict=True)]
    choose_language(pages[0], language)
    game_id = rated_game(server.url, keys)
    pages[0].goto(f"{server.url}/play#game={game_id}")
    pages[0].wait_for_selector("[data-stakes*=',']")
    win, loss = (int(n) for n in pages[0].get_attribute("[data-stakes]", "data-stakes").split(","))
    assert win > 0 > loss
    line = pages[0].text_content("[data-stakes]")
    assert f"+{win}" in line and f"\u2212{-loss}" in line and "1500?" in line
    shoot(pages[0], f"stakes-{language}-{viewport['width']}")
    play_out_by_keys(server.url, game_id, keys)
    pages[0].wait_for_selector("[data-rating-why]", timeout=60_000)
    why = {"en": "provisional rating (?)", "ro": "rating provizoriu (?)"}[language]
    assert why in pages[0].text_content("[data-rating-why]")
    assert "1500?" in pages[0].text_content("[data-rating-changes]")
    shoot(pages[0], f"stakes-explained-{language}-{viewport['width']}")
    assert not open_page.problems, open_page.problems


def test_a_question_asked_stays_asked_when_the_table_is_drawn_again(server, open_page):
    api = Client(server.url)
    game = api.create("sequence", 2, seed=36)
    ada, bo = (api.join(game["id"], name, seat=s).token for s, name in enumerate(("Ada", "Bo")))
    page = open_page(f"{server.url}/play#game={game['id']}&token={ada}")
    page.wait_for_selector(".hand [data-card]")
    page.click("[data-cancel]")
    say(server.url, game["id"], bo, "a new version: the table is drawn again")
    page.wait_for_selector("[data-chat-lines] li:has-text('drawn again')")
    assert page.locator("[data-confirm]").count() == 1, "the question is still asked"
    page.click("[data-confirm]")
    # her agreement, in the history ("Ada took seat 1" is there from the start)
    page.wait_for_selector("[data-move]:has-text('Ada agreed to cancel')")
    assert api.view(game["id"])["cancel_agreed"] == [0]
    assert not open_page.problems, open_page.problems

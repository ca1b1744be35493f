"""The web client as a table people come and go at: invites, "my games", languages,
the keyboard, and block windows that do not nag."""

from __future__ import annotations

import pytest

from stacks_api.client import Client

from .conftest import (
    PHONE,
    history,
    play_sequence_turn,
    shoot,
    status,
    version,
    wait_newer,
    wait_turn,
)
from .test_second_look import say


def test_the_token_leaves_the_address_bar_and_stays_in_the_tab(server, open_page):
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "greedy"}], seed=2)
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}")
    page.wait_for_selector(".hand [data-card]")
    assert "token" not in page.url and page.url.endswith(f"#game={game['id']}")
    before = len(open_page.problems)
    page.reload()
    page.wait_for_selector(".hand [data-card]")  # still the seat, from the tab's storage
    # The reload cancels what the page still had in flight (a refresh after the bot's
    # move, say): Chromium reports those as aborted, and they are no fault.
    cancelled = [p for p in open_page.problems[before:] if p.endswith(" net::ERR_ABORTED")]
    assert [p for p in open_page.problems if p not in cancelled] == [], open_page.problems


def test_copy_invite_seats_a_second_browser_that_sees_moves_live(server, open_page, browser):
    api = Client(server.url)
    game = api.create("sequence", 2, seed=12)
    me = api.join(game["id"], "Ada", seat=0)
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("[data-invite='1']")
    page.wait_for_selector("#message:has-text('copied')")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.endswith(f"#game={game['id']}&seat=1"), link
    shoot(page, "invite")

    friend = open_page(link)
    friend.fill("#join-name", "Bo")
    friend.click("button[type=submit]")
    friend.wait_for_selector("[data-cell='0,1']")
    assert "seat=" not in friend.url
    mover, watcher = (page, friend) if api.view(game["id"])["to_move"] == [0] else (friend, page)
    wait_turn(mover)
    before = version(watcher)
    play_sequence_turn(mover)
    wait_newer(watcher, before)
    told = history(watcher)[0][1]
    assert told.startswith("Ada ") or told.startswith("Bo "), told
    assert not open_page.problems, open_page.problems


def test_my_games_reopens_a_game_after_its_tab_was_closed(server, open_page):
    api = Client(server.url)
    game = api.create("stacks", 2, seats=[{}, {"bot": "greedy"}], seed=8)
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}")
    page.wait_for_selector(".hand [data-card]")
    context = page.context
    page.close()  # the tab, and its sessionStorage, are gone

    again = context.new_page()
    again.goto(f"{server.url}/play")
    entry = again.locator(f"[data-my-game='{game['id']}']")
    entry.wait_for()
    again.wait_for_function(
        f"document.querySelector(\"[data-my-game='{game['id']}'] .my-status\").textContent"
        " === 'in play'"
    )
    shoot(again, "my-games")
    entry.locator("button", has_text="Open").click()
    again.wait_for_selector(".hand [data-card]")  # as the seat, not a spectator
    assert status(again) == "active"
    assert not open_page.problems, open_page.problems


def test_the_lobby_follows_new_games_without_a_reload(server, open_page):
    page = open_page(f"{server.url}/play")
    page.wait_for_selector(".games")
    game = Client(server.url).create("sequence", 2, seed=31)
    page.wait_for_selector(f"a[href='#game={game['id']}']", timeout=15_000)
    assert page.locator(".games li", has_text="Join seat 1").count() >= 1


def test_the_interface_speaks_the_browsers_language_and_switches(server, browser):
    context = browser.new_context(locale="fi-FI", bypass_csp=True)  # wait_for_function evals
    try:
        page = context.new_page()
        page.goto(f"{server.url}/play")
        page.wait_for_selector(".create")
        assert page.get_attribute("html", "lang") == "fi"
        assert page.text_content(".create h2") == "Uusi peli"
        page.select_option("#language", "pl")
        page.wait_for_function("document.documentElement.lang === 'pl'")
        assert page.text_content(".create h2") == "Nowa gra"
        page.reload()
        page.wait_for_selector(".create")
        assert page.get_attribute("html", "lang") == "pl", "the choice is kept"
        missing = page.evaluate("import('/play/i18n.js').then(m => m.missing())")
        assert missing and not any(missing.values()), missing
        shoot(page, "lobby-pl")
    finally:
        context.close()


def test_one_sequence_move_by_keyboard_alone(server, open_page):
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "greedy"}], seed=5)
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}")
    wait_turn(page)
    before = version(page)
    for _ in range(60):  # Tab to the first card of the hand
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.dataset?.card !== undefined"):
            break
    cards = page.locator(".hand [data-card]").count()
    for _ in range(cards):
        page.keyboard.press("Enter")  # pick it: focus goes to its first space
        if page.evaluate("document.activeElement?.classList.contains('target')"):
            break
        page.keyboard.press("Enter")  # no space for it: put it back, try the next
        page.keyboard.press("Tab")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label and label[0] in "ABCDEFGHIJ", label  # a space named as the log names it
    page.keyboard.press("Enter")
    wait_newer(page, before)
    mine = [text for move, text in history(page) if int(move) == before + 1]
    assert mine and mine[0].startswith("Ada played"), history(page)[:3]
    assert not open_page.problems, open_page.problems


def test_the_keyboard_keeps_its_place_when_the_table_is_redrawn(server, open_page):
    """The other person's chat line redraws the table: the focus stays on the button
    it was on, and on the space a card picked by keyboard led it to (it fell back to
    the page, so the next Enter went nowhere, or to whatever Tab reached next)."""
    api = Client(server.url)
    game = api.create("sequence", 2, seed=5)
    tokens = [api.join(game["id"], name, seat=s).token for s, name in enumerate(("Ada", "Bo"))]
    mover = api.view(game["id"])["to_move"][0]
    page = open_page(f"{server.url}/play#game={game['id']}&token={tokens[mover]}")
    wait_turn(page)

    def redrawn_by_chat() -> int:
        before = version(page)
        say(server.url, game["id"], tokens[1 - mover], "take your time")
        wait_newer(page, before)
        return before + 1

    page.focus("[data-hint]")
    redrawn_by_chat()
    assert page.evaluate("document.activeElement.hasAttribute('data-hint')")
    cards = page.locator(".hand [data-card]")
    for n in range(cards.count()):
        cards.nth(n).focus()
        page.keyboard.press("Enter")  # pick it: the focus goes to its first space
        if page.evaluate("document.activeElement.classList.contains('target')"):
            break
        page.keyboard.press("Enter")  # no space for it: put it back
    space = page.evaluate("document.activeElement.dataset.cell")
    assert space, "a card with a space was picked"
    chatted = redrawn_by_chat()
    assert page.evaluate("document.activeElement.dataset.cell") == space
    page.keyboard.press("Enter")
    # The move's history line (it can come after the status's newer version).
    page.wait_for_selector(f"[data-move='{chatted + 1}']")
    played = [text for move, text in history(page) if int(move) == chatted + 1]
    assert played and played[0].startswith(f"{('Ada', 'Bo')[mover]} played"), history(page)[:3]
    assert not open_page.problems, open_page.problems


# From the page's first moment: whether a block dialog is ever put on it.
COUNT_BLOCK_DIALOGS = """
window.asked = 0;
document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver(() => {
        if (document.querySelector("[role=alertdialog], [data-action=block]")) window.asked += 1;
    }).observe(document.body, {childList: true, subtree: true});
});
"""

# Seat 1 (a bot) completes pile 0 on its turn; seat 0, the person, holds no Block.
NO_BLOCK = {
    "piles": [["B1", "B2", "B3", "B4"], [], [], []],
    "hands": [["R2", "R3", "SKIP", "B1", "R1"], ["B5", "R4", "R5", "B2", "R1"]],
    "turn": 1,
}


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_a_seat_without_a_block_is_never_asked_and_the_window_closes(server, open_page, viewport):
    api = Client(server.url)
    game = api.create("stacks", 2, seats=[{}, {"bot": "greedy"}], position=NO_BLOCK, seed=4)
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}", viewport,
                     before=COUNT_BLOCK_DIALOGS)  # fmt: skip
    page.wait_for_selector("[data-move]:has-text('completed pile 1')", timeout=20_000)
    page.wait_for_selector("[data-move]:has-text('won a blue chip')", timeout=20_000)
    events = api.events(game["id"])
    opened = [e for e in events if e["type"] == "block_window"]
    assert opened and opened[0]["waiting"] == [0], "seat 0 was asked by the server"
    assert {"type": "answer", "seat": 0}.items() <= next(
        e for e in events if e["type"] == "answer"
    ).items(), "the client answered for it"
    assert page.evaluate("window.asked") == 0, "no block dialog was shown"
    assert not open_page.problems, open_page.problems

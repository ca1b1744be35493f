"""The web client at /play, played by clicks in headless Chromium against stacks-api serve."""

from __future__ import annotations

from pathlib import Path

import pytest

from stacks_api.client import Client
from stacks_api.testing import RedisServer, ServerProcess

from .conftest import SHOTS

STATIC = Path(__file__).parent.parent.parent / "stacks_api" / "web" / "static"
DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 360, "height": 780}


@pytest.fixture(scope="module")
def server():
    process = ServerProcess({"REDIS_URL": ""})
    yield process
    process.stop()


@pytest.fixture
def open_page(browser):
    """Pages that record every console error, page error and failed request."""
    contexts, problems = [], []

    def opener(url: str, viewport: dict | None = None):
        context = browser.new_context(viewport=viewport or DESKTOP)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on("requestfailed", lambda r: closed_by_client(r) or problems.append(failed(r)))
        page.goto(url)
        return page

    opener.problems = problems
    yield opener
    for context in contexts:
        context.close()


def closed_by_client(request) -> bool:
    """The client closes its event stream itself on game over; if the server has not ended
    it first, Chromium reports that close as an aborted request, which is no fault."""
    return "/events" in request.url and request.failure == "net::ERR_ABORTED"


def failed(request) -> str:
    return f"{request.url} {request.failure}"


def version(page) -> int:
    return int(page.get_attribute("[data-status]", "data-version"))


def wait_turn(page, timeout=20_000) -> str:
    page.wait_for_function(
        "['finished', 'cancelled'].includes(document.querySelector('[data-status]').textContent)"
        " || document.querySelector('.turnline')?.textContent.includes('Your turn')"
        " || document.querySelector('.turnline')?.textContent.includes('Block or pass')",
        timeout=timeout,
    )
    return page.inner_text("[data-status]")


def play_sequence_turn(page) -> None:
    """Click a card, then one of its highlighted spaces; trade or pass when nothing fits."""
    before = version(page)
    cards = page.locator(".hand [data-card]")
    for i in range(cards.count()):
        cards.nth(i).click()
        if page.locator(".cell.target").count():
            page.locator(".cell.target").first.click()
            break
        if page.locator("[data-action=exchange]").count():
            page.locator("[data-action=exchange]").click()
            break
        cards.nth(i).click()  # not this one: unselect
    else:
        page.locator("[data-action=pass]").click()
    page.wait_for_function(
        f"Number(document.querySelector('[data-status]').dataset.version) > {before}"
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_whole_sequence_game_against_a_bot_by_clicks(server, open_page, viewport):
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "random"}], seed=5)
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}", viewport)
    page.wait_for_selector("[data-cell='0,1']")
    name = "desktop" if viewport is DESKTOP else "phone"
    shot = False
    for _ in range(200):
        if wait_turn(page) != "active":
            break
        if not shot and version(page) > 8:
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"sequence-{name}.png"), full_page=True)
            shot = True
        play_sequence_turn(page)
    assert page.inner_text("[data-status]") == "finished"
    assert page.locator(".gameover").count() == 1
    page.wait_for_timeout(1500)  # the stream has ended with the game: no reconnecting banner
    assert page.locator("#banner").is_hidden()
    assert page.locator("[data-chip]").count() > 8
    page.screenshot(path=str(SHOTS / f"sequence-{name}-over.png"), full_page=True)
    assert not open_page.problems, open_page.problems


STACKS_POSITION = {
    "piles": [[], ["B1", "B2", "B3", "B4"], ["R1"], []],
    "hands": [
        ["STEAL_CHIP", "BLOCK", "R5", "B3", "R4"],
        ["B5", "R3", "B2", "R1", "B1"],
        ["R2", "R2", "B1", "B2", "R3"],
    ],
    "discards": [["R2"], [], []],
    "chips": [{"blue": 0, "red": 0}, {"blue": 0, "red": 0}, {"blue": 1, "red": 0}],
    "turn": 0,
}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_stacks_by_clicks_discard_top_steal_a_chip_and_block(server, open_page, viewport):
    api = Client(server.url)
    seats = [{}, {"bot": "greedy"}, {"bot": "greedy"}]
    game = api.create("stacks", 3, seats=seats, position=STACKS_POSITION, seed=1)
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}", viewport)
    wait_turn(page)
    name = "desktop" if viewport is DESKTOP else "phone"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"stacks-{name}.png"), full_page=True)

    page.click("[data-discard='0']")  # the top of my own discard pile: R2
    page.click("[data-pile='2']")
    page.wait_for_function(
        "document.querySelector(\"[data-pile='2']\").textContent.includes('Red 2')"
    )
    page.click(".hand [data-card='STEAL_CHIP']")
    page.click("[data-seat='2']")  # only blue can be taken: no colour to ask
    page.wait_for_function(
        "document.querySelector(\"[data-seat='0']\").textContent.includes('● 1')"
    )
    page.click(".hand [data-card='R5']")
    page.click("[data-discard='0']")  # ends the turn; seat 1 completes pile 1
    page.wait_for_selector("[data-action=block]", timeout=20_000)
    page.screenshot(path=str(SHOTS / f"stacks-{name}-block.png"), full_page=True)
    page.click("[data-action=block]")
    wait_turn(page)
    events = api.events(game["id"])
    assert [e for e in events if e["type"] == "play" and e.get("from") == "discard"]
    assert {
        "type": "play",
        "seat": 0,
        "card": "STEAL_CHIP",
        "target": 2,
        "color": "blue",
    }.items() <= next(e for e in events if e.get("card") == "STEAL_CHIP").items()
    assert [e for e in events if e["type"] == "block" and e["seat"] == 0]
    assert not open_page.problems, open_page.problems


def test_two_people_see_each_others_moves_live(server, open_page):
    api = Client(server.url)
    game = api.create("sequence", 2, seed=9)
    tokens = [api.join(game["id"], name).token for name in ("Ada", "Grace")]
    pages = [open_page(f"{server.url}/play#game={game['id']}&token={t}") for t in tokens]
    for _ in range(4):
        mover = api.view(game["id"])["to_move"][0]
        wait_turn(pages[mover])
        before = version(pages[1 - mover])
        play_sequence_turn(pages[mover])
        # From the event stream (no reload, no polling); bench/browser.py times it.
        pages[1 - mover].wait_for_function(
            f"Number(document.querySelector('[data-status]').dataset.version) > {before}",
            timeout=10_000,
        )
    assert not open_page.problems, open_page.problems


def test_the_page_catches_up_after_the_server_restarts(open_page, browser):
    redis_server = RedisServer()
    redis_server.start()
    env = {"REDIS_URL": redis_server.url}
    first = ServerProcess(env)
    port = first.port
    try:
        api = Client(first.url)
        game = api.create("sequence", 2, seed=4)
        tokens = [api.join(game["id"], name).token for name in ("Ada", "Grace")]
        page = open_page(f"{first.url}/play#game={game['id']}&token={tokens[0]}")
        page.wait_for_selector("[data-cell='0,1']")
        opened_at = version(page)

        def move() -> None:
            state = api.view(game["id"])
            token = tokens[state["to_move"][0]]
            api.act(game["id"], token, api.view(game["id"], token)["you"]["legal_actions"][0])

        for _ in range(2):
            move()
        first.stop()
        page.wait_for_selector("#banner:not([hidden])", timeout=10_000)
        second = ServerProcess(env, port=port)
        try:
            for _ in range(3):
                move()
            final = api.view(game["id"])["version"]
            page.wait_for_function(
                f"Number(document.querySelector('[data-status]').dataset.version) === {final}",
                timeout=15_000,
            )
            page.wait_for_selector("#banner", state="hidden")
            versions = "items => items.map(i => Number(i.dataset.eventVersion))"
            shown = page.eval_on_selector_all("[data-event-version]", versions)
            expected = [e["version"] for e in api.events(game["id"], opened_at)]
            assert sorted(shown) == expected, "every event once, none missing"
        finally:
            second.stop()
    finally:
        redis_server.cleanup()
    # While the server is down Chromium logs each refused connection; nothing else may fail.
    outage = ("ERR_CONNECTION_REFUSED", "ERR_INCOMPLETE_CHUNKED_ENCODING")
    assert all(any(o in p for o in outage) for p in open_page.problems), open_page.problems


def test_the_client_is_small():
    size = sum(path.stat().st_size for path in STATIC.iterdir())
    assert size < 150_000, f"{size} bytes"


def test_the_lobby_creates_a_stacks_game_against_bots_and_opens_it(server, open_page):
    page = open_page(f"{server.url}/")  # / leads to the client
    page.select_option("#variant", "stacks")
    page.fill("#players", "3")
    page.dispatch_event("#players", "input")
    page.select_option("#block-window", "holders")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-pile='3']")
    assert "token=" in page.url and page.inner_text("[data-status]") == "active"
    game_id = page.url.split("game=")[1].split("&")[0]
    view = Client(server.url).view(game_id)
    assert [p["bot"] for p in view["players"]] == [None, "greedy", "greedy"]
    assert view["options"]["block_window"] == "holders"
    assert not open_page.problems, open_page.problems


def test_a_table_of_people_sees_the_clock_leaves_and_rematches(server, open_page):
    api = Client(server.url)
    game = api.create("sequence", 2, options={"turn_seconds": 600})
    tokens = [api.join(game["id"], name, seat=s).token for s, name in enumerate(("Ada", "Bo"))]
    page = open_page(f"{server.url}/play#game={game['id']}&token={tokens[0]}")
    page.wait_for_selector("[data-clock]:has-text('left')")
    clock = page.text_content("[data-clock]")
    assert "9:" in clock or "10:" in clock, clock
    page.screenshot(path=str(SHOTS / "people-clock.png"), full_page=True)
    page.click("[data-leave]")
    page.wait_for_selector("text=You left")
    shown = api.view(game["id"])
    assert shown["players"][0]["left"] and shown["players"][0]["bot"] == "greedy"
    page.wait_for_selector("text=left the game")
    page.screenshot(path=str(SHOTS / "people-left.png"), full_page=True)

    # A finished game of two people: Rematch takes seat 0 to the next game.
    board = ["X........X"] + ["." * 10] * 8 + ["XBBB.....X"]
    position = {"board": board, "hands": [["TD"], ["2C"]], "turn": 0}
    done = api.create("sequence", 2, position=position, options={"sequences_to_win": 1})
    seats = [api.join(done["id"], name, seat=s).token for s, name in enumerate(("Ada", "Bo"))]
    api.act(done["id"], seats[0], {"type": "play", "card": "TD", "cell": [9, 4]})
    page = open_page(f"{server.url}/play#game={done['id']}&token={seats[0]}")
    page.click("[data-rematch]")
    page.wait_for_selector("text=Waiting for players")
    next_id = api.view(done["id"])["rematch"]
    assert next_id and next_id in page.url
    page.screenshot(path=str(SHOTS / "people-rematch.png"), full_page=True)
    assert not open_page.problems, open_page.problems

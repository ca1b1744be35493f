"""The web client at /play, played by clicks in headless Chromium against stacks-api serve."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stacks_api.client import Client
from stacks_api.testing import RedisServer, ServerProcess

from .conftest import (
    DESKTOP,
    PHONE,
    choose_language,
    history,
    play_sequence_turn,
    reloaded_history,
    shoot,
    status,
    version,
    wait_newer,
    wait_turn,
)

STATIC = Path(__file__).parent.parent.parent / "stacks_api" / "web" / "static"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_whole_sequence_game_against_a_bot_by_clicks(server, open_page, viewport):
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "random"}], seed=5)
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}", viewport)
    page.wait_for_selector("[data-cell='0,1']")
    name = "desktop" if viewport is DESKTOP else "phone"
    shoot(page, f"sequence-{name}-start")
    reloaded_mid_game = False
    for _ in range(200):
        if wait_turn(page) != "active":
            break
        if not reloaded_mid_game and version(page) > 12:
            shoot(page, f"sequence-{name}-mid")
            before = history(page)
            assert len(before) > 5 and any(" on " in text for _, text in before), before
            assert reloaded_history(page) == before, "a reload shows the same history"
            reloaded_mid_game = True
            wait_turn(page)
        play_sequence_turn(page)
    assert status(page) == "finished" and reloaded_mid_game
    assert page.locator(".gameover").count() == 1
    assert "sequence" in page.text_content(".gameover .why").lower()
    page.wait_for_timeout(1500)  # the stream has ended with the game: no reconnecting banner
    assert page.locator("#banner").is_hidden()
    assert page.locator("[data-chip]").count() > 8
    shoot(page, f"sequence-{name}-end")
    ended = history(page)
    assert reloaded_history(page) == ended, "a finished game reopens with its whole history"
    shown = {int(v) for v, _ in ended}
    assert max(shown) == api.view(game["id"])["version"]
    assert page.locator(".hand").count() == 0, "no hand or hint once the game is over"
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
    shoot(page, f"stacks-{name}-start")

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
    shoot(page, f"stacks-{name}-block")
    page.click("[data-action=block]")
    wait_turn(page)
    page.wait_for_selector("[data-move]:has-text('blocked')")
    shoot(page, f"stacks-{name}-mid")
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


ABOUT_TO_WIN = {
    "piles": [[], ["B1", "B2", "B3", "B4"], [], []],
    "hands": [["B5", "R2", "SKIP"], ["R3", "B2", "R4"], ["B3", "R5", "R1"]],
    "chips": [{"blue": 2, "red": 2}, {"blue": 1, "red": 0}, {"blue": 0, "red": 1}],
    "turn": 0,
}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_won_stacks_game_says_why(server, open_page, viewport):
    api = Client(server.url)
    seats = [{}, {"bot": "greedy"}, {"bot": "greedy"}]
    game = api.create("stacks", 3, seats=seats, position=ABOUT_TO_WIN, seed=3,
                      options={"block_window": "holders"})  # fmt: skip
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}", viewport)
    wait_turn(page)
    page.click(".hand [data-card='B5']")
    page.click("[data-pile='1']")  # completes the blue pile: nobody holds a Block
    page.wait_for_selector(".gameover")
    assert page.text_content(".gameover h2") == "You won!"
    # The move that ended it had its answer: no word of a lost server above the end
    # (its socket was closed at the end while the answer was awaited).
    page.wait_for_function("() => !document.querySelector('[data-card]:not([disabled])')")
    page.wait_for_timeout(300)  # the rejected answer's handler would have run by now
    assert page.text_content("#message") == "", page.text_content("#message")
    why = page.text_content(".gameover .why")
    assert "3 blue and 2 red" in why, why
    assert "five or more in all" in why, why  # the rule, not a count that may not hold
    assert page.locator(".hint").count() == 0, "no 'pick a card' hint once it is over"
    shoot(page, f"stacks-{'desktop' if viewport is DESKTOP else 'phone'}-end")
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
        wait_newer(pages[1 - mover], before, timeout=10_000)
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
            caught_up = history(page)
            assert int(caught_up[0][0]) == final, "the newest move is shown"
            assert reloaded_history(page) == caught_up, "every move once, none missing"
        finally:
            second.stop()
    finally:
        redis_server.cleanup()
    # While the server is down Chromium logs each refused connection; nothing else may fail.
    outage = ("ERR_CONNECTION_REFUSED", "ERR_INCOMPLETE_CHUNKED_ENCODING")
    assert all(any(o in p for o in outage) for p in open_page.problems), open_page.problems


@pytest.mark.parametrize("transport", ["socket", "http"])
def test_a_game_the_restarted_server_no_longer_has_is_told_gone(open_page, transport):
    """A server that kept its games in memory comes back without them: the page says
    so and stops reconnecting, over the socket and over the event stream alike."""
    first = ServerProcess({"REDIS_URL": "", "STACKS_STORE": "memory"})
    port = first.port
    api = Client(first.url)
    game = api.create("sequence", 2, seed=4)
    tokens = [api.join(game["id"], name).token for name in ("Ada", "Grace")]
    no_socket = "delete window.WebSocket;" if transport == "http" else None
    page = open_page(f"{first.url}/play#game={game['id']}&token={tokens[0]}", before=no_socket)
    page.wait_for_selector("[data-cell='0,1']")
    first.stop()
    second = ServerProcess({"REDIS_URL": "", "STACKS_STORE": "memory"}, port=port)
    try:
        page.wait_for_selector("[data-gone]", timeout=60_000)  # its back-off, then once
        assert "gone" in page.text_content("[data-gone] h2")
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url))
        page.on("websocket", lambda ws: asked.append(ws.url))
        page.wait_for_timeout(3_000)  # longer than its first back-offs
        assert not [u for u in asked if game["id"] in u], asked
        assert page.locator("#banner").is_hidden(), "no 'reconnecting' left on screen"
        shoot(page, f"game-gone-{transport}")
    finally:
        second.stop()
    outage = ("ERR_CONNECTION_REFUSED", "ERR_INCOMPLETE_CHUNKED_ENCODING", "404")
    assert all(any(o in p for o in outage) for p in open_page.problems), open_page.problems


def test_the_client_is_small():
    """What one page can load: the code, the style, the board, English (always
    fetched) and one other language (only the one in use is). The budget was 150 kB
    until the tournaments' pages came (about 13 kB with their words), 175 kB until
    games over days and notifications came (the account's stream, the turn list, the
    settings page, the service worker, the manifest and its icons: about 18 kB), and
    190 kB until other apps came (the consent page and the connected apps: 6 kB), and
    200 kB until the table's second look (player search, a rated game's stakes, the
    tournament's line, the words for jacks and refused clicks, the chat's room: 10 kB),
    215 kB until two people at one table (the client's own words for each of the
    server's refusal codes, in English and the language in use: 20 kB; invitations
    for accounts, paces, absences and claims, no-shows, this browser's pushes: 9 kB),
    250 kB until moves over one socket (socket.js and its use: 4 kB), and 255 kB
    until duplicate play (the match page, the comparison tables, the board's line
    and the challenge's choice, with their words: 14 kB)."""
    files = [path for path in STATIC.rglob("*") if path.is_file()]
    tables = [path for path in files if path.parent.name == "lang"]
    code = sum(path.stat().st_size for path in files if path not in tables)
    english = (STATIC / "lang" / "en.js").stat().st_size
    other = max(path.stat().st_size for path in tables if path.name != "en.js")
    assert code + english + other < 275_000, f"{code + english + other} bytes"


def test_the_lobby_creates_a_stacks_game_against_bots_and_opens_it(server, open_page):
    page = open_page(f"{server.url}/")  # / leads to the client
    page.select_option("#variant", "stacks")
    page.fill("#players", "3")
    page.dispatch_event("#players", "input")
    page.select_option("#block-window", "holders")
    page.click("form.create button[type=submit]")
    page.wait_for_selector("[data-pile='3']")
    assert "token=" not in page.url and status(page) == "active"
    game_id = page.url.split("game=")[1].split("&")[0]
    view = Client(server.url).view(game_id)
    assert [p["bot"] for p in view["players"]] == [None, "easy", "easy"]
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
    shoot(page, "people-clock")
    page.click("[data-leave]")
    assert api.view(game["id"])["players"][0]["left"] is False  # Leave asks once first
    page.click("[data-confirm]")
    page.wait_for_selector("text=You left")
    shown = api.view(game["id"])
    assert shown["players"][0]["left"] and shown["players"][0]["bot"] == "greedy"
    page.wait_for_selector("text=left the game")
    shoot(page, "people-left")

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
    shoot(page, "people-rematch")
    assert not open_page.problems, open_page.problems


@pytest.mark.parametrize("transport", ["socket", "http"])
def test_the_client_asks_once_a_move_and_never_polls_for_its_turn(server, open_page, transport):
    """Over the socket its own move is an action message and a look at its view; each
    of the others' moves, heard on the socket, one look: no HTTP request a move.
    Without WebSocket (forced here) it falls back to HTTP and the event stream: one
    POST a move of its own, one GET of its view a move heard (and one when its
    stream opens). Either way nothing is asked on a timer (the chat's count aside)."""
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "random"}], seed=9)
    me = api.join(game["id"], "Ada")
    no_socket = "delete window.WebSocket;" if transport == "http" else None
    page = open_page(f"{server.url}/play", before=no_socket)
    frames: list[dict] = []  # what the page sends on its sockets, from their opening
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: frames.append(json.loads(f))))
    page.goto(f"{server.url}/play#game={game['id']}&token={me.token}")
    page.wait_for_selector("[data-cell='0,1']")
    wait_turn(page)
    asked: list[tuple[str, str]] = []
    page.on("request", lambda r: asked.append((r.method, r.url.split("/api/v1", 1)[-1])))
    frames.clear()
    start = version(page)
    mine = 8
    for _ in range(mine):
        assert wait_turn(page) == "active"
        play_sequence_turn(page)
    wait_turn(page)
    moves = version(page) - start  # each a version: mine, and the bot's replies
    game_calls = [(m, p) for m, p in asked if p.startswith(f"/games/{game['id']}")]
    posts = [p for m, p in game_calls if m == "POST"]
    views = [p for m, p in game_calls if m == "GET" and p.split("?")[0] == f"/games/{game['id']}"]
    others = [c for c in game_calls if c[1] not in posts and c[1] not in views]
    assert not [c for c in others if "/events" not in c[1] and "/chat" not in c[1]], others
    if transport == "socket":
        assert posts == [] and views == [], "moves and looks are messages"
        sent = [f["type"] for f in frames]
        assert sent.count("action") == mine
        assert sent.count("view") <= moves, (sent.count("view"), moves)
        asks = (sent.count("action") + sent.count("view")) / moves
    else:
        assert posts == [f"/games/{game['id']}/actions"] * mine
        opened = [p for m, p in game_calls if "/events" in p]  # each (re)opened stream looks once
        assert len(views) <= moves - mine + len(opened), (len(views), moves, len(opened))
        asks = (len(posts) + len(views)) / moves
    print(f"{transport}: messages or requests a move: {asks:.2f} over {moves} moves")


# Seat 0 may play its Skip or discard it (RULES.md: any card may be discarded).
SKIP_IN_HAND = {
    "piles": [["B1"], [], [], []],
    "hands": [["SKIP", "R5", "B5"], ["R3", "B2", "R4"]],
    "turn": 0,
}


@pytest.mark.parametrize(("viewport", "language"), [(DESKTOP, "en"), (PHONE, "ro")],
                         ids=["desktop-en", "phone-ro"])  # fmt: skip
def test_an_action_card_is_played_or_discarded_as_chosen(server, open_page, viewport, language):
    api = Client(server.url)
    game = api.create("stacks", 2, seats=[{}, {"bot": "greedy"}], position=SKIP_IN_HAND, seed=8)
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}", viewport)
    wait_turn(page)
    choose_language(page, language)
    before = version(page)
    page.click(".hand [data-card='SKIP']")
    page.wait_for_selector("[data-action=discard]")
    assert version(page) == before, "picking the card chose nothing yet"
    play, discard = (
        page.text_content("[data-action=play-card]"),
        page.text_content("[data-action=discard]"),
    )
    assert play != discard and play and discard
    # Abort, Leave and Cancel: three names, each explained by the question it asks
    # when pressed (on the page, not in a tooltip a phone never shows).
    buttons = ["[data-abort]", "[data-leave]", "[data-cancel]"]
    assert len({page.text_content(b) for b in buttons}) == 3
    questions = []
    for button in buttons:
        page.click(button)
        questions.append(page.text_content(".ask-twice [role=alert]"))
        page.click(".ask-twice [role=alert] ~ button:not([data-confirm])")  # No
    assert len(set(questions)) == 3 and all(len(q) > 40 for q in questions), questions
    assert {"en": "You lose it", "ro": "Îl pierzi"}[language] in questions[1]
    shoot(page, f"stacks-skip-choice-{language}")
    page.click("[data-action=discard]")
    wait_newer(page, before)
    mine = [e for e in api.events(game["id"]) if e.get("seat") == 0 and e["version"] > before]
    assert mine[0]["type"] == "discard" and mine[0]["card"] == "SKIP", mine
    assert not open_page.problems, open_page.problems


def test_a_new_language_leaves_nothing_of_the_old_one_on_screen(server, open_page):
    """The game is read again after the language changes; until it is drawn anew the
    screen stays empty, so nothing in the old language can be read or clicked."""
    api = Client(server.url)
    game = api.create("sequence", 2)
    ada = api.join(game["id"], "Ada", seat=0).token
    api.join(game["id"], "Bo", seat=1)
    page = open_page(f"{server.url}/play#game={game['id']}&token={ada}", PHONE)
    page.wait_for_selector("[data-jacks]")
    # Every request now passes through this process, so the new view comes late.
    page.route("**/api/v1/**", lambda route: route.continue_())
    choose_language(page, "ro")
    shown = page.evaluate("document.querySelector('[data-jacks]')?.textContent ?? ''")
    assert shown == "" or "doi ochi" in shown, shown
    page.wait_for_selector("[data-jacks]")
    assert "doi ochi" in page.text_content("[data-jacks]")
    assert not open_page.problems, open_page.problems


def test_a_move_made_while_the_page_opens_is_seen(server, open_page):
    """The opponent moves after the page read its view but before its socket opened:
    the socket's first view is newer, and the page takes it (nothing else would come)."""
    api = Client(server.url)
    game = api.create("sequence", 2, seed=9)
    seats = [api.join(game["id"], name) for name in ("Ada", "Bo")]
    first = api.view(game["id"])["to_move"][0]
    mover, waiter = (seats[0], seats[1]) if seats[0].seat == first else (seats[1], seats[0])
    page = open_page(f"{server.url}/play")  # the route is in place before the game opens

    def moved_meanwhile(route) -> None:  # type: ignore[no-untyped-def]
        answer = route.fetch()  # the view as it was
        mine = api.view(game["id"], mover.token)
        api.act(game["id"], mover.token, mine["you"]["legal_actions"][0])
        route.fulfill(response=answer)

    page.route(f"**/api/v1/games/{game['id']}", moved_meanwhile, times=1)
    page.goto(f"{server.url}/play#game={game['id']}&token={waiter.token}")
    wait_turn(page)
    assert version(page) == api.view(game["id"])["version"]
    assert not open_page.problems, open_page.problems


def test_a_move_heard_while_the_history_is_asked_is_told_once(server, open_page):
    """The socket's first view is newer than the page's, so the page asks for the
    history it missed; while that answer is on its way the socket tells a later move,
    which the answer holds too. Each move is told once, in order (the later move
    was told twice and the missed one never, before)."""
    api = Client(server.url)
    game = api.create("sequence", 2, seed=9)
    seats = [api.join(game["id"], name) for name in ("Ada", "Bo")]
    first = api.view(game["id"])["to_move"][0]
    mover, waiter = (seats[0], seats[1]) if seats[0].seat == first else (seats[1], seats[0])
    page = open_page(f"{server.url}/play")

    def moved_meanwhile(route) -> None:  # type: ignore[no-untyped-def]
        answer = route.fetch()
        act(api, game["id"], mover.token)
        route.fulfill(response=answer)

    held: list = []
    page.route(f"**/api/v1/games/{game['id']}", moved_meanwhile, times=1)
    page.route(lambda url: "/events?after=" in url, lambda route: held.append(route), times=1)
    page.goto(f"{server.url}/play#game={game['id']}&token={waiter.token}")
    while not held:
        page.wait_for_timeout(50)
    act(api, game["id"], waiter.token)  # the socket tells it before the history comes
    final = api.view(game["id"])["version"]
    page.wait_for_function(
        f"Number(document.querySelector('[data-status]').dataset.version) === {final}"
    )
    held[0].continue_()
    page.wait_for_selector(f"[data-move='{final - 1}']")  # the missed move, from the answer
    shown = history(page)
    assert [int(v) for v, _ in shown] == sorted({int(v) for v, _ in shown}, reverse=True), shown
    assert shown == reloaded_history(page), "every move once, none missing"
    assert not open_page.problems, open_page.problems


def act(api: Client, game_id: str, token: str) -> None:
    """The seat's first legal action."""
    api.act(game_id, token, api.view(game_id, token)["you"]["legal_actions"][0])

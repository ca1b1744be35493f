"""Smaller things two people meet at a table, each shown to fail without its fix: the
client's own words (one Romanian register, cards and bots named in the language),
one's own move in the history while the stream is stalled, presence at a Stacks
table, a faulty app request told in the person's language, and a finished game
offered as a game to see, not to watch."""

from __future__ import annotations

from urllib.parse import urlencode

import requests

from stacks_api.client import Client

from ..api.test_oauth import pkce
from .conftest import PHONE, choose_language, history, play_sequence_turn, shoot, wait_turn
from .test_ratings import account

API = "/api/v1"


def test_cards_and_bots_are_named_in_the_language_in_use(server, open_page):
    page = open_page(f"{server.url}/play", PHONE)
    choose_language(page, "ro")
    named = page.evaluate("""Promise.all([import('/play/dom.js'), import('/play/history.js')])
        .then(([dom, told]) => [dom.cardLabel('RW'), dom.cardLabel('B3'),
                                told.botName('beginner bot 1'), told.botName('Ada')])""")
    assert named == ["Joker roșu", "Albastru 3", "bot începător 1", "Ada"]
    refused = page.evaluate("""import('/play/api.js').then(api =>
        [api.problemText({status: 409, code: 'not_your_turn', detail: 'not your turn'}),
         api.problemText({status: 429, code: 'rate_limited', retryAfter: 7}),
         api.problemText({status: 418, code: 'teapot'})])""")
    assert refused == ["Nu e rândul tău.", "Prea multe cereri: încearcă din nou peste 7 s.",
                       "Serverul a refuzat (418)."]  # fmt: skip


def test_ones_own_move_is_in_the_history_while_the_stream_is_stalled(server, open_page):
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "greedy"}], seed=4)
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play", PHONE)
    page.route("**/events?after=*", lambda route: None)  # the stream never answers
    page.goto(f"{server.url}/play#game={game['id']}&token={me.token}")
    wait_turn(page)
    before = {version for version, _ in history(page)}
    play_sequence_turn(page)
    page.wait_for_function(f"document.querySelectorAll('[data-move]').length > {len(before)}")
    mine = [text for version, text in history(page) if version not in before]
    assert any(text.startswith("Ada played") for text in mine), mine
    shoot(page, "stalled-stream-own-move")


def test_a_stacks_table_shows_who_is_here(server, open_page):
    page = open_page(f"{server.url}/play")
    account(page, "Ada")
    key = page.evaluate("localStorage.getItem('stacks:key')")
    made = requests.post(f"{server.url}{API}/games", timeout=5,
                         json={"variant": "stacks", "players": 2}).json()  # fmt: skip
    game_id = made["game"]["id"]
    requests.post(f"{server.url}{API}/games/{game_id}/players", json={}, timeout=5,
                  headers={"Authorization": f"Bearer {key}"})  # fmt: skip
    requests.post(f"{server.url}{API}/games/{game_id}/players", json={"name": "Bo"}, timeout=5)
    page.goto(f"{server.url}/play#game={game_id}")
    page.wait_for_selector("[data-pile='0']")
    assert page.locator(".seat-button [data-presence]").count() == 2
    shoot(page, "stacks-presence")


def test_a_faulty_app_request_is_told_in_the_persons_language(server, open_page):
    page = open_page(f"{server.url}/play", PHONE)
    choose_language(page, "ro")
    asked = {"response_type": "code", "client_id": "https://app.example/",
             "redirect_uri": "https://elsewhere.example/cb", "code_challenge": pkce()[1],
             "code_challenge_method": "S256", "scope": "play"}  # fmt: skip
    page.goto(f"{server.url}/oauth/authorize?{urlencode(asked)}")
    page.wait_for_selector("[data-consent-refused='invalid_request']")
    told = page.text_content("[data-consent-refused]")
    assert "Cererea acestei aplicații nu poate fi folosită" in told
    assert "redirect_uri" not in told, "the server's English stays for the app's makers"
    shoot(page, "consent-refused-ro")
    assert all("400" in p for p in open_page.problems), open_page.problems


def test_a_finished_game_on_a_player_page_is_one_to_see(server, open_page):
    page = open_page(f"{server.url}/play")
    account(page, "Ada")
    me = page.evaluate("JSON.parse(localStorage.getItem('stacks:player')).id")
    key = page.evaluate("localStorage.getItem('stacks:key')")
    made = requests.post(f"{server.url}{API}/games", timeout=5, json={
        "variant": "sequence", "players": 2, "seats": [{}, {"bot": "random"}]}).json()  # fmt: skip
    game_id = made["game"]["id"]
    auth = {"Authorization": f"Bearer {key}"}
    requests.post(f"{server.url}{API}/games/{game_id}/players", json={}, headers=auth, timeout=5)
    requests.post(f"{server.url}{API}/games/{game_id}/resign", headers=auth, timeout=5)
    page.goto(f"{server.url}/play#player={me}")
    line = page.wait_for_selector(f"[data-history-game='{game_id}']")
    assert "See the game" in line.text_content() and "Watch" not in line.text_content()

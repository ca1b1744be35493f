"""The table tells the truth: a player who left has lost (the panel, the record and the
rating agree), a one-to-one game speaks of "you", and what is hidden stays hidden."""

from __future__ import annotations

import pytest
import requests

from .conftest import PHONE, shoot
from .test_ratings import account, play_out_by_keys

API = "/api/v1"
ENTROPY = "5eed" * 4
LAPTOPS = [{"width": 1280, "height": 800}, {"width": 1366, "height": 768},
           {"width": 1440, "height": 900}, PHONE]  # fmt: skip


def rated_game(url: str, keys: list[str]) -> str:
    game = requests.post(f"{url}{API}/games", json={"variant": "sequence", "players": 2,
                                                   "rated": True}, timeout=10).json()  # fmt: skip
    for key in keys:
        joined = requests.post(f"{url}{API}/games/{game['game']['id']}/players",
                               json={"entropy": ENTROPY}, timeout=10,
                               headers={"Authorization": f"Bearer {key}"})  # fmt: skip
        assert joined.status_code == 201, joined.text
    return str(game["game"]["id"])


def play_moves(url: str, game_id: str, keys: list[str], count: int) -> None:
    """The keys' seats play their first legal action, ``count`` actions in all."""
    played = 0
    while played < count:
        for key in keys:
            auth = {"Authorization": f"Bearer {key}"}
            view = requests.get(f"{url}{API}/games/{game_id}", timeout=10,
                                headers={**auth, "Prefer": "wait=5"}).json()  # fmt: skip
            if view["you"]["legal_actions"] and played < count:
                action = view["you"]["legal_actions"][0]
                answer = requests.post(f"{url}{API}/games/{game_id}/actions", json=action,
                                       headers=auth, timeout=10)  # fmt: skip
                played += answer.status_code == 200


def test_a_player_who_leaves_a_rated_game_is_told_they_lost(server, open_page):
    pages = [open_page(f"{server.url}/play"), open_page(f"{server.url}/play")]
    ada, bo = (account(page, name) for page, name in zip(pages, ("Ada", "Bo"), strict=True))
    game_id = rated_game(server.url, [ada, bo])
    play_moves(server.url, game_id, [ada, bo], 10)  # five moves each side: the game counts
    left = requests.post(f"{server.url}{API}/games/{game_id}/leave", timeout=10,
                         headers={"Authorization": f"Bearer {bo}"})  # fmt: skip
    assert left.status_code == 200, left.text
    play_out_by_keys(server.url, game_id, [ada])  # the stand-in plays Bo's seat
    view = requests.get(f"{server.url}{API}/games/{game_id}", timeout=10).json()
    scores = {p["name"]: p["score"] for p in view["players"]}
    assert scores == {"Ada": 1.0, "Bo": 0.0}, "a person who left has lost, whatever the board"
    record = requests.get(f"{server.url}{API}/games/{game_id}/record", timeout=10).json()
    assert record["result"]["scores"] == [scores[s["name"]] for s in record["seats"]]
    for page in pages:
        page.goto(f"{server.url}/play#game={game_id}")
        page.wait_for_selector(".gameover")
    assert pages[1].text_content(".gameover h2") == "You left the game, so you lost it."
    assert pages[1].query_selector("[data-rematch]") is None
    assert pages[0].text_content(".gameover h2") == "You won!"
    for page, mine in zip(pages, ("Ada", "Bo"), strict=True):
        page.wait_for_selector("[data-rating-change]", timeout=60_000)
        shoot(page, f"left-rated-game-over-{mine.lower()}")
    changes = requests.get(f"{server.url}{API}/games/{game_id}/ratings", timeout=10).json()
    moved = {c["name"]: c["change"] for c in changes["changes"]}
    assert moved["Bo"] < 0 < moved["Ada"]
    # The leaver's player page shows the game lost, beside the rating's fall.
    bo_id = pages[1].evaluate("JSON.parse(localStorage.getItem('stacks:player')).id")
    history = requests.get(f"{server.url}{API}/players/{bo_id}/games", timeout=10).json()
    assert [s["score"] for g in history["games"] if g["id"] == game_id
            for s in g["seats"] if s["player_id"] == bo_id] == [0.0]  # fmt: skip
    pages[1].goto(f"{server.url}/play#player={bo_id}")
    pages[1].wait_for_selector("[data-player] li:has-text('lost')")
    assert not pages[1].is_visible("[data-player] button:has-text('More')"), "one page only"
    listed = pages[1].text_content("[data-player]")
    assert listed.count("against Ada") == 1 and " won " not in listed


def test_a_one_to_one_game_over_speaks_of_you_not_of_teams(server, open_page):
    page = open_page(f"{server.url}/play")
    key = account(page, "Cy")
    game = requests.post(f"{server.url}{API}/games", json={"variant": "sequence", "players": 2,
                         "seats": [{}, {"bot": "random"}]}, timeout=10).json()  # fmt: skip
    game_id = game["game"]["id"]
    requests.post(f"{server.url}{API}/games/{game_id}/players", json={}, timeout=10,
                  headers={"Authorization": f"Bearer {key}"})  # fmt: skip
    play_out_by_keys(server.url, game_id, [key])
    page.goto(f"{server.url}/play#game={game_id}")
    headline = page.wait_for_selector(".gameover h2").text_content()
    view = requests.get(f"{server.url}{API}/games/{game_id}", timeout=10).json()
    mine = next(p for p in view["players"] if p["name"] == "Cy")["score"]
    expected = {1.0: "You won!", 0.0: "You lost.", 0.5: "A draw."}[mine]
    assert headline == expected and "team" not in headline.lower()
    shoot(page, "one-to-one-game-over")


@pytest.mark.parametrize("size", LAPTOPS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_hidden_things_stay_hidden(server, open_page, size):
    page = open_page(f"{server.url}/play", viewport=size)
    account(page, "Di")
    page.wait_for_selector("[data-play-now]")
    assert not page.is_visible("[data-cancel-seek]"), "'Stop looking' with nothing to stop"
    # Play now offers clocks; a rated game always has one.
    assert page.is_checked("#quick-rated") and page.input_value("#quick-clock") == "60"
    assert page.is_disabled("#quick-clock option[value='0']")
    page.uncheck("#quick-rated")
    assert not page.is_disabled("#quick-clock option[value='0']")
    page.select_option("#variant", "sequence")
    stacks_only = ["label:has(#block-window)", "label:has(#timeout)"]
    assert page.is_visible("label:has(#teams)")
    assert not any(page.is_visible(option) for option in stacks_only)
    page.select_option("#variant", "stacks")
    assert all(page.is_visible(option) for option in stacks_only)
    assert not page.is_visible("label:has(#teams)")
    shoot(page, f"lobby-{size['width']}x{size['height']}")
    counted = page.evaluate("import('/play/i18n.js').then(m => [m.t('cards_n', {n: 1}), "
                            "m.t('cards_n', {n: 2}), m.t('rating_games', {n: 1})])")  # fmt: skip
    assert counted == ["1 card", "2 cards", "1 rated game"]
    assert not open_page.problems


@pytest.mark.parametrize("size", LAPTOPS[:3], ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_sequence_turn_fits_one_laptop_screen(server, open_page, size):
    game = requests.post(f"{server.url}{API}/games", json={"variant": "sequence", "players": 2,
                         "seats": [{}, {"bot": "random"}]}, timeout=10).json()  # fmt: skip
    game_id = game["game"]["id"]
    token = requests.post(f"{server.url}{API}/games/{game_id}/players", json={"name": "Fay"},
                          timeout=10).json()["token"]  # fmt: skip
    page = open_page(f"{server.url}/play#game={game_id}&token={token}", viewport=size)
    page.wait_for_selector(".hand [data-card]")
    box = "e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; }"
    for part in (".turnline", ".board", ".hand"):
        top, bottom = page.eval_on_selector(part, box)
        assert top >= 0 and bottom <= size["height"], (part, top, bottom)
    shoot(page, f"sequence-turn-{size['width']}x{size['height']}")


RACE = {  # seat 0 completes pile 0 with B5; seats 1 and 2 both hold a Block
    "piles": [["B1", "B2", "B3", "B4"], [], [], []],
    "hands": [["B5", "R1"], ["BLOCK", "R2"], ["BLOCK", "R3"]],
    "turn": 0,
}


def test_a_block_that_lost_the_race_is_told(server, open_page):
    game = requests.post(f"{server.url}{API}/games", json={"variant": "stacks", "players": 3,
                         "position": RACE}, timeout=10).json()  # fmt: skip
    game_id = game["game"]["id"]
    tokens = [requests.post(f"{server.url}{API}/games/{game_id}/players", json={"name": n},
                            timeout=10).json()["token"] for n in ("Gil", "Hal", "Ivy")]  # fmt: skip
    page = open_page(f"{server.url}/play#game={game_id}&token={tokens[2]}")
    page.wait_for_selector("[data-status]", state="attached")

    def post(seat: int, action: dict[str, object]) -> None:
        mine = {"Authorization": f"Bearer {tokens[seat]}"}
        answer = requests.post(f"{server.url}{API}/games/{game_id}/actions", json=action,
                               headers=mine, timeout=10)  # fmt: skip
        assert answer.status_code == 200, answer.text

    post(0, {"type": "play", "card": "B5", "pile": 0})
    page.wait_for_selector("[data-action=block]", timeout=20_000).click()
    page.wait_for_function("!document.querySelector('[data-action=block]')")
    post(1, {"type": "play", "card": "BLOCK"})  # Hal sits first after Gil: his Block wins
    page.wait_for_selector("#message:has-text('blocked first')", timeout=20_000)
    assert "Hal" in page.text_content("#message")
    page.wait_for_selector("[data-move]:has-text('blocked')")
    captions = page.eval_on_selector_all(
        ".discard-caption", "items => items.map(i => i.textContent)"
    )
    assert captions == ["discards", "discards", "your discards"], "each discard pile says so"
    shoot(page, "stacks-block-lost-race")
    view = requests.get(f"{server.url}{API}/games/{game_id}", timeout=10,
                        headers={"Authorization": f"Bearer {tokens[2]}"}).json()  # fmt: skip
    assert "BLOCK" in view["you"]["hand"], "the losing Block stays in the hand"


def test_a_phone_reads_the_board_the_rules_and_the_last_move(server, open_page):
    game = requests.post(f"{server.url}{API}/games", json={"variant": "sequence", "players": 2,
                         "seats": [{}, {"bot": "random"}]}, timeout=10).json()  # fmt: skip
    game_id = game["game"]["id"]
    token = requests.post(f"{server.url}{API}/games/{game_id}/players", json={"name": "Jo"},
                          timeout=10).json()["token"]  # fmt: skip
    mine = {"Authorization": f"Bearer {token}"}
    for _ in range(12):  # enough moves that the history scrolls
        view = requests.get(f"{server.url}{API}/games/{game_id}", timeout=10,
                            headers={**mine, "Prefer": "wait=5"}).json()  # fmt: skip
        requests.post(f"{server.url}{API}/games/{game_id}/actions", timeout=10,
                      json=view["you"]["legal_actions"][0], headers=mine)  # fmt: skip
    page = open_page(f"{server.url}/play#game={game_id}&token={token}", viewport=PHONE)
    page.wait_for_selector("[data-move]")
    size = page.evaluate(  # one evaluation: a redraw cannot detach the label mid-measure
        "parseFloat(getComputedStyle(document.querySelector('.cell .printed')).fontSize)"
    )
    assert size >= 10, f"board labels of {size} px"
    page.click(".help summary")
    rules = page.text_content(".help")
    assert "J♦" in rules and "J♠" in rules, "which jacks are which"
    last = page.evaluate("""() => { const list = document.querySelector('.log ol');
        list.scrollTop = list.scrollHeight;
        const item = list.lastElementChild.getBoundingClientRect();
        return item.bottom <= list.getBoundingClientRect().bottom + 0.5; }""")
    assert last, "the history's last line is cut"
    shoot(page, "sequence-phone-rules")

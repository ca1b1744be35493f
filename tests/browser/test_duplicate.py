"""A duplicate challenge taken by two people in their own browsers: sent from a
player's page, accepted from the notice, each person's game against the same bot on
the same deal, closed to the other until both have ended, then compared on the
match page and at the foot of each game (laptop size in English, phone size in
Romanian)."""

from __future__ import annotations

import re

import pytest
import requests

from stacks_api.commands.verify_rounds import verify_match

from .conftest import DESKTOP, PHONE, play_sequence_turn, shoot, wait_turn
from .test_journeys import fits, game_of, person

API = "/api/v1"
SIZES = [(DESKTOP, "en"), (PHONE, "ro")]
IDS = ["laptop-en", "phone-ro"]
WORDS = {"en": {"offer": "same deal against the same bot",
                "closed": "duplicate board stays closed"},
         "ro": {"offer": "aceeași împărțire contra aceluiași bot",
                "closed": "mână duplicat rămâne închisă"}}  # fmt: skip


def hand(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.eval_on_selector_all(".hand [data-card]", "cards => cards.map(c => c.dataset.card)")


def resign(page) -> None:  # type: ignore[no-untyped-def]
    page.click("[data-resign]")
    page.click("[data-confirm]")
    page.wait_for_selector(".gameover")


@pytest.mark.parametrize(("viewport", "language"), SIZES, ids=IDS)
def test_a_duplicate_challenge_from_a_player_page_to_the_match_result(
    people_server, open_page, viewport, language
):
    url, words, size = people_server.url, WORDS[language], f"{language}-{viewport['width']}"
    ada = person(open_page, url, f"Dana{language}", viewport, language)
    bo = person(open_page, url, f"Dino{language}", viewport, language)
    ada_id, bo_id = (p.evaluate("JSON.parse(localStorage.getItem('stacks:player')).id")
                     for p in (ada, bo))  # fmt: skip

    ada.goto(f"{url}/play#player={bo_id}")
    ada.click("[data-challenge-line] [data-challenge]")  # Sequence: the first offered
    ada.select_option("[data-challenge-deals]", "duplicate")
    assert ada.is_disabled("[data-challenge-rated]"), "a duplicate challenge is never rated"
    ada.select_option("[data-challenge-bot]", "random")
    shoot(ada, f"duplicate-challenge-form-{size}")
    fits(ada, viewport)
    ada.click("[data-challenge-send]")
    ada.wait_for_selector("[data-challenge-sent]")

    bo.wait_for_selector("[data-accept]", timeout=15_000)
    assert words["offer"] in bo.text_content("[data-challenge-notice]")
    shoot(bo, f"duplicate-challenged-{size}")
    bo.click("[data-accept]")
    bo.wait_for_selector(".hand [data-card]", timeout=15_000)
    ada.click("[data-open-challenge-game]", timeout=15_000)
    ada.wait_for_selector(".hand [data-card]")
    games = {"ada": game_of(ada), "bo": game_of(bo)}
    assert games["ada"] != games["bo"]
    for page in (ada, bo):
        page.wait_for_selector("[data-duplicate-board] [data-match-link]")
    wait_turn(ada)
    wait_turn(bo)
    assert hand(ada) == hand(bo), "one deal: the same hand in both games"
    shoot(ada, f"duplicate-board-{size}")
    fits(bo, viewport)

    # Nobody else sees a board while the match runs: Ada opens Bo's game.
    ada.goto(f"{url}/play#game={games['bo']}")
    ada.wait_for_function(f"document.getElementById('message').textContent.includes("
                          f"{words['closed']!r})")  # fmt: skip
    assert ada.locator("[data-game-refused]").count() == 1
    assert ada.locator(".hand [data-card]").count() == 0
    ada.goto(f"{url}/play#game={games['ada']}")
    wait_turn(ada)

    play_sequence_turn(ada)  # Ada plays once and resigns; Bo plays twice, then resigns
    assert ada.text_content("#message") == "", "a move says nothing but itself"
    wait_turn(ada)
    resign(ada)
    ada.wait_for_selector("[data-others-playing]")
    shoot(ada, f"duplicate-waiting-{size}")
    for _ in range(2):
        wait_turn(bo)
        play_sequence_turn(bo)
    wait_turn(bo)
    resign(bo)

    for page in (ada, bo):  # each game's foot now shows the other one, and the verdict
        page.wait_for_selector("[data-other-tables] [data-match-winner]", timeout=15_000)
        assert page.get_attribute("[data-match-winner]", "data-match-winner") == bo_id
    shoot(bo, f"duplicate-compared-{size}")
    match = requests.get(f"{url}{API}/games/{games['ada']}", timeout=5).json()["duplicate"]
    ada.click("[data-match-link]")
    ada.wait_for_selector("[data-match-status=over]")
    rows = ada.eval_on_selector_all("[data-match-game]",
                                    "rows => rows.map(r => r.dataset.matchGame)")  # fmt: skip
    assert rows == [games["ada"], games["bo"]] == match["games"]
    assert ada.get_attribute("[data-match-winner]", "data-match-winner") == bo_id != ada_id
    check = ada.text_content("[data-fairness] pre", timeout=5_000)
    assert check.endswith(f"--match {match['match']}")
    assert verify_match(url, match["match"]).ok, "the command the page shows holds"
    shoot(ada, f"duplicate-match-{size}")
    fits(ada, viewport)
    # Once both have ended the other's replay opens for anyone.
    ada.click(f"[data-match-game='{games['bo']}'] [data-replay-link]")
    ada.wait_for_selector("[data-replay-at]")
    # The one fault the pages met: Bo's board refused to Ada while the match ran.
    refused = [p for p in open_page.problems if f"/games/{games['bo']}" in p
               and re.search(r"status of 40[13]", p)]  # fmt: skip
    assert open_page.problems == refused and len(refused) >= 1, "\n".join(open_page.problems)


@pytest.mark.parametrize(("viewport", "language"), SIZES, ids=IDS)
def test_a_duplicate_event_made_in_the_browser_compares_its_tables(
    people_server, open_page, viewport, language
):
    url, size = people_server.url, f"{language}-{viewport['width']}"
    ada = person(open_page, url, f"Tia{language}", viewport, language)
    bo = person(open_page, url, f"Teo{language}", viewport, language)
    ada.click("[data-tournaments-link]")
    ada.fill("#t-name", f"Same deal {language}")
    ada.select_option("#t-system", "duplicate")
    ada.fill("#t-rounds", "1")
    ada.select_option("#t-starts", "60")
    ada.click("[data-create-tournament]")
    ada.wait_for_selector("[data-duplicate-rules]", state="attached")  # in the rules, folded
    cup = ada.evaluate("new URLSearchParams(location.hash.slice(1)).get('tournament')")
    ada.click("[data-join-tournament]")
    ada.wait_for_selector("[data-withdraw-tournament]")
    ada.select_option("[data-bot-level-choice]", "random")
    ada.fill(".add-bots input", "2")
    ada.click("[data-add-bots]")
    bo.goto(f"{url}/play#tournament={cup}")
    bo.click("[data-join-tournament]")
    bo.wait_for_selector("[data-withdraw-tournament]")
    ada.click("[data-start-tournament]")

    boards = []
    for page in (ada, bo):  # each page opens its own board, which says what it is
        page.wait_for_selector("[data-duplicate-board]", timeout=20_000)
        boards.append(game_of(page))
    shoot(bo, f"duplicate-event-board-{size}")
    for page in (ada, bo):
        if wait_turn(page) != "finished":
            page.click("[data-resign]")
            page.click("[data-confirm]")
    for page in (ada, bo):  # once every table has ended: the deal at the other tables
        page.wait_for_selector("[data-other-tables] [data-seat-comparison]", timeout=60_000)
    shoot(ada, f"duplicate-event-compared-{size}")
    held = ada.eval_on_selector_all("[data-held]", "rows => rows.map(r => r.dataset.held)")
    assert len(held) == 4, "two seats, each held at both tables"

    bo.goto(f"{url}/play#tournament={cup}")
    bo.wait_for_selector("[data-tournament-status=finished] [data-deal] [data-seat-comparison]")
    percentages = bo.eval_on_selector_all("[data-percentage]",
                                          "c => c.map(x => x.dataset.percentage)")  # fmt: skip
    assert len(percentages) == 4 and {float(p) for p in percentages} <= {0.0, 50.0, 100.0}
    shoot(bo, f"duplicate-event-standings-{size}")
    entries = requests.get(f"{url}{API}/tournaments/{cup}", timeout=5).json()["entries"]
    given = [e.get("entropy") for e in entries if e["player_id"]]
    assert len(given) == 2 and all(given), "each person's page gave entropy for the deal"
    fits(bo, viewport)
    assert not open_page.problems, open_page.problems

"""The analysis beside a replay: a chart of the chance of winning, mistakes marked,
and a chosen mistake's better move lit on the board."""

from __future__ import annotations

import time

import requests

from stacks_api.client import Client

from ..api.test_analysis import BLUNDER
from .conftest import PHONE, shoot

API = "/api/v1/games"


def finish(url: str, game_id: str, token: str) -> None:
    """Play the seat's first legal action until the game is over."""
    mine = {"Authorization": f"Bearer {token}", "Prefer": "wait=10"}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = requests.get(f"{url}{API}/{game_id}", headers=mine, timeout=20).json()
        if view["status"] != "active":
            return
        if view["you"]["legal_actions"]:
            requests.post(f"{url}{API}/{game_id}/actions", json=view["you"]["legal_actions"][0],
                          headers=mine, timeout=20)  # fmt: skip
    raise AssertionError("the game did not end")


def blundered(url: str) -> str:
    """A finished Sequence game whose first move missed a completing one (F2)."""
    api = Client(url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "medium"}], position=BLUNDER,
                      options={"sequences_to_win": 1})  # fmt: skip
    me = api.join(game["id"], "Ada")
    api.act(game["id"], me.token, {"type": "play", "card": "2D", "cell": [2, 2]}, wait=10)
    return str(game["id"])


def labels_inside(page) -> bool:
    """Whether every axis label lies whole inside the chart's drawing."""
    return bool(
        page.eval_on_selector_all(
            ".analysis-chart [data-axis]",
            """items => items.every(i => {
        const box = i.getBBox(), view = i.ownerSVGElement.viewBox.baseVal;
        return box.x >= 0 && box.x + box.width <= view.width; })""",
        )
    )


def test_a_sequence_blunder_is_marked_and_its_better_move_lit(server, open_page):
    page = open_page(f"{server.url}/play#replay={blundered(server.url)}")
    page.wait_for_selector("[data-analysis='shown'] svg .mistake", timeout=60_000)
    page.click("[data-mistake]")
    page.wait_for_selector("[data-cell='1,5'][data-better]")
    assert "F2" in page.text_content("p[data-better]")
    assert page.text_content("[data-better-why]").strip(" ()"), "the better move says why"
    axes = dict(
        page.eval_on_selector_all(
            ".analysis-chart [data-axis]",
            "items => items.map(i => [i.dataset.axis, i.textContent])",
        )
    )
    assert axes["high"] == "100%" and axes["low"] == "0%" and axes["moves"] == "moves"
    assert labels_inside(page), "no axis label is cut at the chart's edge"
    assert "Ada" in page.text_content("[data-legend]")
    shoot(page, "analysis-sequence")
    assert not open_page.problems, open_page.problems


def test_the_analysis_marks_are_big_enough_to_tap_on_a_phone(server, open_page):
    page = open_page(f"{server.url}/play#replay={blundered(server.url)}", viewport=PHONE)
    dot = page.wait_for_selector("[data-analysis='shown'] svg .mistake", timeout=60_000)
    size = dot.bounding_box()
    assert size is not None and size["width"] >= 12, size
    assert labels_inside(page)
    shoot(page, "analysis-sequence-phone")


def test_a_stacks_game_is_charted_beside_its_replay(server, open_page):
    api = Client(server.url)
    game = api.create("stacks", 2, seats=[{}, {"bot": "medium"}])
    me = api.join(game["id"], "Ada")
    finish(server.url, game["id"], me.token)
    page = open_page(f"{server.url}/play#replay={game['id']}")
    page.wait_for_selector("[data-analysis='shown'] svg polyline", timeout=120_000)
    assert "Lucky cards" in page.text_content("[data-analysis]")
    shoot(page, "analysis-stacks")
    assert not open_page.problems, open_page.problems

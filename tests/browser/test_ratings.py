"""Rated play in the web client: two browsers are paired by "Play now", the game's
end shows both rating changes, then the player page and the leaderboard."""

from __future__ import annotations

import time

import requests

from .conftest import shoot

API = "/api/v1"


def account(page, name: str) -> str:
    page.fill("#account-name", name)
    page.click("[data-create-account]")
    page.wait_for_selector("[data-my-page]")
    return str(page.evaluate("localStorage.getItem('stacks:key')"))


def play_out_by_keys(url: str, game_id: str, keys: list[str]) -> None:
    """Each key plays its seat's first legal action until the game is over."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for key in keys:
            auth = {"Authorization": f"Bearer {key}"}
            view = requests.get(f"{url}{API}/games/{game_id}", headers=auth, timeout=10).json()
            if view["status"] != "active":
                return
            if view["you"]["legal_actions"]:
                action = view["you"]["legal_actions"][0]
                requests.post(f"{url}{API}/games/{game_id}/actions", json=action, headers=auth,
                              timeout=10)  # fmt: skip
    raise AssertionError("the game did not end")


def test_two_browsers_play_a_rated_game_found_by_play_now(server, open_page):
    pages = [open_page(f"{server.url}/play"), open_page(f"{server.url}/play")]
    keys = [account(page, name) for page, name in zip(pages, ("Ada", "Bo"), strict=True)]
    for page in pages:
        page.select_option("#quick-variant", "sequence")
        assert page.is_checked("#quick-rated")
        page.click("[data-play-now]")
    shoot(pages[0], "play-now-waiting")
    for page in pages:  # paired, seated with the key and entropy: the game is on
        page.wait_for_selector(".hand [data-card]", timeout=30_000)
    game_id = pages[0].evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    assert game_id == pages[1].evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    view = requests.get(f"{server.url}{API}/games/{game_id}", timeout=5).json()
    assert view["rated"] and {p["name"] for p in view["players"]} == {"Ada", "Bo"}
    play_out_by_keys(server.url, game_id, keys)
    for page in pages:
        page.wait_for_selector("[data-rating-change='1']", timeout=60_000)
        changes = page.eval_on_selector_all("[data-rating-change]",
                                            "items => items.map(i => i.textContent)")  # fmt: skip
        assert len(changes) == 2 and all("1500? →" in c for c in changes)
    shoot(pages[0], "rated-game-over")
    ratings = requests.get(f"{server.url}{API}/games/{game_id}/ratings", timeout=5).json()
    changes = ratings["changes"]
    assert sum(c["change"] for c in changes) == 0  # two new players: a gain is a loss
    decided = len({c["rank"] for c in changes}) == 2  # else a draw: no change
    assert all((c["change"] > 0) == (decided and c["rank"] == 1) for c in changes)

    pages[0].goto(f"{server.url}/play")
    pages[0].click("[data-my-page]")
    pages[0].wait_for_selector("[data-rating='sequence'] svg.rating-chart circle")
    assert "?" in pages[0].text_content("[data-rating='sequence'] .rating")  # provisional
    labels = "items => items.map(i => [i.dataset.axis, i.textContent])"
    axes = pages[0].eval_on_selector_all("[data-rating='sequence'] [data-axis]", labels)
    mine = next(c for c in changes if c["name"] == "Ada")["after"]
    assert dict(axes) == {"high": str(mine), "first": "1", "games": "rated games",
                          "rating": "rating"}  # fmt: skip
    shoot(pages[0], "player-ratings")
    pages[1].goto(f"{server.url}/play#leaderboard=sequence")
    pages[1].wait_for_selector("[data-leaderboard='sequence'] tbody tr")
    assert "Ada" not in pages[1].text_content("[data-leaderboard]")  # one game: provisional
    shoot(pages[1], "leaderboard")
    assert not open_page.problems, open_page.problems

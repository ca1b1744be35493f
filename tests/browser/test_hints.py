"""The Hint button: the server's workers suggest a move, the page lights its card
and where it goes, with the reason in words."""

from __future__ import annotations

import pytest
import requests

from stacks_api.client import Client

from .conftest import shoot, wait_turn

API = "/api/v1"


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_a_hint_lights_a_legal_card_and_where_it_goes(server, open_page, variant):
    api = Client(server.url)
    game = api.create(variant, 2, seats=[{}, {"bot": "medium"}])
    me = api.join(game["id"], "Ada")
    page = open_page(f"{server.url}/play#game={game['id']}&token={me.token}")
    assert wait_turn(page) == "active"
    page.click("[data-hint]")
    page.wait_for_selector("[data-hint-state='shown']", timeout=30_000)
    mine = {"Authorization": f"Bearer {me.token}"}
    view = requests.get(f"{server.url}{API}/games/{game['id']}", headers=mine, timeout=5).json()
    card = page.get_attribute(".hand [data-hinted]", "data-card")
    legal = [a for a in view["you"]["legal_actions"] if a.get("card") == card]
    assert legal, (card, view["you"]["legal_actions"])
    if variant == "sequence":
        cell = page.get_attribute("[data-cell][data-hinted]", "data-cell")
        assert [int(n) for n in cell.split(",")] in [a["cell"] for a in legal]
    text = page.text_content("[data-hint-state='shown']")
    assert "%" in text and len(text) > 15
    shoot(page, f"hint-{variant}")
    assert not open_page.problems, open_page.problems

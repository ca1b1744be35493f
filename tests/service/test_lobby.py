"""The lobby, by the service's rules alone: taking seats, leaving before and after
the deal, and who may cancel."""

from __future__ import annotations

import pytest

from stacks_api.model.refusals import Refusal
from stacks_api.service import GameService


def test_leaving_before_the_deal_opens_the_seat_and_after_it_the_stand_in_plays(
    service: GameService,
):
    view, _ = service.lobby.create({"variant": "stacks", "players": 3})
    game_id = view["id"]
    ada = service.lobby.join(game_id, "Ada", 0)["token"]
    service.lobby.leave(game_id, ada)
    record = service.store.load(game_id)
    assert record.status == "waiting" and record.seats[0].state == "free"
    with pytest.raises(Refusal) as gone:
        service.play.view(game_id, ada)
    assert gone.value.code == "unauthorized", "the token left with its seat"

    tokens = [service.lobby.join(game_id, name, n)["token"] for n, name in enumerate("ABC")]
    assert service.store.load(game_id).status == "active"
    service.lobby.leave(game_id, tokens[1])
    record = service.store.load(game_id)
    assert record.seats[1].state == "left" and record.seats[1].played_by_server
    assert record.status == "active"


def test_a_full_table_takes_nobody_and_only_the_host_cancels_before_the_deal(service):
    view, host = service.lobby.create({"variant": "sequence", "players": 2})
    game_id = view["id"]
    token = service.lobby.join(game_id, "Ada", 0)["token"]
    with pytest.raises(Refusal) as stranger:
        service.lobby.cancel(game_id, token)
    assert stranger.value.code == "unauthorized"
    service.lobby.join(game_id, "Bo", 1)
    with pytest.raises(Refusal) as full:
        service.lobby.join(game_id, "Cy", None)
    assert full.value.code == "game_full"
    with pytest.raises(Refusal) as dealt:
        service.lobby.cancel(game_id, host)
    assert dealt.value.code == "game_started"

"""Every way a game ends goes through one path (``changes.ended``): whatever ended
it, the game is left with its status and result, nobody to move, no deadline, no
worker due, and a committed deal's secrets shown on the event that ended it."""

from __future__ import annotations

from typing import Any

import pytest

from stacks_api.commands.verify import NOT_APPLICABLE, VERIFIED, verify_record
from stacks_api.model.events import ends_game
from stacks_api.service import GameService

from .conftest import Clock, account


def two_people(service: GameService, **options: Any) -> tuple[str, list[str]]:
    view, _ = service.lobby.create({"variant": "sequence", "players": 2, "options": options})
    tokens = [service.lobby.join(view["id"], f"P{n}", n)["token"] for n in range(2)]
    return view["id"], tokens


def play_first_legal(service: GameService, game_id: str, tokens: list[str], moves: int) -> None:
    for _ in range(moves):
        record = service.store.load(game_id)
        assert record is not None
        mover = record.to_move[0]
        legal = service.play.view(game_id, tokens[mover])["you"]["legal_actions"]
        service.play.act(game_id, tokens[mover], legal[0])


def assert_ended_once(service: GameService, game_id: str, status: str, dealt: bool = True) -> None:
    record = service.store.load(game_id)
    assert record is not None and record.status == status
    assert (record.to_move, record.deadline, record.turn_deadline, record.due_at) == (
        (), None, None, None)  # fmt: skip
    events = service.store.events_after(game_id, 0)
    ending = [e for e in events if ends_game(e)]
    assert len(ending) == 1, "one event ends the game"
    assert ending[0]["server_seed"] == record.fairness.server_seed  # the deal's secret shown
    assert not any("server_seed" in e for e in events if e is not ending[0])
    # whatever ended it, its record checks out with no server (stacks-api verify)
    verdict = verify_record(service.play.record(game_id))
    assert verdict.outcome == (VERIFIED if dealt else NOT_APPLICABLE), verdict


def test_a_win_on_the_board(service):
    game_id, tokens = two_people(service)
    for _ in range(300):
        record = service.store.load(game_id)
        if record.ended:
            break
        play_first_legal(service, game_id, tokens, 1)
    assert_ended_once(service, game_id, "finished")


def test_a_resignation_and_a_claim(service, clock: Clock):
    game_id, tokens = two_people(service)
    service.concede.resign(game_id, tokens[0])
    assert_ended_once(service, game_id, "finished")
    assert service.store.load(game_id).result.scores == (0.0, 1.0)

    game_id, tokens = two_people(service, turn_seconds=10)
    for _ in range(3):  # the mover's clock runs out three times: away
        record = service.store.load(game_id)
        clock.now += 11
        service.turns.advance(game_id)
        if service.store.load(game_id).to_move != record.to_move:
            other = 1 - record.to_move[0]
            if service.store.load(game_id).to_move == (other,):
                play_first_legal(service, game_id, tokens, 1)
    away = [s for s, seat in enumerate(service.store.load(game_id).seats) if seat.state == "away"]
    assert away, "a seat went away"
    service.concede.claim(game_id, tokens[1 - away[0]])
    assert_ended_once(service, game_id, "finished")


def test_an_abort_and_a_forfeit(service):
    game_id, tokens = two_people(service)
    service.concede.abort(game_id, tokens[1])
    assert_ended_once(service, game_id, "aborted")
    assert service.store.load(game_id).result is None

    game_id, _ = two_people(service)
    service.concede.forfeit(game_id, [0])
    assert_ended_once(service, game_id, "finished")


def test_a_cancellation_before_and_after_the_deal(service):
    view, host = service.lobby.create({"variant": "stacks", "players": 2})
    service.lobby.join(view["id"], "Ada", 0)
    service.lobby.cancel(view["id"], host)
    assert_ended_once(service, view["id"], "cancelled", dealt=False)

    game_id, tokens = two_people(service)
    service.lobby.cancel(game_id, tokens[0])
    assert service.store.load(game_id).status == "active", "one of two agreed"
    service.lobby.cancel(game_id, tokens[1])
    assert_ended_once(service, game_id, "cancelled")


def test_an_ended_game_takes_no_further_end(service):
    game_id, tokens = two_people(service)
    service.concede.resign(game_id, tokens[0])
    for end in (lambda: service.concede.resign(game_id, tokens[1]),
                lambda: service.concede.abort(game_id, tokens[1]),
                lambda: service.lobby.cancel(game_id, tokens[1])):  # fmt: skip
        with pytest.raises(Exception) as refused:
            end()
        assert getattr(refused.value, "code", None) == "game_not_active"
    assert_ended_once(service, game_id, "finished")


def test_account_seats_of_a_closed_account_are_refused_and_leave(service, archive):
    ada, key = account(service, "Ada")
    view, _ = service.lobby.create({"variant": "sequence", "players": 2})
    token = service.lobby.join(view["id"], None, 0, token=key)["token"]
    service.lobby.join(view["id"], "Bo", 1)
    assert archive.moderation.close(ada, "test")
    service.table._closed = type(service.table._closed)(0)  # ask the archive every time
    with pytest.raises(Exception) as refused:
        service.chat.say(view["id"], token, "hello")
    assert getattr(refused.value, "code", None) == "account_closed"
    service.closures.sweep(service.table.clock())
    record = service.store.load(view["id"])
    assert record.seats[0].state == "left" and record.status == "active"

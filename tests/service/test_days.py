"""Games over days, on a calendar the test turns: the reminder before a deadline,
vacation days taken one by one once it passed, then the forfeit (or, in the
opening, the abort); the bank's arithmetic; whose turn it is."""

from __future__ import annotations

import pytest

from stacks_api.model.pace import DAY_S, VACATION_MOST, banked, reminder_at
from stacks_api.model.refusals import Refusal
from stacks_api.service import GameService

from .conftest import Clock, account


def days_game(service: GameService, days: int, keys: list[str | None]) -> tuple[str, list[str]]:
    view, _ = service.lobby.create({"variant": "sequence", "players": 2, "options": {"days": days}})
    tokens = [service.lobby.join(view["id"], f"P{n}", n, token=key)["token"]
              for n, key in enumerate(keys)]  # fmt: skip
    return view["id"], tokens


def play(service: GameService, game_id: str, tokens: list[str], moves: int) -> None:
    for _ in range(moves):
        mover = service.store.load(game_id).to_move[0]
        legal = service.play.view(game_id, tokens[mover])["you"]["legal_actions"]
        service.play.act(game_id, tokens[mover], legal[0])


def test_a_days_game_reminds_then_spends_vacation_then_is_lost(service, clock: Clock):
    ada, ada_key = account(service, "Ada")
    _, bo_key = account(service, "Bo")
    game_id, tokens = days_game(service, 3, [ada_key, bo_key])
    view = service.play.view(game_id, tokens[0])
    assert view["pace"] == {"days": 3}
    assert [p["vacation_days_left"] for p in view["players"]] == [10, 10]
    play(service, game_id, tokens, 4)  # two moves of each side: the opening is over
    record = service.store.load(game_id)
    mover = record.to_move[0]
    late, late_key = (ada, ada_key) if mover == 0 else (None, bo_key)
    deadline = record.turn_deadline
    assert deadline == pytest.approx(clock.now + 3 * DAY_S)

    feed_player = service.players.me(late_key)
    told, _ = service.account_feed.first(feed_player, None)
    clock.now = reminder_at(deadline, 3) - 1
    assert not [e for e in service.account_feed.poll(feed_player, told)
                if e["type"] == "turn_reminder"]  # fmt: skip
    clock.now = reminder_at(deadline, 3) + 1
    reminders = [e for e in service.account_feed.poll(feed_player, told)
                 if e["type"] == "turn_reminder"]  # fmt: skip
    assert len(reminders) == 1 and reminders[0]["deadline"] == deadline

    taken = []
    for _ in range(30):
        record = service.store.load(game_id)
        if record.ended:
            break
        clock.now = record.turn_deadline + 1
        service.turns.advance(game_id)
        taken += [e for e in service.store.events_after(game_id, record.version)
                  if e["type"] == "vacation"]  # fmt: skip
    record = service.store.load(game_id)
    assert [e["days_left"] for e in taken] == list(range(9, -1, -1)), "whole days, one a deadline"
    assert record.status == "finished" and record.result.scores[mover] == 0.0
    last = service.store.events_after(game_id, 0)[-1]
    assert last["type"] == "timeout" and last["forfeit"] is True and last["seat"] == mover
    assert "result" in last and last["server_seed"]
    if late is not None:
        assert service.players.mine(late)["vacation_days"] == 0


def test_a_days_game_whose_opening_is_not_over_is_aborted_at_the_deadline(service, clock):
    game_id, _ = days_game(service, 1, [None, None])  # guests: no vacation bank
    deadline = service.store.load(game_id).turn_deadline
    clock.now = deadline + 1
    service.turns.advance(game_id)
    record = service.store.load(game_id)
    assert record.status == "aborted" and record.result is None
    assert service.store.events_after(game_id, 0)[-1]["timeout"] is True


def test_a_day_is_taken_once_however_often_the_deadline_is_looked_at(service, archive, clock):
    ada, _ = account(service, "Ada")
    first = archive.vacations.take_day("g1", 0, 1000.0, ada)
    again = archive.vacations.take_day("g1", 0, 1000.0, ada)
    assert first == again and archive.vacations.banks([ada])[ada] == pytest.approx(first, abs=1e-3)
    assert archive.vacations.take_day("g1", 0, 1000.0 + DAY_S, ada) == pytest.approx(first - 1)
    assert archive.vacations.take_day("g2", 1, 5.0, None) is None  # a guest has no bank


def test_the_bank_earns_thirty_days_a_year_up_to_thirty():
    assert banked(10.0, 0.0, 365 * DAY_S / 2) == pytest.approx(25.0)
    assert banked(10.0, 0.0, 10 * 365 * DAY_S) == VACATION_MOST
    assert banked(3.0, 100.0, 100.0) == 3.0


def test_days_and_a_clock_do_not_mix_and_days_are_a_few(service):
    for options in ({"days": 4}, {"days": 1, "turn_seconds": 30}, {"days": True}):
        with pytest.raises(Refusal) as refused:
            service.lobby.create({"variant": "sequence", "players": 2, "options": options})
        assert refused.value.code == "validation_error"


def test_whose_turn_lists_the_games_waiting_nearest_deadline_first(service, clock):
    ada, ada_key = account(service, "Ada")
    made = [days_game(service, days, [ada_key, None]) for days in (14, 1)]
    for game_id, tokens in made:  # the guest moves first where it is to move
        if service.store.load(game_id).to_move[0] == 1:
            play(service, game_id, tokens, 1)
    later, soon = (game_id for game_id, _ in made)
    assert [g["id"] for g in service.players.waiting(ada)] == [soon, later]
    assert service.players.mine(ada)["turn_count"] == 2
    play(service, soon, made[1][1], 1)  # Ada plays: that game waits for the guest now
    assert [g["id"] for g in service.players.waiting(ada)] == [later]

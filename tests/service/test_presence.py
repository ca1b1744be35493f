"""Presence on a clock the test turns: online, away, offline, the stream's presence
events, the claim of a game without clock or days, and pushes held back while a
person looks at the game or sleeps."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from stacks_api.model.refusals import Refusal
from stacks_api.service import GameService
from stacks_api.service.people import AWAY_S, CLAIMABLE_S, ONLINE_S
from stacks_api.service.preferences import quiet_until

from .conftest import Clock, account


def two_people(service: GameService) -> tuple[str, list[str]]:
    view, _ = service.lobby.create({"variant": "sequence", "players": 2})
    return view["id"], [service.lobby.join(view["id"], f"P{n}", n)["token"] for n in range(2)]


def presences(service: GameService, game_id: str) -> list[str]:
    return [p["presence"] for p in service.play.view(game_id, None)["players"]]


def test_a_person_is_online_then_away_then_offline(service, clock: Clock):
    game_id, tokens = two_people(service)
    assert presences(service, game_id) == ["online", "online"]  # taking a seat is a sign of life
    clock.now += ONLINE_S + 1
    service.play.view(game_id, tokens[1])
    assert presences(service, game_id) == ["away", "online"]
    clock.now += AWAY_S
    assert presences(service, game_id) == ["offline", "away"]
    seen_at = service.play.view(game_id, None)["players"][0]["seen_at"]
    assert seen_at % 60 == 0 and abs(seen_at - (clock.now - AWAY_S - ONLINE_S - 1)) <= 30


def test_a_streams_ticks_tell_each_change_once_and_keep_its_seat_online(service, clock):
    game_id, _ = two_people(service)
    tick = service.people.ticker(game_id, 1)
    assert tick() == []  # the view already shows where everyone is
    assert tick() == []
    for _ in range(5):  # keep-alives every 15 s: seat 1 stays online, seat 0 fades
        clock.now += 15
        changed = tick()
    assert presences(service, game_id) == ["away", "online"]
    assert all(e["seat"] == 0 for e in changed)


def test_a_game_without_clock_is_claimed_only_once_its_mover_is_gone(service, clock):
    game_id, tokens = two_people(service)
    mover = service.store.load(game_id).to_move[0]
    waiting = tokens[1 - mover]
    with pytest.raises(Refusal) as early:
        service.concede.claim(game_id, waiting)
    assert early.value.code == "opponent_present"
    clock.now += CLAIMABLE_S - 10
    service.play.view(game_id, waiting)  # the one waiting is here all along
    with pytest.raises(Refusal):
        service.concede.claim(game_id, waiting)
    clock.now += 20
    service.concede.claim(game_id, waiting, "bot")
    record = service.store.load(game_id)
    assert record.seats[mover].state == "left" and record.status == "active"

    game_id, tokens = two_people(service)
    mover = service.store.load(game_id).to_move[0]
    clock.now += CLAIMABLE_S + 1
    service.concede.claim(game_id, tokens[1 - mover])
    record = service.store.load(game_id)
    assert record.status == "finished" and record.result.scores[1 - mover] == 1.0
    with pytest.raises(Refusal) as mine:  # the mover cannot claim against themself
        other, tokens = two_people(service)
        mover = service.store.load(other).to_move[0]
        clock.now += CLAIMABLE_S + 1
        service.concede.claim(other, tokens[mover])
    assert mine.value.code == "nothing_to_claim"


def test_no_push_for_a_game_its_person_looks_at_and_none_in_quiet_hours(service, clock):
    ada, key = account(service, "Ada")
    book = service.archive.pushes
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
    subscription = book.subscribe(ada, "https://push.example/s", keys["p256dh"], keys["auth"],
                                  ["your_turn"])  # fmt: skip
    view, _ = service.lobby.create({"variant": "sequence", "players": 2})
    service.lobby.join(view["id"], None, 0, token=key)
    turn = {"type": "your_turn", "game_id": view["id"], "seat": 0, "version": 3, "variant": "x"}
    assert service.pushes.queue(ada, [turn], clock.now) == 0, "she is at that table"
    clock.now += ONLINE_S + 1
    assert service.pushes.queue(ada, [turn], clock.now) == 1
    assert service.pushes.queue(ada, [turn], clock.now) == 0, "queued once"
    assert book.queued() == 1 and subscription["events"] == ["your_turn"]


def test_quiet_hours_hold_pushes_until_they_end():
    zone = ZoneInfo("Europe/Bucharest")
    quiet = {"quiet_hours": {"from": "22:00", "to": "07:00", "tz": "Europe/Bucharest"}}
    night = dt.datetime(2026, 12, 6, 23, 30, tzinfo=zone).timestamp()
    morning = dt.datetime(2026, 12, 7, 7, 0, tzinfo=zone).timestamp()
    assert quiet_until(quiet, night) == morning
    assert quiet_until(quiet, dt.datetime(2026, 12, 7, 3, 0, tzinfo=zone).timestamp()) == morning
    assert quiet_until(quiet, dt.datetime(2026, 12, 7, 12, 0, tzinfo=zone).timestamp()) is None
    assert quiet_until({"quiet_hours": None}, night) is None


def test_the_view_names_the_moment_an_absent_mover_can_be_claimed(service, clock):
    game_id, tokens = two_people(service)
    mover = service.store.load(game_id).to_move[0]
    waiting = tokens[1 - mover]

    def claimable_at() -> float | None:
        return service.play.view(game_id, waiting)["players"][mover]["claimable_at"]

    assert claimable_at() is None  # here now: nothing to count down to
    clock.now += ONLINE_S + 1
    moment = claimable_at()
    assert moment is not None and moment > clock.now
    clock.now = moment - 1
    with pytest.raises(Refusal) as early:
        service.concede.claim(game_id, waiting)
    assert early.value.code == "opponent_present"
    clock.now = moment
    service.concede.claim(game_id, waiting)
    assert service.store.load(game_id).status == "finished"
    clocked, _ = service.lobby.create({"variant": "sequence", "players": 2,
                                       "options": {"turn_seconds": 60}})  # fmt: skip
    assert all(p["claimable_at"] is None for p in service.play.view(clocked["id"], None)["players"])


def test_a_claim_counts_from_the_last_sighting_not_the_last_write(service, clock):
    """Sightings are written at most every 15 s a process: one in between was lost,
    so a claim could come up to 15 s before its 4 minutes. Now it is kept and
    written within a second, and the claim counts from it."""
    game_id, tokens = two_people(service)
    mover = service.store.load(game_id).to_move[0]
    waiting = tokens[1 - mover]
    clock.now += 2
    service.play.view(game_id, tokens[mover])  # written
    clock.now += 10
    service.play.view(game_id, tokens[mover])  # within 15 s of the write: kept for later
    last = clock.now
    service.people.flush()  # what the process's flusher does within a second
    assert service.store.presence.of(game_id)[mover] == last
    clock.now = last + CLAIMABLE_S - 1
    service.play.view(game_id, waiting)
    with pytest.raises(Refusal) as early:
        service.concede.claim(game_id, waiting)
    assert early.value.code == "opponent_present"
    clock.now = last + CLAIMABLE_S
    service.concede.claim(game_id, waiting)
    assert service.store.load(game_id).status == "finished"

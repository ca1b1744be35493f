"""Tournaments, by the service's rules alone: what one account may make and enter,
when one starts or is cancelled, and the budget its games of bots spend."""

from __future__ import annotations

from dataclasses import replace

import pytest

from stacks_api.model.refusals import Refusal
from stacks_api.service import GameService
from stacks_api.service.tournaments import GATHER_S, MOST_BOTS, MOST_UPCOMING

from .conftest import Clock, account


def swiss(service: GameService, creator: str, starts_at: float, rounds: int = 1) -> str:
    body = {"variant": "sequence", "system": "swiss", "rounds": rounds, "starts_at": starts_at}
    made = service.tournaments.create(creator, body)
    return str(made["id"])


def test_an_account_makes_so_many_upcoming_tournaments(service: GameService, clock: Clock):
    ada, _ = account(service, "Ada")
    for _ in range(MOST_UPCOMING):
        swiss(service, ada, clock.now + 3600)
    with pytest.raises(Refusal) as refused:
        swiss(service, ada, clock.now + 3600)
    assert refused.value.code == "too_many_tournaments"


def test_a_tournament_waits_for_a_second_entry_then_is_cancelled(service, clock: Clock):
    ada, _ = account(service, "Ada")
    lonely = swiss(service, ada, clock.now)
    service.tournaments.join(ada, lonely, None)
    service.tournaments.step(clock.now + GATHER_S / 2)
    assert service.tournaments.get(lonely)["status"] == "upcoming"
    bo, _ = account(service, "Bo")
    paired = swiss(service, bo, clock.now)
    service.tournaments.join(bo, paired, None)
    service.tournaments.join(ada, paired, None)
    service.tournaments.step(clock.now + GATHER_S + 1)
    assert service.tournaments.get(lonely)["status"] == "cancelled"
    assert service.tournaments.get(paired)["status"] == "running"
    assert lonely not in service.archive.tournaments.live(clock.now + GATHER_S + 2)


def test_a_creator_enters_so_many_bots_and_their_games_spend_its_budget(service, clock):
    ada, _ = account(service, "Ada")
    made = swiss(service, ada, clock.now)
    service.tournaments.join(ada, made, "random", MOST_BOTS)
    with pytest.raises(Refusal) as refused:
        service.tournaments.join(ada, made, "easy", 1)
    assert refused.value.code == "too_many_bots"
    service.tournaments.bots_alone = "3/hour"
    service.tournaments.step(clock.now)
    tables = service.tournaments.get(made)["pairings"][0]["tables"]
    made_games = [t for t in tables if service.store.load(t["game_id"]) is not None]
    assert len(tables) == MOST_BOTS // 2 and len(made_games) == 3


def test_a_round_made_meanwhile_keeps_a_tournament_from_finishing(service, clock):
    """Two workers step at once: one sees the arena's time up and every game over,
    the other has just paired a new wave. The arena must not finish under the new
    games, and no round may be added to a finished one."""
    ada, _ = account(service, "Ada")
    body = {"variant": "sequence", "system": "arena", "minutes": 5, "starts_at": clock.now}
    arena = str(service.tournaments.create(ada, body)["id"])
    service.tournaments.join(ada, arena, "random", 2)
    service.tournaments.step(clock.now)  # the first wave
    stale = service.archive.tournaments.get(arena)
    assert stale is not None and stale.round == 1
    later = replace(stale.tables[0], round=2, game_id="0" * 16, server_seed="0" * 64)
    assert service.archive.tournaments.add_round(arena, 2, [later])  # the other worker's wave
    # As the stale copy saw them: over.
    stale = replace(stale, tables=tuple(replace(t, points=(1.0, 0.0)) for t in stale.tables))
    over = clock.now + 5 * 60 + 1
    assert service.tournaments._arena_step(stale, over) == 0
    assert service.tournaments.get(arena)["status"] == "running"
    assert service.archive.tournaments.advance(arena, "running", "finished", over, 2)
    assert not service.archive.tournaments.add_round(arena, 3, [replace(later, round=3)])

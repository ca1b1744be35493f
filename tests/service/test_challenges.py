"""Challenges, by the service's rules alone: who may challenge whom, how many wait,
what an acceptance makes, and what an answer from a closed account meets."""

from __future__ import annotations

import pytest

from stacks_api.model.refusals import Refusal
from stacks_api.service import GameService
from stacks_api.service.challenges import DAYS_EXPIRES_S, EXPIRES_S, MOST_PENDING

from .conftest import Clock, account


def refused(code: str, call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(Refusal) as caught:
        call()
    assert caught.value.code == code


def test_an_acceptance_seats_both_accounts_in_the_deal_committed_to(service: GameService):
    ada, _ = account(service, "Ada")
    bo, _ = account(service, "Bo")
    made, token = service.challenges.challenge(ada, bo, {"variant": "sequence"})
    answer = service.challenges.answer(bo, made["id"], "accept", None)
    game = service.store.load(answer["challenge"]["game_id"])
    assert [s.player_id for s in game.seats] == [ada, bo]
    assert game.fairness.commitment == made["commitment"]
    assert service.play.view(game.id, token)["you"]["seat"] == 0
    refused("challenge_closed", lambda: service.challenges.answer(bo, made["id"], "decline", None))


def test_one_waits_per_pair_and_a_few_in_all(service: GameService):
    ada, _ = account(service, "Ada")
    others = [account(service, f"P{n}")[0] for n in range(MOST_PENDING + 1)]
    stacks = {"variant": "stacks"}
    service.challenges.challenge(ada, others[0], stacks)
    refused("challenge_pending", lambda: service.challenges.challenge(ada, others[0], stacks))
    for other in others[1:MOST_PENDING]:
        service.challenges.challenge(ada, other, stacks)
    refused("rate_limited", lambda: service.challenges.challenge(ada, others[-1], stacks))
    refused("validation_error", lambda: service.challenges.challenge(ada, ada, stacks))


def test_an_unanswered_challenge_expires(service: GameService, clock: Clock):
    ada, _ = account(service, "Ada")
    bo, _ = account(service, "Bo")
    made, _ = service.challenges.challenge(ada, bo, {"variant": "sequence"})
    clock.now += EXPIRES_S + 1
    assert service.challenges.get(bo, made["id"])["status"] == "expired"
    refused("challenge_closed", lambda: service.challenges.answer(bo, made["id"], "accept", None))


def test_a_days_challenge_waits_days_for_its_answer(service: GameService, clock: Clock):
    ada, _ = account(service, "Ada")
    bo, _ = account(service, "Bo")
    made, _ = service.challenges.challenge(ada, bo, {"variant": "sequence", "days": 2})
    clock.now += EXPIRES_S + 1  # a clocked challenge would have expired
    assert service.challenges.get(bo, made["id"])["status"] == "pending"
    answer = service.challenges.answer(bo, made["id"], "accept", None)
    assert service.store.load(answer["challenge"]["game_id"]).days == 2
    late, _ = service.challenges.challenge(ada, bo, {"variant": "stacks", "days": 1})
    clock.now += DAYS_EXPIRES_S + 1
    assert service.challenges.get(bo, late["id"])["status"] == "expired"


def test_a_closed_challenger_cannot_be_accepted(service: GameService, archive):
    ada, _ = account(service, "Ada")
    bo, _ = account(service, "Bo")
    made, _ = service.challenges.challenge(ada, bo, {"variant": "sequence"})
    assert archive.moderation.close(ada, "test")
    service.table._closed = type(service.table._closed)(0)  # ask the archive every time
    refused("challenge_closed", lambda: service.challenges.answer(bo, made["id"], "accept", None))
    assert service.challenges.get(bo, made["id"])["status"] == "cancelled"

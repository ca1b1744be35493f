"""The analysis of an ended game: each person's move scored by the strong bot, and
the luck of the cards.

The game is dealt again from its record and replayed change by change. Before
each move a person made (not a stand-in's, not after they left), the strong
bot's search runs on that seat's own view with the move played among its
candidates: ``win_before`` is the best candidate's estimated chance of winning,
``win_after`` the played move's, and ``best`` the move the strong bot would have
played. A drop of ``MISTAKE`` or more is marked a mistake. The luck section
counts, for each seat, the cards it received and how many were the variant's
lucky ones (jacks, wilds) against what the deck's share of them promised.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace

from .. import variants
from ..bots.ismcts import search, tuned
from ..bots.rollout import action_key
from ..engine import Game
from ..engine.replay import public, replay
from ..model.events import SERVER_EVENTS
from ..model.record import JSON
from .replay import dealt, played_to

MISTAKE = 0.1  # a move that loses this much of the chance of winning
ACTION_TYPES = ("play", "exchange", "pass", "discard")
SAFETY_S = 30.0  # the strong budget in iterations: a time cap far above it, a safety net


def analyse(document: JSON, seed: int = 0) -> JSON:
    """The analysis of an ended game, from its record document."""
    variant = variants.get(document["variant"])
    assert variant is not None, "a kept game always has a registered variant"
    people = {s["seat"] for s in document["seats"] if s["bot"] is None}
    gone = {e["seat"]: e["version"] for e in document["events"] if e["type"] == "left"}
    stood_in = {e["version"] for e in document["events"] if e["type"] == "timeout"}
    game = dealt(document)
    players = document["players"]
    lucky, share = variant.bots.luck(players)
    hands = [Counter(hand_of(game, seat)) for seat in range(players)]
    received = [Counter(hand) for hand in hands]
    rng = random.Random(seed)
    moves = []
    for version, changes in _changes(document):
        first = changes[0]
        seat = first.get("seat")
        own = seat in people and version < gone.get(seat, math.inf) and version not in stood_in
        if own and isinstance(seat, int) and first["type"] in ACTION_TYPES:
            scored = _score(game, seat, first, rng)
            if scored is not None:
                moves.append({"version": version, "seat": seat, **scored})
        trial, failed = replay(game.copy(), changes)
        game = played_to(document, version) if failed is not None else trial
        after = [Counter(hand_of(game, s)) for s in range(players)]
        for s in range(players):
            received[s] += after[s] - hands[s]
        hands = after
    luck = [{"seat": s, "received": sum(got.values()),
             "lucky": sum(n for card, n in got.items() if card in lucky),
             "expected": round(sum(got.values()) * share, 2)}
            for s, got in enumerate(received)]  # fmt: skip
    return {"moves": moves, "luck": {"cards": sorted(lucky), "seats": luck}}


def hand_of(game: Game, seat: int) -> list[str]:
    hand: list[str] = game.view(seat)["you"]["hand"]
    return hand


def _changes(document: JSON) -> list[tuple[int, list[JSON]]]:
    """The rules' events of each change after the deal, by version, as compared."""
    events = document["events"]
    started = next((e["version"] for e in events if e["type"] == "started"), None)
    if started is None:
        return []
    by_version: dict[int, list[JSON]] = {}
    for event in events:
        if event["version"] > started and event["type"] not in SERVER_EVENTS | {"game_over"}:
            by_version.setdefault(event["version"], []).append(public(event))
    return sorted(by_version.items())


def _score(game: Game, seat: int, event: JSON, rng: random.Random) -> JSON | None:
    """The played move beside the strong bot's (None where there was no choice, or no
    search can look at the moment)."""
    view = game.view(seat)
    legal = view["you"]["legal_actions"]
    kit = variants.get(view["variant"])
    assert kit is not None
    keys = game.action_keys.get(event["type"], frozenset())
    played = {k: event[k] for k in keys if k in event}
    if played not in legal or len({action_key(a) for a in legal}) < 2:
        return None
    if not kit.bots.sampled(view):
        return None
    budget = replace(tuned(view, 1.0), seconds=SAFETY_S)
    best, root = search(view, rng, budget, kit.bots.tuning.branching, include=played)
    if not kit.bots.worth_searching(view):
        best = kit.bots.policy(view, rng)  # where the strong bot plays its policy
    means = {key: node.total / node.visits for key, node in root.children.items()}
    before = means.get(action_key(best), max(means.values()))
    after = means[action_key(played)]
    reason = kit.bots.explain(view, best)  # the better move's why, as a hint words it
    return {
        "action": played,
        "win_before": round(before, 3),
        "win_after": round(after, 3),
        "best": best,
        "best_why": reason.pop("text"),
        "best_reason": reason,
        "mistake": before - after >= MISTAKE,
    }

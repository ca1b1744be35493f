"""Examples shown in the API explorer: requests of every kind, and responses taken
from real (seeded) games played through the engine when the app starts."""

from __future__ import annotations

import functools
import random
from typing import Any

from .. import variants
from ..engine import create_game

GAME_ID = "5f0c2a7e9b1d4c3a"
TOKEN = "q4Xo1c0Hn8Vd2bK5tWm7Zr9Ye3Lp6Sg0Fa4Ju8Ni2Q"
FAIRNESS = {
    "scheme": "commit-reveal-v2",
    "commitment": "9f64a747e1b97f131fabb6b447296c9b6f0201e79fb3c5356e6c77e89b6a806a",
    "dealer": None,
}


def _merged(part: str) -> dict[str, Any]:
    """Every registered variant's request examples of one kind, prefixed by its name."""
    return {
        f"{v.name}_{name}": body
        for v in variants.registered().values()
        for name, body in getattr(v.examples, part).items()
    }


def _dress(view: dict[str, Any], status: str, version: int, joined: bool = True) -> dict[str, Any]:
    """An engine view with the server's own fields, as the API sends it: two people
    at the first two seats (once joined), greedy bots after them."""
    view.update(id=GAME_ID, status=status, version=version, practice=False, deadline=None,
                rematch=None, fairness=FAIRNESS, cancel_agreed=[], unlisted=False,
                rated=False, unrated=None, tournament=None, duplicate=None,
                pace=None)  # fmt: skip
    for player in view["players"]:
        human = player["seat"] < 2
        name = (["Ada", "Grace"][player["seat"]] if joined else None) if human else "greedy bot"
        player.update(
            name=name,
            bot=None if human else "greedy",
            player_id=None,
            away=False,
            left=False,
            resigned=False,
            score=None,  # the examples are of games still being played
            presence=("online" if player["seat"] == 0 else "away") if human and joined else None,
            seen_at=1767225600 if human and joined else None,
            vacation_days_left=None,  # only in games over days
            bot_account=False,
            # no clock, no days: claimable 4 minutes after last seen
            claimable_at=1767225840 if human and joined and status == "active" else None,
        )
    if status != "active":
        view["to_move"] = []
    variant = variants.get(view["variant"])
    assert variant is not None
    dumped: dict[str, Any] = variant.schemas.view().dump(view)  # in the order the API sends
    return dumped


@functools.cache
def played(variant: variants.Variant) -> dict[str, Any]:
    """Views and events of the variant's example game: seeded, after random moves."""
    shown = variant.examples
    game = create_game(variant.name, players=shown.players, seed=shown.seed)
    created = _dress(game.view(None), "waiting", 1, joined=False)
    rng = random.Random(shown.seed)
    version = 2 + min(shown.players, 2)  # created, each person's join, started
    events: list[dict[str, Any]] = []
    actor = 0
    for _ in range(shown.moves):
        actor = game.to_move[0]
        version += 1
        applied = game.apply(actor, rng.choice(game.legal_actions(actor)), now=0.0)
        events += [{"version": version, **e} for e in applied]
    mover = game.to_move[0]
    return {
        "created": created,
        "view": _dress(game.view(mover), "active", version),
        "legal": game.legal_actions(mover),
        "acted": _dress(game.view(actor), "active", version),
        "events": events,
    }


_FIRST = next(iter(variants.registered().values()))
CREATE = _merged("create")
ACTIONS = {
    **_merged("actions"),
    "with_version": variants.example(
        "Any action, refused with 412 unless the game is at version 12",
        {"type": "pass", "expected_version": 12},
    ),
}
VIEWS = {
    v.name: variants.example(f"{v.title}, as the seat to move sees it", played(v)["view"])
    for v in variants.registered().values()
}
_SHOWN = played(_FIRST)
ACTION_RESULT = {
    "game": _SHOWN["acted"],
    "events": [e for e in _SHOWN["events"] if e["version"] == _SHOWN["acted"]["version"]],
}
EVENTS = {"variant": _FIRST.name, "events": _SHOWN["events"]}
CREATED = {"game": _SHOWN["created"], "host_token": TOKEN}
JOINED = {"seat": 0, "team": 0, "token": TOKEN}
LISTING = {
    "games": [
        {
            "id": GAME_ID,
            "variant": _FIRST.name,
            "status": "waiting",
            "players": 3,
            "version": 2,
            "practice": False,
            "created_at": 1796083200.0,
            "seats": [
                {"seat": 0, "name": "Ada", "bot": None, "free": False},
                {"seat": 1, "name": None, "bot": None, "free": True},
                {"seat": 2, "name": "greedy bot", "bot": "greedy", "free": False},
            ],
        }
    ],
    "page": 1,
    "page_size": 20,
    "total": 1,
    "next": None,
}

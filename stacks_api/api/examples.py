"""Examples shown in the API explorer: requests of every kind, and responses taken
from real (seeded) games played through the engine when the app starts."""

from __future__ import annotations

import random
from typing import Any

from ..engine import create_game
from .schemas import GameViewSchema

GAME_ID = "5f0c2a7e9b1d4c3a"
TOKEN = "q4Xo1c0Hn8Vd2bK5tWm7Zr9Ye3Lp6Sg0Fa4Ju8Ni2Q"


def _example(summary: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"summary": summary, "value": value}


CREATE = {
    "sequence_vs_bot": _example(
        "Sequence, you against the greedy bot",
        {"variant": "sequence", "players": 2, "seats": [{}, {"bot": "greedy"}]},
    ),
    "stacks_vs_bots": _example(
        "Sequence Stacks, you against two bots (the search bot thinking up to 1 s)",
        {
            "variant": "stacks",
            "players": 3,
            "seats": [{}, {"bot": "greedy"}, {"bot": "pimc", "options": {"seconds": 1}}],
        },
    ),
    "stacks_three": _example(
        "Sequence Stacks for three, Block asked only of holders",
        {"variant": "stacks", "players": 3, "options": {"block_window": "holders"}},
    ),
    "sequence_teams": _example(
        "Sequence, six players in three teams",
        {"variant": "sequence", "players": 6, "options": {"teams": 3}},
    ),
}

ACTIONS = {
    "sequence_play": _example(
        "Sequence: place a chip (or a two-eyed jack anywhere open)",
        {"type": "play", "card": "7H", "cell": [4, 8]},
    ),
    "sequence_remove": _example(
        "Sequence: a one-eyed jack removes an opposing chip",
        {"type": "play", "card": "JS", "cell": [2, 3]},
    ),
    "sequence_exchange": _example(
        "Sequence: trade a dead card", {"type": "exchange", "card": "2S"}
    ),
    "stacks_pile": _example(
        "Stacks: a card onto pile 0", {"type": "play", "card": "B1", "pile": 0}
    ),
    "stacks_from_discard": _example(
        "Stacks: the top of your own discard pile onto pile 2",
        {"type": "play", "card": "R3", "pile": 2, "from": "discard"},
    ),
    "stacks_skip": _example("Stacks: Skip", {"type": "play", "card": "SKIP"}),
    "stacks_reverse": _example("Stacks: Reverse", {"type": "play", "card": "REVERSE"}),
    "stacks_steal_card": _example(
        "Stacks: Steal a Card from seat 2", {"type": "play", "card": "STEAL_CARD", "target": 2}
    ),
    "stacks_steal_chip": _example(
        "Stacks: Steal a red chip from seat 1",
        {"type": "play", "card": "STEAL_CHIP", "target": 1, "color": "red"},
    ),
    "stacks_block": _example(
        "Stacks: Block, inside a block window", {"type": "play", "card": "BLOCK"}
    ),
    "stacks_discard": _example(
        "Stacks: discard to end the turn", {"type": "discard", "card": "R2"}
    ),
    "pass": _example("Pass (see the rules for when)", {"type": "pass"}),
    "with_version": _example(
        "Any action, refused with 412 unless the game is at version 12",
        {"type": "discard", "card": "B4", "expected_version": 12},
    ),
}


def _dress(view: dict[str, Any], status: str, version: int, joined: bool = True) -> dict[str, Any]:
    """An engine view with the server's own fields, as the API sends it: two people
    at the first two seats (once joined), greedy bots after them."""
    view.update(id=GAME_ID, status=status, version=version, practice=False)
    for player in view["players"]:
        human = player["seat"] < 2
        name = (["Ada", "Grace"][player["seat"]] if joined else None) if human else "greedy bot"
        player.update(name=name, bot=None if human else "greedy")
    if status != "active":
        view["to_move"] = []
    order = list(GameViewSchema._declared_fields)  # the order the API sends them in
    return dict(sorted(view.items(), key=lambda item: order.index(item[0])))


def _played(variant: str, players: int, seed: int, moves: int) -> dict[str, Any]:
    """Views and events of a seeded game after ``moves`` random legal moves."""
    game = create_game(variant, players=players, seed=seed)
    created = _dress(game.view(None), "waiting", 1, joined=False)
    rng = random.Random(seed)
    version = 2 + min(players, 2)  # created, each person's join, started
    events: list[dict[str, Any]] = []
    actor = 0
    for _ in range(moves):
        actor = game.to_move[0]
        version += 1
        applied = game.apply(actor, rng.choice(game.legal_actions(actor)), now=0.0)
        events += [{"version": version, **e} for e in applied]
    return {
        "created": created,
        "view": _dress(game.view(game.to_move[0]), "active", version),
        "acted": _dress(game.view(actor), "active", version),
        "events": events,
    }


SEQUENCE = _played("sequence", 2, seed=8, moves=6)
STACKS = _played("stacks", 3, seed=2, moves=10)

VIEWS = {
    "sequence": _example("Sequence, two players, as the seat to move sees it", SEQUENCE["view"]),
    "stacks": _example(
        "Sequence Stacks, three players, as the seat to move sees it", STACKS["view"]
    ),
}
ACTION_RESULT = {
    "game": SEQUENCE["acted"],
    "events": [e for e in SEQUENCE["events"] if e["version"] == SEQUENCE["acted"]["version"]],
}
EVENTS = {"events": SEQUENCE["events"]}
CREATED = {"game": SEQUENCE["created"], "host_token": TOKEN}
JOINED = {"seat": 0, "team": 0, "token": TOKEN}
LISTING = {
    "games": [
        {
            "id": GAME_ID,
            "variant": "stacks",
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
}

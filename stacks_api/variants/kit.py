"""What a variant is made of: its rules, its bots' knowledge, its API schemas and
examples, in one ``Variant``. A variant package builds one from these parts; the
registry (``stacks_api.variants``) holds them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from marshmallow import Schema

from ..rules.base import Game

View = dict[str, Any]
Action = dict[str, Any]
JSON = dict[str, Any]

BUILT_IN = ("stacks_api.variants.sequence", "stacks_api.variants.stacks")


class Playout(Protocol):
    """A sampled game played forward quickly by the variant's policy."""

    game: Game

    def fork(self) -> Playout:
        """An independent copy, to try another move from the same position."""

    def play(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat``."""

    def redeal(self, seat: int, rng: random.Random) -> None:
        """Deal the cards ``seat`` cannot see anew, in the same sizes (another world
        consistent with the same view)."""

    def suggest(self, rng: random.Random) -> Action:
        """The policy's move for the first seat to move (not played)."""

    def move(self, rng: random.Random) -> None:
        """Play the policy's move for whoever is to move."""

    def estimate(self) -> list[float]:
        """Per seat, how good the unfinished game is, from 0 (lost) to 1 (won)."""


@dataclass(frozen=True)
class Tuning:
    """How the tree search (``strong``; ``medium`` at a quarter of the iterations) plays
    this variant: iterations a decision, how many of the policy's best actions it
    considers at the root, the playout length (changes of who is to move, then the
    variant's estimate), the UCB exploration constant, and the time cap of one
    decision in seconds (a safety net: the iterations are the budget)."""

    iterations: int
    branching: int
    playout_turns: int
    exploration: float
    seconds: float


@dataclass(frozen=True)
class Bots:
    """What the bots know of a variant, all of it from views and the engine façade."""

    greedy: Callable[[View, random.Random], Action]
    """The greedy bot's move."""
    policy: Callable[[View, random.Random], Action]
    """The search's default move and its playout move."""
    rank: Callable[[View], Callable[[Action], float]]
    """A score per legal action; the search tries the best-scored ones."""
    sample_position: Callable[[View, random.Random], JSON]
    """A position consistent with the view, its hidden cards dealt at random."""
    playout: Callable[[Game], Playout]
    """Starts a playout on a sampled game."""
    tuning: Tuning
    worth_searching: Callable[[View], bool] = lambda view: True
    """False where the tree search plays the policy's move instead: where it is known
    to be as good as a search's, or where ``sample_position`` cannot express the
    moment."""
    explain: Callable[[View, Action], JSON] = lambda view, action: {
        "code": "best",
        "text": "the best move",
    }
    """Why an action is good, for a hint: ``{"code", <its words' parameters>, "text"}``."""
    sampled: Callable[[View], bool] = lambda view: True
    """Whether ``sample_position`` can express the view's moment (hints search only
    where it can)."""
    chances: Callable[[View], list[float]] = lambda view: [0.5] * len(view["players"])
    """Each seat's chance of winning by the variant's estimate, where no search is made."""
    luck: Callable[[int], tuple[frozenset[str], float]] = lambda players: (frozenset(), 0.0)
    """The cards an analysis counts as luck (jacks, wilds) for a number of players, and
    their share of the deck: what each seat should receive of them on average."""


@dataclass(frozen=True)
class Schemas:
    """The variant's parts of the API: marshmallow schemas, named after the variant in
    the OpenAPI document (``<Prefix>View``, ``<Prefix>Position``, ...)."""

    view: type[Schema]
    """The whole view of a game, common fields included."""
    actions: Mapping[str, type[Schema]]
    """Per action ``type``, that action's fields."""
    position: type[Schema]
    options: type[Schema]
    result: type[Schema]
    """A finished game's ``result``."""
    events: Mapping[str, type[Schema]]
    """Per event ``type`` its rules produce (besides ``game_over``), that event's fields."""
    log: Mapping[str, type[Schema]]
    """Per ``type`` of the view's ``log`` entries, that entry's fields."""


def example(summary: str, value: JSON) -> JSON:
    """One explorer example: what it shows, and the request body."""
    return {"summary": summary, "value": value}


@dataclass(frozen=True)
class Examples:
    """What the API explorer shows for the variant: requests, and a real game."""

    create: Mapping[str, JSON]
    """Create-game requests by example name, each ``{"summary": ..., "value": body}``."""
    actions: Mapping[str, JSON]
    """Action requests by example name, in the same form."""
    players: int
    seed: int
    moves: int
    """The example views come from a seeded game of ``players`` after ``moves`` random moves."""


@dataclass(frozen=True, eq=False)  # compared and hashed by identity
class Variant:
    """One game the server plays."""

    game: type[Game]
    title: str
    """The game's name for people."""
    schema_prefix: str
    """The prefix of its OpenAPI schema names (letters only)."""
    summary: str
    """Players and options in one paragraph, for the API documentation."""
    bots: Bots
    schemas: Schemas
    examples: Examples
    events: Mapping[str, str] = field(default_factory=dict)
    """What each event and log entry type (``schemas.events``, ``schemas.log``) means."""
    level_ratings: Mapping[str, float] = field(default_factory=dict)
    """Where each bot level's rating starts on a new server (``bot_ratings``): the
    ladder as measured, each gap the one its head-to-head win rate implies."""

    @property
    def name(self) -> str:
        return self.game.variant

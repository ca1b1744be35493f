"""A toy third variant, defined only here: two players take 1 to 3 stones from one
heap in turn, and whoever takes the last stone wins. It is everything a variant
plug-in must be (rules behind the engine façade, bots, API schemas, examples,
events) and nothing more, to show that the server needs no edit for a new game."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from marshmallow import Schema, fields, validate

from stacks_api.rules.base import JSON, Action, Event, Game, is_int
from stacks_api.rules.errors import SetupError, bad_action, illegal
from stacks_api.rules.rng import Rng
from stacks_api.variants import Bots, Examples, Schemas, Tuning, Variant
from stacks_api.variants.fields import (
    ActionShape,
    Parts,
    Strict,
    deal_entry,
    event,
    player_fields,
    ranged,
    seat_field,
    view_fields,
    you_fields,
)

MOST = 3


@dataclass(frozen=True)
class NimSetup:
    players: int
    stones: int


class NimGame(Game[NimSetup, JSON]):
    variant: ClassVar[str] = "nim"
    action_keys: ClassVar[dict[str, frozenset[str]]] = {"take": frozenset({"type", "count"})}
    setup: NimSetup

    def __init__(self, setup: NimSetup, rng: Rng) -> None:
        self.setup, self.players, self.rng = setup, setup.players, rng
        self.options: JSON = {"stones": setup.stones}
        self.result: JSON | None = None
        self.stones, self.turn = setup.stones, 0
        self.dealer: int | None = None
        self.log: list[Event] = []

    @classmethod
    def _resolve(cls, players: object, options: JSON | None) -> NimSetup:
        if players != 2 or not is_int(players):
            raise SetupError("nim is for exactly 2 players", "players")
        options = dict(options or {})
        stones = options.pop("stones", 15)
        if options:
            raise SetupError(f"unknown option {next(iter(options))!r}")
        if not is_int(stones) or not 1 <= stones <= 100:
            raise SetupError("stones must be a whole number from 1 to 100")
        return NimSetup(players, stones)

    @classmethod
    def _read(cls, position: object, setup: NimSetup, rng: Rng) -> JSON:
        if not isinstance(position, dict) or set(position) != {"stones", "turn"}:
            raise SetupError("a nim position is {stones, turn}", "position")
        stones, turn = position["stones"], position["turn"]
        if not (is_int(stones) and 1 <= stones <= 100 and is_int(turn) and turn in (0, 1)):
            raise SetupError("stones must be from 1 to 100 and turn 0 or 1", "position")
        return {"stones": stones, "turn": turn}

    def _deal(self, dealer: int | None) -> None:
        self.dealer = self.rng.below(2) if dealer is None else dealer
        self.turn = 1 - self.dealer
        self.log = [{"type": "deal", "dealer": self.dealer, "first": self.turn}]

    def _load(self, position: JSON) -> None:
        self.stones, self.turn = position["stones"], position["turn"]

    def _restore(self, data: JSON, trusted: bool) -> None:
        self.stones, self.turn = data["stones"], data["turn"]

    @property
    def to_move(self) -> list[int]:
        return [] if self.result is not None else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move:
            return []
        return [{"type": "take", "count": n} for n in range(1, min(MOST, self.stones) + 1)]

    def _check_shape(self, seat: object, action: object) -> None:
        super()._check_shape(seat, action)
        assert isinstance(action, dict)
        if not is_int(action.get("count")) or not 1 <= action["count"] <= MOST:
            raise bad_action(f"count must be a whole number from 1 to {MOST}")

    def _apply(self, seat: int, action: Action, now: float | None) -> list[Event]:
        if action["count"] > self.stones:
            raise illegal(f"only {self.stones} stones are left")
        self.stones -= action["count"]
        events: list[Event] = [{"type": "take", "seat": seat, "count": action["count"]}]
        if self.stones == 0:
            self._finish({"winner_seat": seat}, events)
        else:
            self.turn = 1 - seat
        return events

    def view(self, seat: int | None = None) -> JSON:
        out: JSON = {
            "variant": self.variant,
            "status": self.status,
            "options": dict(self.options),
            "players": [
                {"seat": s, "hand_size": 0, "discard_top": None} for s in range(self.players)
            ],
            "to_move": self.to_move,
            "result": self.result,
            "turn": self.turn,
            "dealer": self.dealer,
            "log": self.log,
            "discards": [[], []],
            "draw_pile_count": 0,
            "stones": self.stones,
        }
        if seat is not None:
            out["you"] = {"seat": seat, "hand": [], "legal_actions": self.legal_actions(seat)}
        return out

    def _saved(self) -> JSON:
        return {"stones": self.stones, "turn": self.turn}


# -- bots: leave a multiple of four ------------------------------------------------


def greedy(view: JSON, rng: random.Random) -> Action:
    legal = view["you"]["legal_actions"]
    winning = [a for a in legal if (view["stones"] - a["count"]) % (MOST + 1) == 0]
    return winning[0] if winning else rng.choice(legal)


class Playout:
    def __init__(self, game: Game) -> None:
        self.game = game

    def fork(self) -> Playout:
        return Playout(self.game.copy())

    def play(self, seat: int, action: Action) -> None:
        self.game.apply(seat, action)

    def redeal(self, seat: int, rng: random.Random) -> None:
        pass  # nothing is hidden in Nim

    def suggest(self, rng: random.Random) -> Action:
        return greedy(self.game.view(self.game.to_move[0]), rng)

    def move(self, rng: random.Random) -> None:
        self.play(self.game.to_move[0], self.suggest(rng))

    def estimate(self) -> list[float]:
        return [0.5, 0.5]


# -- the API's view of it -----------------------------------------------------------


class NimTakeActionSchema(ActionShape):
    type = fields.String(required=True, validate=validate.Equal("take"))
    count = ranged(1, MOST, required=True)


class NimPositionSchema(Strict):
    stones = ranged(1, 100, required=True)
    turn = ranged(0, 1, required=True)


class NimOptionsSchema(Strict):
    stones = ranged(1, 100, metadata={"description": "Stones on the heap at the start"})


class NimResultSchema(Strict):
    winner_seat = ranged(0, 1, required=True)


NIM_EVENTS = {"take": event("take", seat=seat_field(required=True), count=ranged(1, MOST))}
NimPlayerSchema = Schema.from_dict(player_fields(), name="NimPlayerSchema")
NimYouSchema = Schema.from_dict(you_fields("NimAction"), name="NimYouSchema")
NimViewSchema = Schema.from_dict(
    view_fields(
        "nim",
        Parts(NimYouSchema, NimPlayerSchema, NimOptionsSchema, NimResultSchema, log="NimLogEntry"),
        stones=ranged(0, 100, required=True),
    ),
    name="NimViewSchema",
)


def _unchanged(view: JSON, rng: random.Random) -> JSON:
    return {"stones": view["stones"], "turn": view["turn"]}


def _rank(view: JSON) -> Any:
    return lambda action: action["count"]


NIM = Variant(
    game=NimGame,
    title="Nim",
    schema_prefix="Nim",
    summary="2 players take 1 to 3 stones in turn; the last stone wins (option `stones`).",
    bots=Bots(
        greedy=greedy,
        policy=greedy,
        rank=_rank,
        sample_position=_unchanged,
        playout=Playout,
        tuning=Tuning(iterations=8, branching=3, playout_turns=100, exploration=0.7, seconds=0.5),
    ),
    schemas=Schemas(
        view=NimViewSchema,
        actions={"take": NimTakeActionSchema},
        position=NimPositionSchema,
        options=NimOptionsSchema,
        result=NimResultSchema,
        events=NIM_EVENTS,
        log={"deal": deal_entry()},
    ),
    examples=Examples(
        create={
            "vs_bot": {
                "summary": "Nim against the greedy bot",
                "value": {"variant": "nim", "players": 2, "seats": [{}, {"bot": "greedy"}]},
            }
        },
        actions={
            "take": {"summary": "Nim: take two stones", "value": {"type": "take", "count": 2}}
        },
        players=2,
        seed=1,
        moves=3,
    ),
    events={
        "deal": "(In the log) who chose, and who starts.",
        "take": "A seat took `count` stones.",
    },
)

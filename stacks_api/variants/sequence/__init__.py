"""Sequence, the board-and-card game (variant id ``sequence``): 2 to 12 players in
two or three teams race for sequences of five chips on a 10x10 board."""

from __future__ import annotations

from ..kit import Bots, Examples, Schemas, Tuning, Variant, example
from . import bot, explain, schemas
from .board import JACKS
from .game import SequenceGame
from .setup import DECK

__all__ = ["VARIANT", "SequenceGame"]


VARIANT = Variant(
    game=SequenceGame,
    title="Sequence",
    schema_prefix="Sequence",
    summary="2, 3, 4, 6, 8, 9, 10 or 12 players in 2 or 3 teams (options `teams`, "
    "`sequences_to_win`).",
    bots=Bots(
        greedy=bot.choose,
        policy=bot.choose,
        rank=bot.rank,
        sample_position=bot.sample_position,
        playout=bot.Playout,
        # Playouts of the opponent's greedy reply, then the fitted estimate of who wins;
        # measured on seeds below 20,000 (docs/research/bots.md).
        tuning=Tuning(iterations=1200, branching=6, playout_turns=1, exploration=0.1, seconds=1.5),
        explain=explain.explain,
        luck=lambda players: (JACKS, sum(card in JACKS for card in DECK) / len(DECK)),
    ),
    schemas=Schemas(
        view=schemas.SequenceViewSchema,
        actions=schemas.ACTIONS,
        position=schemas.SequencePositionSchema,
        options=schemas.SequenceOptionsSchema,
        result=schemas.SequenceResultSchema,
        events=schemas.EVENTS,
        log=schemas.LOG,
    ),
    examples=Examples(
        create={
            "vs_bot": example(
                "Sequence, you against the greedy bot",
                {"variant": "sequence", "players": 2, "seats": [{}, {"bot": "greedy"}]},
            ),
            "teams": example(
                "Sequence, six players in three teams",
                {"variant": "sequence", "players": 6, "options": {"teams": 3}},
            ),
        },
        actions={
            "play": example(
                "Sequence: place a chip (or a two-eyed jack anywhere open)",
                {"type": "play", "card": "7H", "cell": [4, 8]},
            ),
            "remove": example(
                "Sequence: a one-eyed jack removes an opposing chip",
                {"type": "play", "card": "JS", "cell": [2, 3]},
            ),
            "exchange": example("Sequence: trade a dead card", {"type": "exchange", "card": "2S"}),
        },
        players=2,
        seed=8,
        moves=6,
    ),
    # The 2-player ladder of docs/bots.md as ratings (stacks_api.competition.bot_ratings), easy at
    # 1500, where a newcomer who knows the rules starts.
    level_ratings={"beginner": 1174.0, "easy": 1500.0, "medium": 1659.0, "strong": 1750.0},
    events={
        "cut": "(In the log) each seat's cut card, which chose the dealer.",
        "deal": "(In the log) the dealer and the seat that starts.",
        "play": "A card played: `seat`, `card`, `cell` (a chip placed, or one removed "
        "by a one-eyed jack).",
        "exchange": "A dead card traded: `seat`, `card`.",
        "draw": "A seat drew a card (which one stays hidden): `seat`.",
        "reshuffle": "The discard piles became the draw pile: `cards`.",
        "sequence": "A sequence completed: `team`, its five `cells`.",
        "pass": "A seat that could neither play nor exchange passed: `seat`.",
    },
)

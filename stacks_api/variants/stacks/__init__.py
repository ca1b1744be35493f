"""Sequence Stacks, the card game (variant id ``stacks``): 2 to 6 players build
numbered piles and win chips, two of each colour and five in all."""

from __future__ import annotations

from ..kit import Bots, Examples, Schemas, Tuning, Variant, example
from . import bot, explain, schemas
from .cards import deck_for
from .game import StacksGame

WILDS = frozenset({"BW", "RW"})  # what an analysis counts as a lucky draw


def wild_share(players: int) -> float:
    deck = deck_for(players)
    return sum(card in WILDS for card in deck) / len(deck)


__all__ = ["VARIANT", "StacksGame"]


VARIANT = Variant(
    game=StacksGame,
    title="Sequence Stacks",
    schema_prefix="Stacks",
    summary="2 to 6 players (options `block_window`, `response_timeout_s`).",
    bots=Bots(
        greedy=bot.choose,
        policy=bot.policy,
        rank=bot.rank,
        sample_position=bot.sample_position,
        playout=bot.Playout,
        tuning=Tuning(
            iterations=150, branching=8, playout_turns=1_000, exploration=0.3, seconds=1.5
        ),
        # The search is off: measured on seeds below 20,000 it lost to easy when it
        # searched late with playouts to the end (15 of 30) and from the start with
        # playouts of 8 turns (4 of 30), where its policy alone won 59 of 100.
        worth_searching=lambda view: False,
        explain=explain.explain,
        # A block window is a moment a sampled position cannot hold.
        sampled=lambda view: view["block_window"] is None,
        chances=lambda view: bot.estimate(view["chips"]),
        luck=lambda players: (WILDS, wild_share(players)),
    ),
    schemas=Schemas(
        view=schemas.StacksViewSchema,
        actions=schemas.ACTIONS,
        position=schemas.StacksPositionSchema,
        options=schemas.StacksOptionsSchema,
        result=schemas.StacksResultSchema,
        events=schemas.EVENTS,
        log=schemas.LOG,
    ),
    examples=Examples(
        create={
            "vs_bots": example(
                "Sequence Stacks, you against two bots (the strong one thinking up to 1 s)",
                {
                    "variant": "stacks",
                    "players": 3,
                    "seats": [{}, {"bot": "easy"}, {"bot": "strong", "options": {"seconds": 1}}],
                },
            ),
            "three": example(
                "Sequence Stacks for three, Block asked only of holders",
                {"variant": "stacks", "players": 3, "options": {"block_window": "holders"}},
            ),
        },
        actions={
            "pile": example(
                "Stacks: a card onto pile 0", {"type": "play", "card": "B1", "pile": 0}
            ),
            "from_discard": example(
                "Stacks: the top of your own discard pile onto pile 2",
                {"type": "play", "card": "R3", "pile": 2, "from": "discard"},
            ),
            "skip": example("Stacks: Skip", {"type": "play", "card": "SKIP"}),
            "reverse": example("Stacks: Reverse", {"type": "play", "card": "REVERSE"}),
            "steal_card": example(
                "Stacks: Steal a Card from seat 2",
                {"type": "play", "card": "STEAL_CARD", "target": 2},
            ),
            "steal_chip": example(
                "Stacks: Steal a red chip from seat 1",
                {"type": "play", "card": "STEAL_CHIP", "target": 1, "color": "red"},
            ),
            "block": example(
                "Stacks: Block, inside a block window", {"type": "play", "card": "BLOCK"}
            ),
            "discard": example(
                "Stacks: discard to end the turn", {"type": "discard", "card": "R2"}
            ),
        },
        players=3,
        seed=2,
        moves=10,
    ),
    # The 2-player ladder of docs/bots.md as ratings (stacks_api.competition.bot_ratings), easy at
    # 1500, where a newcomer who knows the rules starts.
    level_ratings={"beginner": 671.0, "easy": 1500.0, "medium": 2425.0, "strong": 2683.0},
    events={
        "deal": "(In the log) the dealer and the seat that starts.",
        "play": "A card played: `seat`, `card`, and `pile`, `target`, `color`, `from` as "
        "the action had them; an action card adds `skipped`, `direction` or `stolen`.",
        "discard": "A turn ended with a discard: `seat`, `card`.",
        "draw": "Cards drawn (how many, not which): `seat`, `count`.",
        "reshuffle": "The set-aside heap became the draw pile: `cards`.",
        "complete": "A pile was completed: `seat`, `pile`.",
        "block_window": "A block window opened: `completer`, `pile`, `waiting`, `deadline`.",
        "answer": "A seat answered the block window (whether it blocked stays hidden).",
        "window_expired": "The deadline passed: the `waiting` seats counted as passing.",
        "block": "The window closed with this seat's Block: no chip (`seat`, `pile`).",
        "chip": "A chip won: `seat`, `color`.",
        "skipped": "A skip marker cost this seat its turn: `seat`.",
        "turn": "The turn passed to `seat`.",
        "pass": "A seat with nothing it could do passed: `seat`.",
    },
)

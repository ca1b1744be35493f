"""Marshmallow schemas of tournaments: a new one, joining, and what they show."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..model.fairness import ENTROPY
from ..model.pace import DAYS
from ..variants.fields import Flag, whole
from .names import shown_text
from .schemas import KNOWN_VARIANT
from .seek_schemas import TURN_CLOCKS

STATUSES = ["upcoming", "running", "finished", "cancelled"]
LISTED_STATUSES = ["upcoming", "running", "finished"]


def _name(value: str) -> None:
    shown_text(value, "a tournament's name")


class NewTournamentSchema(Schema):
    name = fields.String(validate=[validate.Length(min=1, max=60), _name],
                         metadata={"description": "Shown to everyone (default: the variant "
                                   "and the system)"})  # fmt: skip
    variant = fields.String(required=True, validate=KNOWN_VARIANT)
    system = fields.String(
        required=True,
        validate=validate.OneOf(["swiss", "arena", "duplicate"]),
        metadata={
            "description": "swiss: rounds fixed in advance; arena: a fixed time, "
            "players paired again as soon as their game ends; duplicate: rounds fixed in "
            "advance, every table of a round dealt the same cards and each side compared "
            "with the others that held its seat (two at a table, at least 4 entries)"
        },
    )
    rounds = whole(validate=validate.Range(min=1, max=20),
                   metadata={"description": "swiss and duplicate"})  # fmt: skip
    minutes = whole(validate=validate.Range(min=5, max=1440), metadata={"description": "arena"})
    players = whole(
        load_default=2,
        validate=validate.Range(min=2, max=4),
        metadata={"description": "At each table: 2 (Sequence or Stacks), 3 or 4 (Stacks)"},
    )
    rated = Flag(load_default=False)
    clock = whole(
        validate=validate.OneOf([c for c in TURN_CLOCKS if c]),
        metadata={"description": "Each person's seconds for a turn (60 unless `days` is "
                  "given): every game is clocked, so an absent player's game ends by itself"},
    )  # fmt: skip
    days = whole(
        validate=validate.OneOf(DAYS),
        metadata={"description": "A days tournament: each person has this many days a turn "
                  "(instead of `clock`)"},
    )  # fmt: skip
    starts_at = fields.Float(
        required=True, metadata={"description": "Epoch seconds (a time past starts it now)"}
    )
    max_players = whole(validate=validate.Range(min=2, max=1000))


class JoinTournamentSchema(Schema):
    entropy = fields.String(
        validate=validate.Regexp(ENTROPY),
        metadata={"description": "A duplicate event: 1 to 64 hex digits of your own, mixed "
                  "into every round's deal (docs/tournaments.md)"},
    )  # fmt: skip
    bot = fields.String(
        validate=validate.Length(max=16),
        metadata={"description": "The creator only: enter bots of this level instead"},
    )
    count = whole(
        load_default=1,
        validate=validate.Range(min=1, max=8),
        metadata={
            "description": "How many bots of that level (a tournament holds at most 8 "
            "of its creator's bots)"
        },
    )


class TournamentListQuerySchema(Schema):
    status = fields.String(
        validate=validate.OneOf(LISTED_STATUSES),
        metadata={"description": "One list, a page at a time (default: the first page of "
                  "each)"},
    )  # fmt: skip
    cursor = fields.String(
        validate=validate.Length(min=1, max=200),
        metadata={"description": "The `next` of the page before (with `status`)"},
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=50))


class WithdrawQuerySchema(Schema):
    entry = fields.String(
        validate=validate.Length(max=40),
        metadata={"description": "The creator only: a bot entry to withdraw (default: you)"},
    )


class EntrySchema(Schema):
    entry = fields.String(
        required=True, metadata={"description": "A player id, or bot:<level>:<n>"}
    )
    player_id = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True)
    name = fields.String(required=True)
    rating = fields.Float(required=True, metadata={"description": "When it entered"})
    joined_at = fields.Float(required=True)
    withdrawn_at = fields.Float(required=True, allow_none=True)
    entropy = fields.String(
        required=True, allow_none=True,
        metadata={"description": "The entropy it gave a duplicate event (shown once the "
                  "event has started)"},
    )  # fmt: skip


class StandingSchema(Schema):
    rank = whole(required=True)
    entry = fields.String(required=True)
    name = fields.String(required=True)
    bot = fields.String(required=True, allow_none=True)
    player_id = fields.String(required=True, allow_none=True)
    points = fields.Float(
        required=True,
        metadata={"description": "swiss: 1 a win or a bye, 0.5 a draw; arena: 2 a win, 1 a "
                  "draw, double on a streak; duplicate: matchpoints"},
    )  # fmt: skip
    top = fields.Float(metadata={"description": "duplicate: the most matchpoints it could "
                                 "have scored so far"})  # fmt: skip
    percentage = fields.Float(metadata={"description": "duplicate: its matchpoints as a "
                                        "percentage of `top`"})  # fmt: skip
    buchholz = fields.Float(required=True, metadata={"description": "The opponents' points"})
    sonneborn_berger = fields.Float(
        required=True,
        metadata={"description": "The points of the opponents beaten, half of those drawn"},
    )
    games = whole(required=True)
    wins = whole(required=True)
    byes = whole(required=True)
    withdrawn = fields.Boolean(required=True)
    streak = fields.Boolean(
        required=True, metadata={"description": "arena: two wins in a row, so wins count double"}
    )


class TableSchema(Schema):
    round = whole(required=True)
    board = whole(required=True)
    seats = fields.List(fields.String(), required=True, metadata={"description": "Seat order"})
    game_id = fields.String(required=True, allow_none=True, metadata={"description": "None: a bye"})
    points = fields.List(fields.Float(), required=True, allow_none=True,
                         metadata={"description": "Each seat's, once the game ended (a "
                                   "duplicate round's: once the round is over)"})  # fmt: skip
    made_at = fields.Float(required=True)
    ended_at = fields.Float(required=True, allow_none=True)


class RoundSchema(Schema):
    round = whole(required=True)
    tables = fields.List(fields.Nested(TableSchema), required=True)


class HeldSchema(Schema):
    entry = fields.String(required=True)
    name = fields.String(required=True)
    board = whole(required=True)
    game_id = fields.String(required=True, allow_none=True)
    score = fields.Float(required=True, metadata={"description": "1 a win, 0.5 a draw, 0 a loss"})
    turns = whole(required=True, metadata={"description": "The game's turns, both sides'"})
    progress = whole(required=True, metadata={"description": "Sequences (Sequence) or chips "
                                              "(Stacks) at the end"})  # fmt: skip
    matchpoints = fields.Float(required=True)
    top = whole(required=True, metadata={"description": "The other sides on this seat"})


class SeatComparisonSchema(Schema):
    seat = whole(required=True)
    results = fields.List(fields.Nested(HeldSchema), required=True,
                          metadata={"description": "Best first"})  # fmt: skip


class DealSchema(Schema):
    round = whole(required=True)
    commitment = fields.String(required=True, metadata={"description": "SHA-256 committing "
                               "to the round's server seed, shown from the start"})  # fmt: skip
    over = fields.Boolean(required=True, metadata={"description": "Every game has ended"})
    server_seed = fields.String(metadata={"description": "Once the round is over"})
    entropy = fields.String(allow_none=True, metadata={"description": "The entries' entropy "
                            "mixed, at every seat of every game (once over)"})  # fmt: skip
    comparison = fields.List(fields.Nested(SeatComparisonSchema),
                             metadata={"description": "Once over: each seat's sides"})  # fmt: skip


class TournamentSummarySchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    creator = fields.String(required=True)
    variant = fields.String(required=True)
    system = fields.String(required=True)
    rounds = whole(required=True, allow_none=True)
    minutes = whole(required=True, allow_none=True)
    players = whole(required=True)
    rated = fields.Boolean(required=True)
    turn_seconds = fields.Float(required=True)
    days = whole(required=True, allow_none=True, metadata={"description": "Days a turn"})
    max_players = whole(required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(STATUSES),
        metadata={
            "description": "cancelled: fewer than two entries (a duplicate event: "
            "four) 5 minutes past its start"
        },
    )
    round = whole(required=True, metadata={"description": "Rounds made so far"})
    entrants = whole(required=True, metadata={"description": "Entries still in"})
    created_at = fields.Float(required=True)
    starts_at = fields.Float(required=True)
    ended_at = fields.Float(required=True, allow_none=True)


class TournamentSchema(TournamentSummarySchema):
    entries = fields.List(fields.Nested(EntrySchema), required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True)
    pairings = fields.List(
        fields.Nested(RoundSchema), required=True, metadata={"description": "Each round made"}
    )
    deals = fields.List(
        fields.Nested(DealSchema), required=True, allow_none=True,
        metadata={"description": "A duplicate event's rounds: each one's deal and comparison "
                  "(null for the other systems)"},
    )  # fmt: skip


class TournamentListSchema(Schema):
    tournaments = fields.List(fields.Nested(TournamentSummarySchema), required=True)
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "With `status`: the next page's cursor (null: the last)"},
    )

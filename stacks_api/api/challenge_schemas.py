"""Marshmallow schemas of challenges and of the account's settings."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..model.fairness import ENTROPY
from ..model.pace import DAYS
from ..variants.fields import Flag, whole
from .schemas import KNOWN_VARIANT, GameViewSchema
from .seek_schemas import TURN_CLOCKS

STATUSES = ["pending", "accepted", "declined", "cancelled", "expired"]


def _entropy(description: str) -> fields.String:
    return fields.String(validate=validate.Regexp(ENTROPY), metadata={"description": description})


class NewChallengeSchema(Schema):
    variant = fields.String(required=True, validate=KNOWN_VARIANT)
    players = whole(
        load_default=2,
        validate=validate.Range(min=2, max=12),
        metadata={"description": "Seats beyond the two of you are open to anyone"},
    )
    rated = Flag(load_default=False)
    clock = whole(
        load_default=0,
        validate=validate.OneOf(TURN_CLOCKS),
        metadata={"description": "Each person's seconds for a turn; 0: no clock (a rated "
                  "or duplicate game without one gets 60 s)"},
    )  # fmt: skip
    days = whole(
        validate=validate.OneOf(DAYS),
        metadata={"description": "A days game: each person has this many days a turn "
                  "(never with a clock)"},
    )  # fmt: skip
    unlisted = Flag(load_default=False, metadata={"description": "Not in Watch"})
    entropy = _entropy("Your part of the deal, 1 to 64 hex digits (a rated challenge needs it)")
    deals = fields.String(
        load_default="standard",
        validate=validate.OneOf(["standard", "duplicate"]),
        metadata={"description": "duplicate: you do not play each other; each of you plays "
                  "the same deal from the same seat against `bot`, at the same time, and the "
                  "better result wins the match (GET /matches/{id}); two players, unrated"},
    )  # fmt: skip
    bot = fields.String(
        validate=validate.Length(min=1, max=16),
        metadata={"description": "With deals duplicate: the bot level both of you play"},
    )


class AnswerSchema(Schema):
    entropy = _entropy("Accepting: your part of the deal (a rated challenge needs it)")


class ChallengeSchema(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    from_ = fields.String(required=True, data_key="from", attribute="from",
                          metadata={"description": "The challenger's player id"})  # fmt: skip
    from_name = fields.String(required=True)
    to = fields.String(required=True, metadata={"description": "The challenged player's id"})
    to_name = fields.String(required=True)
    variant = fields.String(required=True)
    players = whole(required=True)
    rated = fields.Boolean(required=True)
    turn_seconds = whole(required=True, allow_none=True)
    days = whole(required=True, allow_none=True, metadata={"description": "Days a turn"})
    commitment = fields.String(
        required=True, metadata={"description": "The committed deal (docs/fairness.md)"}
    )
    created_at = fields.Float(required=True)
    expires_at = fields.Float(required=True)
    game_id = fields.String(
        required=True, allow_none=True,
        metadata={"description": "Accepted: the game (a duplicate challenge: the challenger's)"},
    )  # fmt: skip
    deals = fields.String(required=True, validate=validate.OneOf(["standard", "duplicate"]))
    bot = fields.String(required=True, allow_none=True,
                        metadata={"description": "A duplicate challenge's bot level"})  # fmt: skip
    match_id = fields.String(required=True, allow_none=True,
                             metadata={"description": "A duplicate challenge's match"})  # fmt: skip
    unrated = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "A rated challenge still waiting between two accounts that "
                  "began 3 rated games together in the last 24 hours: pair_limit (accepted "
                  "now, its game would be played unrated); null otherwise"},
    )  # fmt: skip


class ChallengeMadeSchema(Schema):
    challenge = fields.Nested(ChallengeSchema, required=True)
    token = fields.String(
        required=True,
        metadata={"description": "Your seat's token in the game, once it is accepted "
                  "(your key acts for the seat too). Shown only here."},
    )  # fmt: skip


class ChallengeAnswerSchema(Schema):
    challenge = fields.Nested(ChallengeSchema, required=True)
    game = fields.Nested(GameViewSchema, metadata={"description": "Accepted: the game"})
    seat = whole(metadata={"description": "Accepted: your seat"})
    token = fields.String(metadata={"description": "Accepted: your seat's token"})


class ChallengeListSchema(Schema):
    challenges = fields.List(fields.Nested(ChallengeSchema), required=True)
    next = fields.String(
        required=True, allow_none=True, metadata={"description": "The next page's cursor"}
    )


class ChallengeListQuerySchema(Schema):
    cursor = fields.String(
        validate=validate.Length(min=1, max=200),
        metadata={"description": "The `next` of the page before"},
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class SettingsSchema(Schema):
    accepts_challenges = Flag(
        required=True, metadata={"description": "False: nobody may challenge you"}
    )


class MatchGameSchema(Schema):
    game_id = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "The game's status"})
    player_id = fields.String(required=True, allow_none=True)
    name = fields.String(required=True, allow_none=True)
    score = fields.Float(required=True, allow_none=True,
                         metadata={"description": "Once both games have ended: 1 a win "
                                   "against the bot, 0.5 a draw, 0 a loss"})  # fmt: skip
    turns = whole(required=True, allow_none=True,
                  metadata={"description": "Once both have ended: the game's turns"})  # fmt: skip
    progress = whole(required=True, allow_none=True,
                     metadata={"description": "Once both have ended: sequences (Sequence) "
                               "or chips (Stacks) at the end"})  # fmt: skip


class MatchSchema(Schema):
    id = fields.String(required=True, metadata={"description": "The challenge's id"})
    variant = fields.String(required=True)
    bot = fields.String(required=True, allow_none=True)
    commitment = fields.String(required=True, allow_none=True,
                               metadata={"description": "The challenge's commitment to the "
                                         "deal both games are dealt"})  # fmt: skip
    status = fields.String(required=True, validate=validate.OneOf(["playing", "over"]))
    games = fields.List(fields.Nested(MatchGameSchema), required=True,
                        metadata={"description": "The challenger's, then the challenged "
                                  "player's"})  # fmt: skip
    winner = fields.String(required=True, allow_none=True,
                           metadata={"description": "Once over: the player id of the better "
                                     "result on the same deal (null: none, or a tie)"})  # fmt: skip
    draw = fields.Boolean(required=True)

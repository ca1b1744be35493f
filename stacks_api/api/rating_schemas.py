"""Marshmallow schemas of ratings, the leaderboard and quick pairing."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..service.rating import STATES
from ..variants.fields import whole
from .schemas import KNOWN_VARIANT


class RatingSchema(Schema):
    rating = whole(
        required=True,
        metadata={"description": "OpenSkill's estimate on a scale where a new player is 1500"},
    )
    uncertainty = whole(
        required=True,
        metadata={"description": "How unsure the estimate is (500 for a new player)"},
    )
    games = whole(required=True, metadata={"description": "Rated games played"})
    provisional = fields.Boolean(
        required=True,
        metadata={"description": "True while the uncertainty is 300 or more (about 12 games)"},
    )


RATINGS = fields.Dict(
    keys=fields.String(),
    values=fields.Nested(RatingSchema),
    required=True,
    metadata={"description": "The player's rating in each variant it has played rated"},
)


class LeaderboardQuerySchema(Schema):
    variant = fields.String(required=True, validate=KNOWN_VARIANT)
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))


class LeaderboardEntrySchema(RatingSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)


class LeaderboardSchema(Schema):
    variant = fields.String(required=True)
    players = fields.List(
        fields.Nested(LeaderboardEntrySchema),
        required=True,
        metadata={"description": "Best first: people only, not provisional, active in the "
                  "last 30 days"},
    )  # fmt: skip


class BotLevelSchema(RatingSchema):
    level = fields.String(required=True, metadata={"description": "The bot's level"})


class BotLevelsSchema(Schema):
    variant = fields.String(required=True)
    levels = fields.List(fields.Nested(BotLevelSchema), required=True,
                         metadata={"description": "Best first"})  # fmt: skip


class RatingPointSchema(Schema):
    game_id = fields.String(required=True)
    ended_at = fields.Float(required=True)
    rating = whole(required=True)


class RatingHistorySchema(Schema):
    variant = fields.String(required=True)
    points = fields.List(
        fields.Nested(RatingPointSchema),
        required=True,
        metadata={"description": "The rating after each rated game, oldest first (the last 500)"},
    )


class RatingChangeSchema(Schema):
    seat = whole(required=True)
    subject = fields.String(
        required=True, metadata={"description": "The player id, or bot:<level> for a bot"}
    )
    name = fields.String(required=True, allow_none=True)
    player_id = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True)
    rank = whole(required=True, metadata={"description": "1 the best; equal ranks tied"})
    before = whole(required=True)
    after = whole(required=True)
    change = fields.Integer(required=True)
    provisional = fields.Boolean(required=True)


class GameRatingsSchema(Schema):
    game_id = fields.String(required=True)
    state = fields.String(
        required=True,
        validate=validate.OneOf(STATES),
        metadata={
            "description": "casual: not rated; live: not over; pending: over, rated in a "
            "moment (202); rated: the changes are here; unrated: a rated game that changed "
            "no rating (cancelled, or abandoned in its first moves)"
        },
    )
    changes = fields.List(fields.Nested(RatingChangeSchema), required=True)


TURN_CLOCKS = (0, 15, 30, 60, 120, 300)  # a few clocks, so that seekers meet


class NewSeekSchema(Schema):
    variant = fields.String(required=True, validate=KNOWN_VARIANT)
    players = whole(required=True, validate=validate.Range(min=2, max=12))
    rated = fields.Boolean(load_default=False)
    turn_seconds = whole(
        load_default=0,
        validate=validate.OneOf(TURN_CLOCKS),
        metadata={"description": "Each person's time for a turn; 0: no clock"},
    )
    wait_s = fields.Float(
        load_default=120.0,
        validate=validate.Range(min=5, max=600),
        metadata={"description": "How long to wait for a game before the seek expires"},
    )


class SeekSchema(Schema):
    id = fields.String(required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(["waiting", "paired", "withdrawn", "expired"]),
        metadata={"description": "paired: join `game_id` with your key (and entropy)"},
    )
    variant = fields.String(required=True)
    players = whole(required=True)
    rated = fields.Boolean(required=True)
    turn_seconds = whole(required=True, allow_none=True)
    rating = whole(required=True, metadata={"description": "Your rating the pairing used"})
    since = fields.Float(required=True)
    expires_at = fields.Float(required=True)
    game_id = fields.String(required=True, allow_none=True)
    seat = whole(required=True, allow_none=True)


class HintReasonSchema(Schema):
    code = fields.String(
        required=True, metadata={"description": "The reason's kind; the rest are its words"}
    )


class HintMoveSchema(Schema):
    action = fields.Dict(required=True, metadata={"description": "One of your legal actions"})
    win = fields.Float(
        required=True, validate=validate.Range(min=0, max=1),
        metadata={"description": "The estimated chance of winning after it"},
    )  # fmt: skip
    why = fields.String(required=True, metadata={"description": "Why, in a few English words"})
    reason = fields.Dict(
        required=True,
        metadata={"description": "The same as a `code` and its parameters, to word it in "
                  "another language"},
    )  # fmt: skip


class HintSchema(Schema):
    version = whole(required=True, metadata={"description": "The game's version it is for"})
    moves = fields.List(
        fields.Nested(HintMoveSchema),
        required=True,
        metadata={"description": "Best first, at most 3 (none while it is computed: 202)"},
    )


class AnalysedMoveSchema(Schema):
    version = whole(required=True, metadata={"description": "The change the move made"})
    seat = whole(required=True)
    action = fields.Dict(required=True, metadata={"description": "The move played"})
    win_before = fields.Float(
        required=True, metadata={"description": "The seat's chance of winning with its best move"}
    )
    win_after = fields.Float(
        required=True, metadata={"description": "Its chance after the move it played"}
    )
    best = fields.Dict(required=True, metadata={"description": "The strong bot's move there"})
    mistake = fields.Boolean(
        required=True, metadata={"description": "The move lost 10 points of the chance or more"}
    )


class LuckSeatSchema(Schema):
    seat = whole(required=True)
    received = whole(required=True, metadata={"description": "Cards the seat received"})
    lucky = whole(required=True, metadata={"description": "Of them, lucky cards"})
    expected = fields.Float(
        required=True, metadata={"description": "Lucky cards the deck's share promised"}
    )


class LuckSchema(Schema):
    cards = fields.List(
        fields.String(), required=True,
        metadata={"description": "What counts as lucky: Sequence's jacks, Stacks' wilds"},
    )  # fmt: skip
    seats = fields.List(fields.Nested(LuckSeatSchema), required=True)


class AnalysisSchema(Schema):
    moves = fields.List(
        fields.Nested(AnalysedMoveSchema),
        required=True,
        metadata={"description": "Each person's move where there was a choice, in order"},
    )
    luck = fields.Nested(LuckSchema, required=True)

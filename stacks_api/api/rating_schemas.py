"""Marshmallow schemas of ratings and the leaderboard."""

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


class AccountsLeaderboardQuerySchema(LeaderboardQuerySchema):
    accounts = fields.String(
        load_default="people", validate=validate.OneOf(["people", "bots"]),
        metadata={"description": "people (the default), or bot accounts: ranked apart"},
    )  # fmt: skip


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
    was_provisional = fields.Boolean(
        required=True,
        metadata={"description": "Provisional before the game: such a rating moves far"},
    )


class StakeSchema(Schema):
    seat = whole(required=True)
    name = fields.String(required=True, allow_none=True)
    player_id = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True)
    rating = whole(required=True, metadata={"description": "The seat's rating now"})
    provisional = fields.Boolean(required=True)
    win = fields.Integer(required=True, metadata={"description": "The change if its side wins"})
    loss = fields.Integer(
        required=True,
        metadata={"description": "The change if another side wins (with 3 sides: the mean)"},
    )
    draw = fields.Integer(required=True, metadata={"description": "The change in a draw"})


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
    stakes = fields.List(
        fields.Nested(StakeSchema),
        dump_default=[],
        metadata={
            "description": "live, every seat taken: what a win, a loss or a draw would do to "
            "each rated seat (it moves with every rated game its players end meanwhile)"
        },
    )

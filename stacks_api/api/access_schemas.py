"""Marshmallow schemas of the access other apps hold: personal tokens, connected
apps, and the OAuth flow's requests and answers."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, validate

from ..model.scopes import GRANTABLE
from .player_schemas import label

SCOPES = fields.List(
    fields.String(validate=validate.OneOf(GRANTABLE)),
    required=True,
    validate=validate.Length(min=1, max=len(GRANTABLE)),
    metadata={"description": "What it may do: play, challenge, tournament, read, bot (bot "
              "only for a bot account)"},
)  # fmt: skip


class NewTokenSchema(Schema):
    label = label(required=True)
    scopes = SCOPES


class GrantSchema(Schema):
    id = fields.String(required=True)
    kind = fields.String(required=True, metadata={"description": "oauth (an app), personal"})
    app = fields.String(
        required=True, metadata={"description": "The app's client_id, or the token's label"}
    )
    scopes = fields.List(fields.String(), required=True)
    created_at = fields.Float(required=True, metadata={"description": "When it was granted"})
    expires_at = fields.Float(required=True, allow_none=True)
    last_used_at = fields.Float(required=True, allow_none=True)


class CreatedTokenSchema(Schema):
    grant = fields.Nested(GrantSchema, required=True)
    token = fields.String(
        required=True, metadata={"description": "The token itself, shown only this once."}
    )


class AppsSchema(Schema):
    apps = fields.List(fields.Nested(GrantSchema), required=True)


class AuthorizeQuerySchema(Schema):
    """The authorization request (RFC 6749 4.1.1, RFC 7636 4.3): checked by the
    service, which answers each fault as OAuth says (a problem, or a redirect).
    Parameters it does not know are left aside, as OAuth asks."""

    class Meta:
        unknown = EXCLUDE

    response_type = fields.String(metadata={"description": "code"})
    client_id = fields.String(metadata={"description": "The app's own URL or name"})
    redirect_uri = fields.String(metadata={"description": "https, or http on a loopback address"})
    code_challenge = fields.String(metadata={"description": "BASE64URL(SHA-256(verifier))"})
    code_challenge_method = fields.String(metadata={"description": "S256"})
    scope = fields.String(metadata={"description": "Space-separated scopes"})
    state = fields.String(metadata={"description": "Sent back as it is"})


class DecisionSchema(AuthorizeQuerySchema):
    decision = fields.String(load_default="approve", validate=validate.OneOf(["approve", "deny"]))


class TokenFormSchema(Schema):
    """The token request (RFC 6749 4.1.3 with RFC 7636 4.5), as a form."""

    class Meta:
        unknown = EXCLUDE

    grant_type = fields.String(metadata={"description": "authorization_code"})
    code = fields.String()
    code_verifier = fields.String()
    redirect_uri = fields.String()
    client_id = fields.String()


class TokenSchema(Schema):
    access_token = fields.String(required=True)
    token_type = fields.String(required=True, metadata={"description": "Bearer"})
    scope = fields.String(required=True)
    expires_in = fields.Integer(required=True)


class RevokeFormSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    token = fields.String(required=True)
    token_type_hint = fields.String()


class RedirectSchema(Schema):
    redirect_to = fields.String(
        required=True, metadata={"description": "Where the browser goes next"}
    )

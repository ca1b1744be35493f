"""Reading the bearer token of a request."""

from __future__ import annotations

from flask import request

from ..model.refusals import Refusal

BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]


def bearer_token(required: bool = False) -> str | None:
    """The token of ``Authorization: Bearer <token>``, or None when absent."""
    header = request.headers.get("Authorization")
    if header is None:
        if required:
            raise Refusal("unauthorized", "send your token as 'Authorization: Bearer <token>'")
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal("unauthorized", "the Authorization header must be 'Bearer <token>'")
    return token.strip()

"""Every refusal code the server answers with, its HTTP status and its title: one table.

Kept free of heavy imports: gunicorn's worker (``stacks_api.runtime.serving``) uses it too.
"""

from __future__ import annotations

CODES: dict[str, tuple[int, str]] = {
    "bad_request": (400, "Bad request"),
    "unauthorized": (401, "Unauthorized"),
    "forbidden": (403, "Forbidden"),
    "not_found": (404, "Not found"),
    "method_not_allowed": (405, "Method not allowed"),
    "request_timeout": (408, "Request timeout"),
    "not_your_turn": (409, "Not your turn"),
    "illegal_action": (409, "Illegal action"),
    "game_not_active": (409, "Game not active"),
    "seat_taken": (409, "Seat taken"),
    "game_full": (409, "Game full"),
    "too_many_keys": (409, "Too many keys"),
    "game_started": (409, "Game started"),
    "already_seeking": (409, "Already seeking"),
    "opening_over": (409, "Opening over"),
    "nothing_to_claim": (409, "Nothing to claim"),
    "opponent_present": (409, "Opponent present"),
    "challenge_pending": (409, "Challenge pending"),
    "challenge_closed": (409, "Challenge closed"),
    "tournament_full": (409, "Tournament full"),
    "already_entered": (409, "Already entered"),
    "tournament_over": (409, "Tournament over"),
    "tournament_started": (409, "Tournament started"),
    "too_few_entries": (409, "Too few entries"),
    "hints_off": (403, "Hints off"),
    "account_closed": (403, "Account closed"),
    "missing_scope": (403, "Missing scope"),
    "duplicate_closed": (403, "Duplicate board closed"),
    "too_many_grants": (409, "Too many apps and tokens"),
    "has_played": (409, "Has played"),
    "bot_account": (409, "Bot account"),
    # OAuth 2's own errors (RFC 6749 5.2), as its clients expect them: the problem
    # also carries them as ``error`` and ``error_description``.
    "invalid_request": (400, "Invalid request"),
    "invalid_client": (400, "Invalid client"),
    "invalid_grant": (400, "Invalid grant"),
    "unsupported_grant_type": (400, "Unsupported grant type"),
    "games_live": (409, "Games live"),
    "too_many_webhooks": (409, "Too many webhooks"),
    "too_many_tournaments": (409, "Too many tournaments"),
    "too_many_bots": (409, "Too many bots"),
    "chat_full": (409, "Chat full"),
    "player_deleted": (410, "Player deleted"),
    "url_refused": (422, "URL refused"),
    "stale_version": (412, "Stale version"),
    "payload_too_large": (413, "Content too large"),
    "uri_too_long": (414, "URI too long"),
    "unsupported_media_type": (415, "Unsupported media type"),
    "expectation_failed": (417, "Expectation failed"),
    "validation_error": (422, "Validation error"),
    "idempotency_key_reused": (422, "Idempotency key reused"),
    "rate_limited": (429, "Too many requests"),
    "upgrade_required": (426, "Upgrade required"),
    "headers_too_large": (431, "Request header fields too large"),
    "internal_error": (500, "Internal server error"),
    "not_implemented": (501, "Not implemented"),
    "store_unavailable": (503, "Store unavailable"),
    "degraded": (503, "Store degraded"),
}

OAUTH_ERRORS = frozenset(
    {"invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type"}
)

# The code for an HTTP status that something other than a refusal produced (werkzeug,
# Flask-Limiter, gunicorn): the generic one of each status. Any other status answers
# as bad_request or internal_error.
BY_STATUS: dict[int, str] = {
    CODES[code][0]: code
    for code in ("bad_request", "unauthorized", "forbidden", "not_found", "method_not_allowed",
                 "request_timeout", "player_deleted", "stale_version", "payload_too_large",
                 "uri_too_long", "unsupported_media_type", "expectation_failed",
                 "validation_error", "rate_limited", "headers_too_large", "internal_error",
                 "not_implemented", "store_unavailable")
}  # fmt: skip


def for_status(status: int) -> str:
    return BY_STATUS.get(status, "internal_error" if status >= 500 else "bad_request")


def body(code: str, detail: str, errors: dict[str, object] | None = None) -> dict[str, object]:
    """RFC 9457 problem details for a code."""
    status, title = CODES[code]
    problem: dict[str, object] = {
        "type": f"urn:stacks-api:problem:{code}",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
    }
    if errors is not None:
        problem["errors"] = errors
    if code in OAUTH_ERRORS:  # as an OAuth client reads them too (RFC 6749 5.2)
        problem["error"], problem["error_description"] = code, detail
    return problem

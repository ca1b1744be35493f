"""Which scope each route needs of an app's or a personal token (``model.scopes``).

Checked before the route runs, from one table: a route that is not in it needs
``account``, which no token holds, so a new route is closed to tokens until it
is placed here (tests/api/test_scopes.py checks every route is). ``None``: any
token may come (the route is public, or reads nothing of the account). A tuple:
any one of its scopes. Player keys and seats' tokens are not checked here: a
key holds every scope, and a seat's token acts for its seat alone.
"""

from __future__ import annotations

from flask import Flask, current_app, g, has_request_context, request

from ..model import scopes
from ..model.refusals import Refusal
from ..model.scopes import ACCOUNT, CHALLENGE, PLAY, READ, TOURNAMENT
from .auth import bearer_token

Needed = str | tuple[str, ...] | None
CHECKED = ("/api/", "/oauth/")
GAME = "/api/v1/games/<game_id>"
ME = "/api/v1/players/me"

NEEDED: dict[tuple[str, str], Needed] = {
    # Public: what anyone may read or make without an account.
    ("GET", "/api/v1/health"): None,
    ("GET", "/api/v1/games"): None,
    ("POST", "/api/v1/games"): None,
    ("GET", f"{GAME}/analysis"): None,
    ("GET", f"{GAME}/ratings"): None,
    ("GET", f"{GAME}/record"): None,
    ("GET", f"{GAME}/replay/<int:version>"): None,
    ("GET", "/api/v1/leaderboard"): None,
    ("GET", "/api/v1/leaderboard/bots"): None,
    ("POST", "/api/v1/players"): None,
    ("GET", "/api/v1/players"): None,
    ("GET", "/api/v1/players/<player_id>"): None,
    ("GET", "/api/v1/players/<player_id>/games"): None,
    ("GET", "/api/v1/players/<player_id>/ratings/<variant>"): None,
    ("GET", "/api/v1/push/key"): None,
    ("GET", "/api/v1/tournaments"): None,
    ("GET", "/api/v1/tournaments/<tournament_id>"): None,
    ("GET", "/api/v1/matches/<match_id>"): None,
    ("GET", "/oauth/authorize"): None,
    ("POST", "/oauth/token"): None,
    ("POST", "/oauth/revoke"): None,
    # Playing: a game as the account's seat sees it, and what it does there.
    ("GET", GAME): (PLAY, READ),
    ("GET", f"{GAME}/events"): (PLAY, READ),
    ("GET", f"{GAME}/socket"): None,  # the token comes in the socket's hello, checked there
    ("GET", f"{GAME}/chat"): (PLAY, READ),
    ("DELETE", GAME): PLAY,
    ("POST", f"{GAME}/players"): PLAY,
    ("POST", f"{GAME}/actions"): PLAY,
    ("POST", f"{GAME}/resign"): PLAY,
    ("POST", f"{GAME}/abort"): PLAY,
    ("POST", f"{GAME}/claim"): PLAY,
    ("POST", f"{GAME}/leave"): PLAY,
    ("POST", f"{GAME}/rematch"): PLAY,
    ("POST", f"{GAME}/chat"): PLAY,
    ("GET", f"{GAME}/hint"): PLAY,
    ("POST", "/api/v1/seeks"): PLAY,
    ("GET", "/api/v1/seeks/<seek_id>"): PLAY,
    ("DELETE", "/api/v1/seeks/<seek_id>"): PLAY,
    ("POST", "/api/v1/players/<player_id>/reports"): PLAY,
    ("GET", f"{ME}/games"): (PLAY, READ),
    # Challenges.
    ("GET", "/api/v1/challenges"): (CHALLENGE, READ),
    ("GET", "/api/v1/challenges/<challenge_id>"): (CHALLENGE, READ),
    ("POST", "/api/v1/players/<player_id>/challenges"): CHALLENGE,
    ("POST", "/api/v1/challenges/<challenge_id>/accept"): CHALLENGE,
    ("POST", "/api/v1/challenges/<challenge_id>/decline"): CHALLENGE,
    ("POST", "/api/v1/challenges/<challenge_id>/cancel"): CHALLENGE,
    # Tournaments.
    ("POST", "/api/v1/tournaments"): TOURNAMENT,
    ("POST", "/api/v1/tournaments/<tournament_id>/players"): TOURNAMENT,
    ("DELETE", "/api/v1/tournaments/<tournament_id>/players"): TOURNAMENT,
    ("POST", "/api/v1/tournaments/<tournament_id>/start"): TOURNAMENT,
    # Reading the account.
    ("GET", ME): READ,
    ("GET", f"{ME}/export"): READ,
    ("GET", f"{ME}/events"): (PLAY, CHALLENGE, READ),
    # The account itself: player keys only.
    ("DELETE", ME): ACCOUNT,
    ("POST", "/oauth/authorize"): ACCOUNT,
}


def install(app: Flask) -> None:
    app.before_request(check_scope)
    # A request's callers are looked up once, whether by this check or its route.
    table = app.extensions["stacks_api.games"].table
    table.request_callers = lambda: g.setdefault("callers", {}) if has_request_context() else None


def needed(method: str, rule: str) -> Needed:
    """What ``method`` on the route ``rule`` needs of a token (``account`` when the
    route is not in the table)."""
    return NEEDED.get((method, rule), ACCOUNT)


def check_scope() -> None:
    """403 ``missing_scope`` when the request's token lacks what its route needs."""
    if request.url_rule is None:
        return
    if not request.path.startswith(CHECKED):
        return  # the pages, the explorer, the metrics: no account is acted for
    header = request.headers.get("Authorization", "")
    if "_" not in header or not scopes.is_granted_token(header.partition(" ")[2].strip()):
        return  # no token, or a key's or a seat's: nothing to check here
    # HEAD and OPTIONS read what GET reads (Flask answers HEAD with the GET route):
    # they need what GET needs, never less.
    method = "GET" if request.method in ("HEAD", "OPTIONS") else request.method
    require(bearer_token(), method, request.url_rule.rule)


def require(token: str | None, method: str, rule: str) -> None:
    """403 ``missing_scope`` unless ``token`` (an app's or personal token; anything
    else passes) may do what ``method`` on ``rule`` does: the routes' own check,
    which a socket's messages pass too (``api.socket``)."""
    if token is None or not scopes.is_granted_token(token):
        return
    wanted = needed(method, rule)
    if wanted is None:
        return
    caller = current_app.extensions["stacks_api.games"].table.caller(token)
    alternatives = (wanted,) if isinstance(wanted, str) else wanted
    if alternatives == (ACCOUNT,):  # a key's alone: no token is ever given it
        raise Refusal("missing_scope", "only the account's own player key may do that (its "
                      "keys, tokens, apps, webhooks, pushes and settings): no app or "
                      "personal token can")  # fmt: skip
    if not any(scopes.allows(caller.scopes, scope) for scope in alternatives):
        raise Refusal("missing_scope", f"this token may not do that: it needs the scope "
                                       f"{' or '.join(alternatives)}")  # fmt: skip

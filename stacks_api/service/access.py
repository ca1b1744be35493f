"""Access for other apps: OAuth 2's authorization code flow with PKCE (RFC 6749,
RFC 7636, as RFC 9700 advises), personal tokens, and the connected apps an
account can see and revoke.

No app registers: its ``client_id`` is its own URL or name, shown to the person
with where the code will be sent. A ``redirect_uri`` is http on a loopback
address (an app on the person's own machine, whatever its ``client_id``), or
https, and then on the host of a ``client_id`` that is an https URL. The challenge is S256 only;
a code lives ``CODE_LIFETIME_S`` and works once (archive.grants). Only a player
key approves: no token can hand out access.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import re
import secrets
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit, urlunsplit

from ..model import scopes
from ..model.record import JSON
from ..model.refusals import Refusal
from .ports import Grants
from .table import Table

CODE_LIFETIME_S = 120.0
ACCESS_LIFETIME_S = 30 * 86_400.0  # no refresh tokens: the person approves again after
CLIENT_ID = re.compile(r"[\x21-\x7e][\x20-\x7e]{0,199}")  # printable, no leading space
PKCE_TEXT = re.compile(r"[A-Za-z0-9\-._~]{43,128}")  # RFC 7636 4.1
LOOPBACK_NAMES = {"localhost"}


@dataclass(frozen=True)
class Request:
    """An authorization request, checked: what the consent shows and the code binds."""

    client_id: str
    redirect_uri: str
    scopes: frozenset[str]
    challenge: str
    state: str | None

    def back(self, **answer: str) -> str:
        """The redirect URI with ``answer`` (and the state) added to its query."""
        parts = urlsplit(self.redirect_uri)
        extra = {**answer, **({"state": self.state} if self.state is not None else {})}
        query = "&".join(filter(None, [parts.query, urlencode(extra)]))
        return urlunsplit(parts._replace(query=query))


class Redirected(Exception):
    """An error the app hears at its redirect URI (RFC 6749 4.1.2.1)."""

    def __init__(self, request_uri: str) -> None:
        super().__init__(request_uri)
        self.location = request_uri


class Access:
    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def grants(self) -> Grants:
        return self.table.archive_for("accounts").grants

    # -- personal tokens and connected apps ---------------------------------------

    def personal(self, player_id: str, label: str, asked: list[str]) -> tuple[JSON, str]:
        """A personal token with the ``asked`` scopes (shown only in this answer)."""
        chosen = self._grantable(player_id, " ".join(asked))
        if chosen is None:
            known = ", ".join(scopes.GRANTABLE)
            raise Refusal("validation_error", f"scopes: choose one or more of {known} (bot only "
                          "for a bot account)", {"scopes": ["not grantable"]})  # fmt: skip
        return self.grants.issue(player_id, "personal", label, chosen, scopes.PERSONAL_PREFIX)

    def apps(self, player_id: str) -> list[JSON]:
        return self.grants.of(player_id)

    def revoke(self, player_id: str, grant_id: str) -> None:
        if not self.grants.revoke(player_id, grant_id):
            raise Refusal("not_found", f"no app or token with id {grant_id!r}")
        self.table.store.revocations.bump()  # what it opened closes (service.revocations)

    # -- the OAuth flow ----------------------------------------------------------

    def check(self, query: dict[str, str]) -> Request:
        """The authorization request, or a refusal: a 400 problem while the redirect
        URI cannot be trusted, ``Redirected`` once it can."""
        client_id, redirect_uri = query.get("client_id", ""), query.get("redirect_uri", "")
        if not CLIENT_ID.fullmatch(client_id):
            raise Refusal("invalid_client", "client_id must be the app's URL or name (1 to 200 "
                                            "printable characters)")  # fmt: skip
        _check_redirect(client_id, redirect_uri)
        state = query.get("state")
        bare = Request(client_id, redirect_uri, frozenset(), "", state)
        if query.get("response_type") != "code":
            raise Redirected(bare.back(error="unsupported_response_type",
                                       error_description="only response_type=code"))  # fmt: skip
        challenge = query.get("code_challenge", "")
        if query.get("code_challenge_method") != "S256" or not PKCE_TEXT.fullmatch(challenge):
            said = "PKCE is required: code_challenge with code_challenge_method=S256"
            raise Redirected(bare.back(error="invalid_request", error_description=said))
        asked = scopes.parse(query.get("scope", ""))
        if asked is None:
            raise Redirected(bare.back(error="invalid_scope", error_description="scope: one "
                             f"or more of {' '.join(scopes.GRANTABLE)}"))  # fmt: skip
        return Request(client_id, redirect_uri, asked, challenge, state)

    def decide(self, player_id: str, request: Request, approved: bool) -> str:
        """Where the person's browser goes next: the app's redirect URI with a code,
        or with ``access_denied``."""
        if not approved:
            raise Redirected(request.back(error="access_denied"))
        if self._grantable(player_id, " ".join(request.scopes)) is None:
            raise Redirected(request.back(error="invalid_scope",
                                          error_description="bot is for bot accounts"))  # fmt: skip
        code = secrets.token_urlsafe(32)
        self.grants.save_code(code, player_id, request.client_id, request.redirect_uri,
                              " ".join(sorted(request.scopes)), request.challenge,
                              CODE_LIFETIME_S)  # fmt: skip
        return request.back(code=code)

    def exchange(self, form: dict[str, str]) -> JSON:
        """The token response for an authorization code (RFC 6749 4.1.3, 5.1)."""
        if form.get("grant_type") != "authorization_code":
            raise Refusal("unsupported_grant_type", "only grant_type=authorization_code")
        missing = [n for n in ("code", "code_verifier", "redirect_uri", "client_id")
                   if not form.get(n)]  # fmt: skip
        if missing:
            raise Refusal("invalid_request", f"missing {', '.join(missing)}")
        if not PKCE_TEXT.fullmatch(form["code_verifier"]):
            raise Refusal("invalid_request", "code_verifier must be 43 to 128 characters of "
                                             "A-Z a-z 0-9 - . _ ~")  # fmt: skip
        code = self.grants.take_code(form["code"])
        if code is None:
            raise Refusal("invalid_grant", "the code is unknown, expired or already used")
        if code.client_id != form["client_id"] or code.redirect_uri != form["redirect_uri"]:
            raise Refusal("invalid_grant", "client_id or redirect_uri differ from the "
                                           "authorization request")  # fmt: skip
        if not hmac.compare_digest(s256(form["code_verifier"]), code.challenge):
            raise Refusal("invalid_grant", "the code_verifier does not match the challenge")
        granted = frozenset(code.scopes.split())
        _, token = self.grants.issue(code.player_id, "oauth", code.client_id, granted,
                                     scopes.ACCESS_PREFIX, ACCESS_LIFETIME_S,
                                     code.code_hash)  # fmt: skip
        return {"access_token": token, "token_type": "Bearer", "scope": code.scopes,
                "expires_in": int(ACCESS_LIFETIME_S)}  # fmt: skip

    def revoke_token(self, token: str) -> None:
        """End the grant of ``token`` if it is one (RFC 7009: silent either way)."""
        if scopes.is_granted_token(token) and self.grants.revoke_token(token):
            self.table.store.revocations.bump()

    def _grantable(self, player_id: str, text: str) -> frozenset[str] | None:
        """The scopes of ``text`` if this account may be given them (``bot`` only
        for a bot account)."""
        chosen = scopes.parse(text)
        if chosen is None:
            return None
        if scopes.BOT in chosen:
            found = self.table.archive_for("accounts").accounts.player(player_id)
            if not (found and found.get("bot")):
                return None
        return chosen


def s256(verifier: str) -> str:
    """RFC 7636's S256 transform: base64url, unpadded, of the verifier's SHA-256."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def _check_redirect(client_id: str, uri: str) -> None:
    """Refuse a redirect URI the code may not be sent to."""
    parts = urlsplit(uri)
    host = parts.hostname or ""
    if not uri or len(uri) > 1000 or parts.fragment or not host:
        raise Refusal("invalid_request", "redirect_uri must be an absolute URI without a "
                                         "fragment")  # fmt: skip
    if parts.scheme == "http" and _loopback(host):
        return
    if parts.scheme != "https":
        raise Refusal("invalid_request", "redirect_uri must be https, or http on a loopback "
                                         "address (127.0.0.1, [::1], localhost)")  # fmt: skip
    app = urlsplit(client_id)
    if app.scheme == "https" and app.hostname and app.hostname != host:
        raise Refusal("invalid_request", "redirect_uri must be on the host of the client_id "
                                         f"({app.hostname})")  # fmt: skip


def _loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False

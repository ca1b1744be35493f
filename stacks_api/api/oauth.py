"""OAuth 2 for other apps (service.access): the consent page, the person's
decision, the token exchange and revocation."""

from __future__ import annotations

from typing import Any

from flask import Response, redirect, request
from flask.views import MethodView

from ..model.refusals import Refusal
from ..service.access import Redirected
from ..web import page as client_page
from ..web.headers import protect
from .access_schemas import (
    AuthorizeQuerySchema,
    DecisionSchema,
    RedirectSchema,
    RevokeFormSchema,
    TokenFormSchema,
    TokenSchema,
)
from .auth import BEARER, bearer_token
from .blueprint import Blueprint
from .caching import NEVER_STORE
from .games import problems
from .players import service

blp = Blueprint("oauth", __name__, url_prefix="/oauth",
                description="OAuth 2 with PKCE: other apps act for you, within scopes")  # fmt: skip
protect(blp)  # the consent page is a page: no framing, no script but ours
NO_STORE = {**NEVER_STORE, "Pragma": "no-cache"}  # RFC 6749 5.1


@blp.route("/authorize")
class Authorize(MethodView):
    @blp.arguments(AuthorizeQuerySchema(), location="query")
    @blp.response(200, description="The consent page (HTML), in the web client's languages")
    @blp.alt_response(303, description="An error the app hears at its redirect_uri")
    @problems(400, 429)
    @blp.doc(operationId="authorizePage", security=[])
    def get(self, query: dict[str, Any]) -> Any:
        """The consent page of an authorization request (response_type=code, PKCE S256)

        A client_id or redirect_uri that cannot be trusted is a 400 problem (to a
        browser, which asks for HTML first, the page with status 400: it asks
        again for the problem and tells the person in their language); any other
        fault is sent to the app's redirect_uri as `error=...&state=...`. The page
        names the app, where the code goes and each scope, and asks the person
        signed in on this browser (their key) to approve or deny.
        """
        try:
            service().access.check(request.args.to_dict())
        except Redirected as told:
            return redirect(told.location, 303)
        except Refusal:
            if request.accept_mimetypes.best_match(["application/json", "text/html"]) != (
                "text/html"
            ):
                raise
            refused = client_page()
            refused.status_code = 400
            refused.headers.update(NO_STORE)
            return refused
        shown = client_page()
        shown.headers.update(NO_STORE)
        return shown

    @blp.arguments(DecisionSchema(), location="form")
    @blp.response(303, description="To redirect_uri with `code` and `state` (or an error)")
    @blp.alt_response(200, schema=RedirectSchema, description="The same, as JSON, when the "
                      "request asks for `Accept: application/json` (a page's script)")  # fmt: skip
    @blp.doc(security=BEARER)
    @problems(400, 401, 403, 429, 503)
    @blp.doc(operationId="authorize")
    def post(self, form: dict[str, Any]) -> Any:
        """The person's decision, sent with their player key: a code for the app

        The form repeats the authorization request's parameters, and `decision`
        (approve, the default, or deny). The code works once, within 120 s.
        """
        access = service().access
        player_id = service().players.me(bearer_token(required=True))
        try:
            checked = access.check(request.form.to_dict())
            location = access.decide(player_id, checked, form["decision"] == "approve")
        except Redirected as told:
            location = told.location
        if request.accept_mimetypes.best == "application/json":
            return {"redirect_to": location}, 200, NO_STORE
        return Response(status=303, headers={"Location": location, **NO_STORE})


@blp.route("/token")
class Token(MethodView):
    @blp.arguments(TokenFormSchema(), location="form")
    @blp.response(200, TokenSchema)
    @problems(400, 429, 503)
    @blp.doc(operationId="token", security=[])
    def post(self, form: dict[str, Any]) -> Any:
        """Exchange an authorization code and its PKCE verifier for an access token

        Errors are problems that also carry OAuth's `error` and
        `error_description` (`invalid_request`, `invalid_grant`,
        `unsupported_grant_type`).
        """
        return service().access.exchange(request.form.to_dict()), 200, NO_STORE


@blp.route("/revoke")
class Revoke(MethodView):
    @blp.arguments(RevokeFormSchema(), location="form")
    @blp.response(200, description="Revoked, or nothing to revoke (RFC 7009)")
    @problems(400, 429, 503)
    @blp.doc(operationId="revokeToken", security=[])
    def post(self, form: dict[str, Any]) -> Any:
        """End an access or personal token's grant: refused from its next request on"""
        service().access.revoke_token(form["token"])
        return {}, 200, NO_STORE

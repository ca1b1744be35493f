"""One place that turns every failure into RFC 9457 problem details (statuses and titles
from the one table in ``codes``)."""

from __future__ import annotations

import http
import logging
from typing import Any

from flask import Flask, Response, json
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException

from ..model import codes
from ..model.refusals import Refusal
from ..runtime import metrics
from ..service.ports import Degraded, Unavailable
from .schemas import ProblemSchema

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger(__name__)


# A 503 asks the client to come back this many seconds later.
RETRY_AFTER_S = 2


def problem_response(refusal: Refusal, headers: dict[str, str] | None = None) -> Response:
    """The refusal as problem details, with its code's status; never stored by a cache
    (a refusal can name the caller's seat), and a 503 says when to retry."""
    problem = codes.body(refusal.code, refusal.detail, refusal.errors)
    status, _ = codes.CODES[refusal.code]
    response = Response(json.dumps(problem), status, mimetype=PROBLEM_JSON)
    response.headers["Cache-Control"] = "no-store"
    if status == 503:
        response.headers["Retry-After"] = str(RETRY_AFTER_S)
    if refusal.retry_after is not None:
        response.headers["Retry-After"] = str(refusal.retry_after)
    response.headers.update(headers or {})
    return response


def _field_errors(messages: Any) -> dict[str, Any]:
    """webargs nests errors by location ({"json": {...}}); clients want them by field."""
    flat: dict[str, Any] = {}
    if isinstance(messages, dict):
        for location, errors in messages.items():
            if isinstance(errors, dict):
                flat.update(errors)
            else:
                flat[location] = errors
    return flat


def _header(description: str, kind: str = "string") -> dict[str, Any]:
    return {"description": description, "schema": {"type": kind}}


# Response headers, as the OpenAPI document declares them.
HEADERS = {
    "Retry-After": _header("Seconds to wait before trying again (at least 1)", "integer"),
    "RateLimit-Limit": _header("Requests allowed in the current window", "integer"),
    "RateLimit-Remaining": _header("Requests left in the current window", "integer"),
    "RateLimit-Reset": _header("Seconds until the window resets", "integer"),
    "ETag": _header('The view\'s version tag: "N" (spectators) or "N-sK" (seat K)'),
    "Cache-Control": _header("private, no-cache (a seat's view), no-cache, or no-store"),
    "Vary": _header("Authorization"),
    "Preference-Applied": _header("wait=N, when Prefer: wait=N was honoured"),
    "Location": _header("The new game's URL"),
}


def headers_of(*names: str) -> dict[str, Any]:
    """Response headers a response sends, for the OpenAPI document."""
    return {name: HEADERS[name] for name in names}


RESPONSE_HEADERS = {
    http.HTTPStatus.NOT_MODIFIED: ("ETag", "Cache-Control", "Vary"),
    http.HTTPStatus.TOO_MANY_REQUESTS: ("Retry-After", "RateLimit-Limit", "RateLimit-Remaining",
                                        "RateLimit-Reset"),
    http.HTTPStatus.SERVICE_UNAVAILABLE: ("Retry-After",),
}  # fmt: skip


class ProblemApi(Api):  # type: ignore[misc]
    """flask-smorest's Api, with problem details for errors and in the documentation."""

    ERROR_SCHEMA = ProblemSchema

    def init_app(self, app: Flask, *args: Any, **kwargs: Any) -> None:
        super().init_app(app, *args, **kwargs)
        app.register_error_handler(Refusal, problem_response)
        app.register_error_handler(Unavailable, self._store_unavailable)
        app.register_error_handler(Exception, self._unexpected)

    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            if status in RESPONSE_HEADERS:
                response["headers"] = headers_of(*RESPONSE_HEADERS[status])
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        default: dict[str, Any] = {"description": "Problem details", "schema": self.ERROR_SCHEMA}
        prepare_response(default, self.spec, PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", default, lazy=True)

    def _register_pagination_header(self) -> None:
        """The lobby pages in its body: no pagination header, nor its schema."""

    def handle_http_exception(self, error: HTTPException) -> Response:
        status = error.code or 500
        data = getattr(error, "data", None) or {}
        errors = None
        if status == 400:
            detail = "the request body is not valid JSON"
        elif status == 422:
            errors = _field_errors(data.get("messages"))
            detail = "the request does not match the schema: " + ", ".join(sorted(errors))
        else:
            detail = error.description or http.HTTPStatus(status).phrase
        headers = dict(error.get_response().headers) if status == 405 else {}
        allowed = {"Allow": headers["Allow"]} if "Allow" in headers else None
        return problem_response(Refusal(codes.for_status(status), detail, errors), allowed)

    @staticmethod
    def _store_unavailable(error: Unavailable) -> Response:
        log.warning("store unavailable: %s", error)
        metrics.STORE_ERRORS.labels(store=getattr(error, "store", "live")).inc()
        if isinstance(error, Degraded):
            detail = "the game store answers but refuses writes (out of memory or read-only)"
            return problem_response(Refusal("degraded", f"{detail}; retry soon"))
        refusal = Refusal("store_unavailable", "the game store cannot be reached; retry soon")
        return problem_response(refusal)

    @staticmethod
    def _unexpected(error: Exception) -> Response:
        # HTTPExceptions never get here: their own, more specific handler wins.
        # Logged without request data: bodies can carry tokens or hands.
        log.exception("unexpected error: %s", type(error).__name__)
        return problem_response(Refusal("internal_error", "an unexpected error occurred"))

"""Refusals the service raises; the HTTP layer renders them as RFC 9457 problem details."""

from __future__ import annotations

from typing import Any

TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    404: "Not found",
    405: "Method not allowed",
    408: "Request timeout",
    409: "Conflict",
    412: "Precondition failed",
    413: "Content too large",
    415: "Unsupported media type",
    422: "Unprocessable content",
    429: "Too many requests",
    500: "Internal server error",
    503: "Service unavailable",
}


class Problem(Exception):
    """A refusal with an HTTP status, a stable ``code`` and a message for people."""

    def __init__(
        self, status: int, code: str, detail: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = errors

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> Problem:
        return cls(body["status"], body["code"], body["detail"], body.get("errors"))

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "type": f"urn:stacks-api:problem:{self.code}",
            "title": TITLES.get(self.status, "Error"),
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
        }
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def validation_error(field: str, message: str) -> Problem:
    return Problem(422, "validation_error", message, {field: [message]})

"""Refusals: how the server says no. A stable code and a message for people.

The domain raises them with a code only; the HTTP layer gives each code its
status and title from one table (``stacks_api.model.codes``).
"""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A refusal with a stable ``code``, a ``detail`` for people, per-field ``errors``,
    and for a limit, the seconds to wait (``retry_after``)."""

    def __init__(
        self,
        code: str,
        detail: str,
        errors: dict[str, Any] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.errors = errors
        self.retry_after = retry_after

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON, to remember the refusal under an Idempotency-Key."""
        body: dict[str, Any] = {"code": self.code, "detail": self.detail}
        if self.errors is not None:
            body["errors"] = self.errors
        return body

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> Refusal:
        return cls(body["code"], body["detail"], body.get("errors"))


def validation_error(field: str, message: str) -> Refusal:
    return Refusal("validation_error", message, {field: [message]})

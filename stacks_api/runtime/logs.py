"""Log lines as JSON, one a line, each with the request id it was written under.

Nothing secret is ever passed to a logger: the access line names the route
template and the path (ids are public; query strings, headers and bodies are
never logged), and the service logs game ids, never tokens, keys, seeds or
hands. ``configure`` is called once per process (the web workers, the bot
workers, the CLI's server).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from contextvars import ContextVar

from ..model import jsontext

# The id of the request being answered in this thread or greenlet ("" outside one).
request_id: ContextVar[str] = ContextVar("request_id", default="")


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", "request_id", ...extra}``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or request_id.get()
        if rid:
            line["request_id"] = rid
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return jsontext.dumps(line, default=str).decode()


def configure(level: str | None = None) -> None:
    """Send every log line of this process to stderr as JSON (``STACKS_LOG_LEVEL``,
    default info). Idempotent: a second call changes nothing."""
    root = logging.getLogger()
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root.handlers[:] = [handler]
    root.setLevel((level or os.environ.get("STACKS_LOG_LEVEL", "info")).upper())


ACCESS = logging.getLogger("stacks_api.access")


def access(method: str, route: str, path: str, status: int, started: float) -> None:
    """One line per answered request."""
    fields = {"method": method, "route": route, "path": path, "status": status,
              "duration_ms": round((time.perf_counter() - started) * 1000, 2)}  # fmt: skip
    ACCESS.info("%s %s %d", method, route, status, extra={"fields": fields})

"""JSON text for the hot paths (records, events, answers): orjson, ten times the
standard library's speed, with the standard library behind it for what orjson
refuses (integers past 64 bits). Both write the same JSON: compact, keys in
their order, non-string keys as strings."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any, default: Callable[[Any], Any] | None = None) -> bytes:
    """Compact JSON of ``value``, as UTF-8."""
    try:
        return orjson.dumps(value, default=default, option=OPTIONS)
    except TypeError:  # an integer past 64 bits, or a type only ``default`` knows
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=default)
        return text.encode()


def loads(text: bytes | str) -> Any:
    """The value of JSON ``text``."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # perhaps an integer past 64 bits: Python reads those
        return json.loads(text)

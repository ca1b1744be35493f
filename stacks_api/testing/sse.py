"""Reading a Server-Sent Events stream in tests."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any


def parse_sse(
    lines: Iterable[str], stop_after_id: int | None = None
) -> Iterator[tuple[int | None, dict[str, Any] | None]]:
    """(last id seen, event) per SSE message from a stream's lines; a comment is (None, None)."""
    data: list[str] = []
    last_id = None
    for line in lines:
        if line.startswith(":"):
            yield None, None
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line.startswith("id: "):
            last_id = int(line[4:])
        elif line == "" and data:
            yield last_id, json.loads("\n".join(data))
            data = []
            if stop_after_id is not None and last_id is not None and last_id >= stop_after_id:
                return

"""Flask's JSON, by ``model.jsontext``: the answers' JSON is most of what a view or a
move costs to write out."""

from __future__ import annotations

from typing import Any

from flask.json.provider import DefaultJSONProvider

from ..model import jsontext

COMPACT = {"separators": (",", ":")}  # how ``response`` asks for what orjson writes


class FastJsonProvider(DefaultJSONProvider):
    """The default provider's types and order, written by orjson; with options
    (``indent``, ``sort_keys``), the default provider itself."""

    sort_keys = False  # keep the documented key order

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs and kwargs != COMPACT:
            return super().dumps(obj, **kwargs)
        return jsontext.dumps(obj, default=self.default).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return super().loads(s, **kwargs) if kwargs else jsontext.loads(s)

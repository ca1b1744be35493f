"""A request applied once under a key of the client's: a socket message's ``id``
for chat, resign and claim (actions keep their own, ``Play.act``).

The first answer is remembered in the same atomic write as the change it made,
under a slot named by a digest of the credential and the key (never their text);
a retry, on this socket or a new one, is answered that answer and changes
nothing, and the same key on a different request is refused. A refusal is not
remembered: it changed nothing, and the retry is decided afresh.
"""

from __future__ import annotations

import hashlib
import json

from ..model.record import JSON, GameRecord
from ..model.refusals import Refusal
from ..store import Change, GameStore
from .table import Decide


def once(
    store: GameStore, game_id: str, token: str | None, key: str | None, request: JSON,
    decide: Decide,
) -> Decide:  # fmt: skip
    """``decide``, applied at most once for ``token``'s ``key`` (None: every time)."""
    if key is None:
        return decide
    slot = "once:" + hashlib.sha256(f"{token}\0{key}".encode()).hexdigest()[:32]
    fingerprint = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()

    def deciding(record: GameRecord) -> tuple[Change, JSON]:
        prior = store.recall(game_id, slot)
        if prior is not None:
            if prior["fingerprint"] != fingerprint:
                raise Refusal("idempotency_key_reused",
                              "this id was already used for a different request")  # fmt: skip
            return Change(None), prior["answer"]
        change, answer = decide(record)
        if change.record is not None:
            change.remember = (slot, {"fingerprint": fingerprint, "answer": answer})
        return change, answer

    return deciding

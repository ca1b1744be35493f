"""What the service shows of a game: a seat's (or a spectator's) view, and a lobby
summary. Each is rendered once, as the JSON the API sends."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

from ..engine import Game
from ..model.record import GONE, JSON, GameRecord
from .changes import scored_detail

# What a person shows beside the rules when nothing is known of it (``people``).
UNKNOWN = {
    "presence": None,
    "seen_at": None,
    "vacation_days_left": None,
    "bot_account": False,
    "claimable_at": None,
}
# What of it changes without a new version, so goes into the view's entity tag (a
# bot account sits in no game before it becomes one: that never changes).
CHANGING = ("presence", "seen_at", "vacation_days_left", "claimable_at")


def render(
    record: GameRecord,
    game: Game,
    seat: int | None,
    people: Mapping[int, Mapping[str, object]] | None = None,
) -> JSON:
    """The view: the engine's view of ``seat`` plus the server's own fields, and
    ``people``'s presence and vacation (``service.people``) when given. A duplicate
    board's view shows the commitment to its deal alone, ended or not."""
    view = game.view(seat)
    # A duplicate board's secrets dealt its group's other tables too: only the view
    # of ``Play`` shows them, once it knows that the whole group is over.
    sealed = bool(record.duplicate)
    fair = None if record.fairness is None else record.fairness.public(record.ended and not sealed)
    view.update(id=record.id, status=record.status, version=record.version,
                practice=record.practice, deadline=record.clock, rematch=record.rematch,
                fairness=fair, cancel_agreed=list(record.cancel_agreed),
                unlisted=record.unlisted, rated=record.rated, unrated=record.unrated,
                tournament=record.tournament, duplicate=record.duplicate,
                pace=None if record.days is None else {"days": record.days})  # fmt: skip
    scores = record.result.scores if record.result is not None else None
    for player in view["players"]:
        stored = record.seats[player["seat"]]
        player.update(name=stored.name, bot=stored.bot, player_id=stored.player_id,
                      away=stored.state == "away", left=stored.state == "left",
                      resigned=stored.state == "resigned",
                      score=None if scores is None else scores[player["seat"]],
                      **(people or {}).get(player["seat"], UNKNOWN))  # fmt: skip
    if view["result"] is None and record.result is not None:  # ended by resignations
        view["result"] = record.result.detail
    elif record.result is not None:
        view["result"] = _as_scored(view["result"], scored_detail(game, record.result.scores))
    if record.status != "active" or (seat is not None and record.seats[seat].state in GONE):
        if record.status != "active":
            view["to_move"] = []
        if "you" in view:
            view["you"]["legal_actions"] = []
    if record.status == "waiting" and not record.practice:
        _undealt(view, record)
    return view


def _as_scored(board: JSON, scored: JSON) -> JSON:
    """The result a view shows: the board's, unless a person who left won it for
    their stand-in (they lost: ``model.outcomes``); then who won by the scores, with
    the board's own account as ``board``, so a client never names a leaver."""
    if all(board.get(key) == value for key, value in scored.items()) and (scored or not board):
        return board
    return {**scored, "board": board}


def people_tag(view: JSON) -> str:
    """What of the view's people changes without a new version (presence, vacation):
    a short digest for its entity tag, "" when it shows none."""
    return _digest([[p.get(k) for k in CHANGING] for p in view["players"]])


def people_digest(players: int, people: Mapping[int, Mapping[str, object]]) -> str:
    """``people_tag`` of a view that ``render`` would make with ``people``."""
    return _digest([[people.get(s, UNKNOWN).get(k) for k in CHANGING] for s in range(players)])


def _digest(shown: list[list[object]]) -> str:
    if not any(any(v is not None for v in values) for values in shown):
        return ""
    return hashlib.blake2s(json.dumps(shown).encode(), digest_size=4).hexdigest()


def _undealt(view: JSON, record: GameRecord) -> None:
    """A committed deal is made when the table is full: until then the view shows no
    hand, no cut and no dealer but one fixed in advance (the engine's state is only
    a stand-in)."""
    if "you" in view:
        view["you"]["hand"] = []
    for player in view["players"]:
        player.update(hand_size=0, discard_top=None)
    view["log"] = []
    view["dealer"] = None if record.fairness is None else record.fairness.dealer


def summary(record: GameRecord) -> JSON:
    """A game as the lobby lists it."""
    return {
        "id": record.id,
        "variant": record.variant,
        "status": record.status,
        "players": record.players,
        "version": record.version,
        "practice": record.practice,
        "rated": record.rated,
        "days": record.days,
        "created_at": record.created_at,
        "seats": [
            {"seat": i, "name": seat.name, "bot": seat.bot, "free": seat.state == "free"}
            for i, seat in enumerate(record.seats)
        ],
    }

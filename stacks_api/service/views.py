"""What the service shows of a game: a seat's (or a spectator's) view, and a lobby
summary. Each is rendered once, as the JSON the API sends."""

from __future__ import annotations

from ..engine import Game
from ..model.record import GONE, JSON, GameRecord


def render(record: GameRecord, game: Game, seat: int | None) -> JSON:
    """The view: the engine's view of ``seat`` plus the server's own fields."""
    view = game.view(seat)
    fair = None if record.fairness is None else record.fairness.public(record.ended)
    view.update(id=record.id, status=record.status, version=record.version,
                practice=record.practice, deadline=record.clock, rematch=record.rematch,
                fairness=fair, cancel_agreed=list(record.cancel_agreed),
                unlisted=record.unlisted, rated=record.rated,
                tournament=record.tournament)  # fmt: skip
    scores = record.result.scores if record.result is not None else None
    for player in view["players"]:
        stored = record.seats[player["seat"]]
        player.update(name=stored.name, bot=stored.bot, player_id=stored.player_id,
                      away=stored.state == "away", left=stored.state == "left",
                      resigned=stored.state == "resigned",
                      score=None if scores is None else scores[player["seat"]])  # fmt: skip
    if view["result"] is None and record.result is not None:  # ended by resignations
        view["result"] = record.result.detail
    if record.status != "active" or (seat is not None and record.seats[seat].state in GONE):
        if record.status != "active":
            view["to_move"] = []
        if "you" in view:
            view["you"]["legal_actions"] = []
    if record.status == "waiting" and not record.practice:
        _undealt(view, record)
    return view


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
        "created_at": record.created_at,
        "seats": [
            {"seat": i, "name": seat.name, "bot": seat.bot, "free": seat.state == "free"}
            for i, seat in enumerate(record.seats)
        ],
    }

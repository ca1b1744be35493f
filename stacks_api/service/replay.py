"""An ended game's positions, rebuilt from its record: the game as it was after
any of its versions (what the web client's replay steps through).

The deal is made again from the revealed secrets (or, for a chosen deal, from the
seed and position the creator gave, revealed at the end), and the public events
up to the version are replayed through the engine (``engine.replay``).
"""

from __future__ import annotations

from dataclasses import replace

from ..engine import Game, create_game
from ..engine.replay import moves, public, replay
from ..model.fairness import CHOSEN, SCHEMES, game_seed
from ..model.record import JSON, STAND_IN, Fairness, GameRecord, Result, Seat, SeatState, Status
from ..model.refusals import Refusal
from .views import render


def dealt(document: JSON) -> Game:
    """The game as it was dealt, from its record."""
    fair, variant, players = document["fairness"], document["variant"], document["players"]
    options = document["options"]
    if fair["scheme"] in SCHEMES:
        seed = game_seed(fair["server_seed"], fair["entropy"], fair["scheme"])
        return create_game(variant, players, seed, options, dealer=fair["dealer"])
    if fair.get("seed") is None:
        raise Refusal("game_not_active", "this game was played before its deal was kept: "
                                         "it cannot be replayed")  # fmt: skip
    return create_game(variant, players, fair["seed"], options, position=fair.get("position"))


def played_to(document: JSON, version: int) -> Game:
    """The game as it was right after ``version``: dealt again, then replayed."""
    events = document["events"]
    game = dealt(document)
    started = next((e["version"] for e in events if e["type"] == "started"), None)
    if started is None or version < started:
        return game
    upto = [e for e in moves(events, started) if e["version"] <= version]
    game, failed = replay(game, [public(e) for e in upto])
    if failed is not None:
        raise RuntimeError(f"game {document['id']}: its record does not replay at {failed}")
    return game


def position(document: JSON, version: int) -> JSON:
    """The spectator's view of an ended game right after ``version``."""
    events = document["events"]
    last = events[-1]["version"] if events else 0
    if not 0 < version <= last:
        raise Refusal("not_found", f"the game's versions run from 1 to {last}, not {version}")
    started = next((e["version"] for e in events if e["type"] == "started"), last + 1)
    status: Status = "active" if version >= started else "waiting"
    if version == last:
        status = document["status"]
    shown = replace(kept_record(document), version=version, status=status)
    return render(shown, played_to(document, version), None)


def final_record(document: JSON) -> GameRecord:
    """The record of an archived game, rebuilt from its document: its seats, its
    deal and, replayed, its final state."""
    last = document["events"][-1]["version"] if document["events"] else 0
    return replace(kept_record(document), game=played_to(document, last).to_dict())


def kept_record(document: JSON) -> GameRecord:
    """What a record document says of its game's record, without its state (``game``
    is empty). Seat tokens are not kept in the archive: a seat linked to an account
    is still its player's (by key)."""
    fair, result, events = document["fairness"], document["result"], document["events"]
    return GameRecord(
        id=document["id"],
        variant=document["variant"],
        players=document["players"],
        status=document["status"],
        version=events[-1]["version"] if events else 0,
        practice=fair["scheme"] == CHOSEN,
        created_at=document["created_at"],
        updated_at=document["ended_at"],
        host="",
        bot_seed=0,
        seats=tuple(_seat(s) for s in document["seats"]),
        game={},
        result=None if result is None else Result(tuple(result["scores"]), result["detail"]),
        rematch_of=document["rematch_of"],
        fairness=_fairness(fair),
        rated=document.get("rated", False),
        unrated=document.get("unrated"),
        tournament=document.get("tournament"),
        duplicate=document.get("duplicate"),
    )


def _fairness(shown: JSON) -> Fairness:
    """The deal as a record shows it (every secret revealed)."""
    entropy = tuple(shown.get("entropy") or ())
    return Fairness(shown["scheme"], shown.get("commitment"), shown.get("server_seed"), entropy,
                    shown.get("dealer"), shown.get("seed"), shown.get("position"))  # fmt: skip


def _seat(kept: JSON) -> Seat:
    if kept["bot"] is not None:
        return Seat("bot", name=kept["name"], bot=kept["bot"])
    state: SeatState = "left" if kept["left"] else "resigned" if kept.get("resigned") else "human"
    bot = STAND_IN if state != "human" else None
    return Seat(state, name=kept["name"], bot=bot, player_id=kept["player_id"])

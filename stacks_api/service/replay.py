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
from ..fairness import CHOSEN, SCHEMES, game_seed
from ..problems import Refusal
from ..record import JSON, STAND_IN, Fairness, GameRecord, Result, Seat, SeatState
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


def position(record: GameRecord, document: JSON, version: int) -> JSON:
    """The spectator's view of the ended game ``record`` right after ``version``."""
    last = document["events"][-1]["version"] if document["events"] else record.version
    if not 0 < version <= last:
        raise Refusal("not_found", f"the game's versions run from 1 to {last}, not {version}")
    started = next((e["version"] for e in document["events"] if e["type"] == "started"), None)
    game = dealt(document)
    if started is not None and version >= started:
        upto = [e for e in moves(document["events"], started) if e["version"] <= version]
        game, failed = replay(game, [public(e) for e in upto])
        if failed is not None:
            raise RuntimeError(f"game {record.id}: its record does not replay at event {failed}")
    status = (
        record.status
        if version == last
        else "waiting"
        if started is None or version < started
        else "active"
    )
    shown = replace(record, version=version, status=status, rematch=None, deadline=None,
                    turn_deadline=None, due_at=None)  # fmt: skip
    return render(shown, game, None)


def final_record(document: JSON) -> GameRecord:
    """The record of an archived game, rebuilt from its document: its seats, its
    deal and, replayed, its final state. Seat tokens are not kept in the archive:
    a seat linked to an account is still its player's (by key)."""
    game = dealt(document)
    events = document["events"]
    started = next((e["version"] for e in events if e["type"] == "started"), None)
    if started is not None:
        game, failed = replay(game, [public(e) for e in moves(events, started)])
        if failed is not None:
            raise RuntimeError(f"game {document['id']}: its record does not replay")
    fair = document["fairness"]
    result = document["result"]
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
        game=game.to_dict(),
        result=None if result is None else Result(tuple(result["scores"]), result["detail"]),
        rematch_of=document["rematch_of"],
        fairness=Fairness(
            fair["scheme"],
            fair.get("commitment"),
            fair.get("server_seed"),
            tuple(fair.get("entropy") or ()),
            fair.get("dealer"),
            fair.get("seed"),
            fair.get("position"),
        ),
    )


def _seat(kept: JSON) -> Seat:
    if kept["bot"] is not None:
        return Seat("bot", name=kept["name"], bot=kept["bot"])
    state: SeatState = "left" if kept["left"] else "human"
    bot = STAND_IN if kept["left"] else None
    return Seat(state, name=kept["name"], bot=bot, player_id=kept["player_id"])

"""Checking duplicate groups: a duplicate event's rounds (``stacks-api verify URL
--tournament ID``, docs/tournaments.md) and a duplicate challenge's two games
(``--match ID``, docs/api.md): that every game of a group was dealt the same
cards, from the seed committed before anyone played.

For each round that is over: the revealed server seed must hash to the round's
commitment; the entries' entropy, mixed, must be the round's; and every game's
record must verify on its own (``verify_record``, against the round's commitment)
with that seed and that one entropy at every seat. A match's two records must
each verify against the challenge's commitment, with the same seed and entropy.
The same seed, entropy, seat count and variant make the same deck order and the
same first player.
"""

from __future__ import annotations

from typing import Any

from ..model.fairness import commitment, mixed_entropy
from .verify import (
    COULD_NOT_CHECK,
    NOT_VERIFIED,
    VERIFIED,
    Verdict,
    fetch_json,
    fetch_record,
    verify_record,
)

JSON = dict[str, Any]


def verify_match(url: str, match_id: str, timeout_s: float = 15.0) -> Verdict:
    """The verdict on a duplicate challenge's two games, once both have ended."""
    match = fetch_json(url, f"matches/{match_id}", timeout_s)
    if isinstance(match, Verdict):
        return match
    if match["status"] != "over":
        return Verdict(COULD_NOT_CHECK, "the match is still being played")
    records = []
    for game in match["games"]:
        record = fetch_record(url, game["game_id"], timeout_s)
        if isinstance(record, Verdict):
            return record
        verdict = verify_record(record, seen_commitment=match["commitment"])
        if not verdict.ok:
            return Verdict(NOT_VERIFIED, f"game {game['game_id']}: {verdict}")
        records.append(record)
    seeds = {r["fairness"]["server_seed"] for r in records}
    entropy = {e for r in records for e in r["fairness"]["entropy"]}  # one, at every seat
    if len(seeds) != 1 or len(entropy) != 1:
        return Verdict(NOT_VERIFIED, "the two games were not dealt from one seed and entropy")
    return Verdict(VERIFIED, "both games were dealt alike from the challenge's committed "
                   "seed and one entropy")  # fmt: skip


def verify_tournament(url: str, tournament_id: str, timeout_s: float = 15.0) -> Verdict:
    """The verdict on every round of the duplicate event that is over."""
    event = fetch_json(url, f"tournaments/{tournament_id}", timeout_s)
    if isinstance(event, Verdict):
        return event
    if event.get("system") != "duplicate":
        return Verdict(COULD_NOT_CHECK, f"tournament {tournament_id} is not a duplicate event")
    over = [d for d in event["deals"] if d["over"]]
    if not over:
        return Verdict(COULD_NOT_CHECK, "no round of the event is over yet")
    entropy = mixed_entropy([e["entropy"] for e in event["entries"]])
    games = 0
    for deal in over:
        tables = next(r["tables"] for r in event["pairings"] if r["round"] == deal["round"])
        failed = _round(url, deal, entropy, [t["game_id"] for t in tables if t["game_id"]])
        if failed is not None:
            return Verdict(NOT_VERIFIED, f"round {deal['round']}: {failed}")
        games += sum(1 for t in tables if t["game_id"])
    return Verdict(VERIFIED, f"{len(over)} round(s), {games} games: each round's games were "
                   "dealt alike from its committed seed and the entries' entropy")  # fmt: skip


def _round(url: str, deal: JSON, entropy: str | None, game_ids: list[str]) -> str | None:
    """What fails in one round (None: nothing)."""
    if commitment(deal["server_seed"], None) != deal["commitment"]:
        return "the revealed seed does not hash to the commitment made at the start"
    if deal["entropy"] != entropy:
        return "the round's entropy is not the entries' entropy mixed"
    for game_id in game_ids:
        record = fetch_record(url, game_id)
        if isinstance(record, Verdict):
            return str(record)
        verdict = verify_record(record, seen_commitment=deal["commitment"])
        if not verdict.ok:
            return f"game {game_id}: {verdict}"
        fair = record["fairness"]
        if fair["server_seed"] != deal["server_seed"] or set(fair["entropy"]) != {entropy}:
            return f"game {game_id} was not dealt from the round's seed and entropy"
    return None

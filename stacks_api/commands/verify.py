"""Checking an ended game's record with no server (``stacks-api verify``,
docs/fairness.md).

From the record alone (``GET /games/{id}/record``, docs/records.md): the revealed
server seed must hash, with the dealer fixed in advance, to the commitment; what
the player saw and sent before the deal (``commitment``, ``entropy``) must be
what the record says; the game's seed is derived again and the game dealt again
through the engine; every public event is replayed, each change by the move the
rules allow that produces exactly the stored events; and the replay must end
where the record says the game ended: its status, its result and its final
public state. The one event that ended the game must come last and say the same
as the record: the revealed secrets and its account of the result. The first
thing that fails is named.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..engine import Game, SetupError, create_game
from ..engine.replay import digest, moves, public, replay
from ..model.events import ends_game
from ..model.fairness import CHOSEN, ENTROPY, SCHEMES, commitment, game_seed
from ..model.outcomes import last_side, opening_over, with_leavers

JSON = dict[str, Any]
FORMAT = "stacks-record"
# Exit codes of ``stacks-api verify`` (2 is argparse's own: a wrong command line).
VERIFIED, NOT_VERIFIED, NOT_APPLICABLE, COULD_NOT_CHECK = 0, 1, 3, 4
SEED = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class Verdict:
    """The outcome (one of the exit codes above) and what decided it."""

    outcome: int
    detail: str

    @property
    def ok(self) -> bool:
        return self.outcome == VERIFIED

    def __str__(self) -> str:
        word = {VERIFIED: "verified", NOT_VERIFIED: "NOT verified",
                NOT_APPLICABLE: "not applicable", COULD_NOT_CHECK: "could not check"}  # fmt: skip
        return f"{word[self.outcome]}: {self.detail}"


class Failed(Exception):
    """The record is not what an honest server would have written."""


def verify_record(record: Any, seen_commitment: str | None = None,
                  sent_entropy: str | None = None) -> Verdict:  # fmt: skip
    """Check ``record``; ``seen_commitment`` and ``sent_entropy`` are what the player
    saw and sent before the deal, if they kept them."""
    if not isinstance(record, dict) or not isinstance(record.get("format"), dict):
        return Verdict(COULD_NOT_CHECK, "this is not a game record (no 'format')")
    shape = record["format"]
    if shape.get("name") != FORMAT or shape.get("version") not in (1, 2, 3):
        return Verdict(COULD_NOT_CHECK, f"not a {FORMAT} record of version 1 to 3: {shape!r}")
    try:
        return _verify(record, seen_commitment, sent_entropy)
    except Failed as failure:
        return Verdict(NOT_VERIFIED, str(failure))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        return Verdict(NOT_VERIFIED, f"the record is malformed ({type(err).__name__}: {err})")


def _verify(record: JSON, seen: str | None, sent: str | None) -> Verdict:
    fair, players = record["fairness"], int(record["players"])
    if fair["scheme"] == CHOSEN:
        return Verdict(NOT_APPLICABLE, "the creator chose the deal (a seed or a position)")
    if fair["scheme"] not in SCHEMES:
        raise Failed(f"unknown deal scheme {fair['scheme']!r}")
    committed = _hex(fair.get("commitment"), "the commitment")
    if seen is not None and seen.lower() != committed:
        raise Failed(f"the record's commitment {committed} is not the one you saw, {seen}")
    entropy = _entropy(fair.get("entropy"), players)
    if sent is not None and sent.lower() not in entropy:
        raise Failed(f"the entropy you sent, {sent}, is in no seat of the record")
    if record["status"] not in ("finished", "cancelled", "aborted"):
        raise Failed(f"the game is {record['status']!r}, not over")
    seed = _hex(fair.get("server_seed"), "the revealed server seed")
    dealer = fair.get("dealer")
    if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < players):
        raise Failed(f"the dealer {dealer!r} is no seat of the game")
    if fair["scheme"] == "commit-reveal-v1" and dealer is not None:
        raise Failed("a commit-reveal-v1 deal does not commit to its fixed dealer")
    if commitment(seed, dealer, fair["scheme"]) != committed:
        raise Failed("the server seed and the dealer do not hash to the commitment")
    events = list(record["events"])
    starts = [e for e in events if e["type"] == "started"]
    if not starts and record["status"] == "cancelled":
        return Verdict(NOT_APPLICABLE, "the game was cancelled before the deal")
    if len(starts) != 1:
        raise Failed(f"the record has {len(starts)} 'started' events, not one")
    try:
        game = create_game(record["variant"], players, game_seed(seed, entropy, fair["scheme"]),
                           record["options"], dealer=dealer)  # fmt: skip
    except SetupError as err:
        raise Failed(f"the record's game cannot be set up: {err}") from None
    started = starts[0]
    if started["to_move"] != game.to_move:
        raise Failed(f"started: {game.to_move} should move first, not {started['to_move']}")
    played = moves(events, started["version"])

    def ends_as_recorded(end: Game) -> bool:  # where the events leave a choice open
        return bool(digest(_plain(end.view(None))) == record["final_sha256"])

    game, failed = replay(game, [public(e) for e in played], accept=ends_as_recorded)
    if failed is not None:
        event = played[failed]
        raise Failed(f"version {event['version']}: nothing the rules allow produces "
                     f"{json.dumps(public(event))}")  # fmt: skip
    _same_ending(record, game)
    _ending_event_agrees(record)
    later = len([e for e in events if e["version"] > started["version"]])
    return Verdict(VERIFIED, f"the deal, all {later} later events and the ending check out")


def _same_ending(record: JSON, game: Game) -> None:
    """The replay ends where the record says the game ended."""
    finished = game.result is not None
    status, result = record["status"], record["result"]
    conceded = status == "finished" and not finished and _resigned_to_one(record)
    if status == "finished" and not finished and not conceded:
        raise Failed("the replay ends with the game still on, but the record says it finished")
    if status in ("cancelled", "aborted") and finished:
        raise Failed(f"the replay ends with the game over, but the record says it was {status}")
    if status == "aborted":
        _aborted_in_opening(record)
    if (finished or conceded) and (
        result is None or list(result["scores"]) != _scores(record, game)
    ):
        raise Failed(f"the replay's result {_scores(record, game)} is not the record's "
                     f"{None if result is None else result['scores']}")  # fmt: skip
    if digest(_plain(game.view(None))) != record["final_sha256"]:
        raise Failed("the replay's final position is not the record's (final_sha256)")


def _ending_event_agrees(record: JSON) -> None:
    """The one event that ended the game comes last and repeats the record: the deal's
    revealed secrets, and the account of the result (a ``game_over``'s is the board's,
    as the replay found; a resignation's or forfeit's, the side left's)."""
    endings = [e for e in record["events"] if ends_game(e)]
    if len(endings) != 1:
        raise Failed(f"the record has {len(endings)} events that end the game, not one")
    ending, fair = endings[0], record["fairness"]
    if ending is not _last_event(record):
        raise Failed(f"the {ending['type']} event that ended the game is not the last")
    for field in ("server_seed", "entropy"):
        if ending.get(field) != fair[field]:
            raise Failed(f"the {ending['type']} event's {field} {ending.get(field)!r} is not "
                         f"the record's {fair[field]!r}")  # fmt: skip
    result = record["result"]
    if result is None:
        return
    said = ending.get("result")
    if said != result["detail"]:
        raise Failed(f"the {ending['type']} event's result {json.dumps(said)} is not the "
                     f"record's {json.dumps(result['detail'])}")  # fmt: skip


def _scores(record: JSON, game: Game) -> list[float]:
    """Each seat's score as the record's version counts it: the board's (version 1),
    or with every person who left or resigned scored as a loser (version 2 on). A
    game ended by resignations is won on the board by the one side left."""
    board = game.outcome()
    if board is None:
        winner = _last_side(record)
        board = [1.0 if _side(record, s) == winner else 0.0 for s in range(len(record["seats"]))]
    if record["format"]["version"] == 1:
        return list(board)
    gone = {s["seat"] for s in record["seats"] if s.get("left") or s.get("resigned")}
    return list(with_leavers(board, gone, lambda seat: _side(record, seat)))


def _side(record: JSON, seat: int) -> int:
    team = record["seats"][seat].get("team")
    return seat if team is None else int(team)


def _gave_up(event: JSON) -> bool:
    """Whether an event is a side giving the game up: a resignation, or a days game's
    forfeit (its deadline passed with no vacation left)."""
    return event["type"] == "resigned" or (event["type"] == "timeout" and "forfeit" in event)


def _last_side(record: JSON) -> int | None:
    """The one side that had not given up when the last side gave up, if one."""
    resigned = {_side(record, s) for e in record["events"] if _gave_up(e)
                for s in e["seats"]}  # fmt: skip
    return last_side({_side(record, s) for s in range(len(record["seats"]))}, resigned)


def _resigned_to_one(record: JSON) -> bool:
    """Whether the record's last event is a resignation that left one side, and the
    seats it names resigned."""
    last = _last_event(record)
    if not _gave_up(last) or "result" not in last or _last_side(record) is None:
        return False
    named = {s for e in record["events"] if _gave_up(e) for s in e["seats"]}
    said = {s["seat"] for s in record["seats"] if s.get("resigned")}
    left = {s["seat"] for s in record["seats"] if s.get("left")}
    if named - left != said:
        raise Failed(f"the seats that resigned {sorted(named)} are not the record's {sorted(said)}")
    return True


def _aborted_in_opening(record: JSON) -> None:
    """An abort comes last, before every side had made its opening moves."""
    events = record["events"]
    if _last_event(record)["type"] != "aborted":
        raise Failed("the record says the game was aborted, but its last event is no abort")
    sides = {s: _side(record, s) for s in range(len(record["seats"]))}
    if opening_over(events, sides):
        raise Failed("the game was aborted after every side had made its opening moves")
    if record["result"] is not None:
        raise Failed("an aborted game has no result")


def _last_event(record: JSON) -> JSON:
    """The record's last event that is not table talk."""
    last: JSON = next(e for e in reversed(record["events"]) if e["type"] != "chat")
    return last


def _hex(value: Any, what: str) -> str:
    if not isinstance(value, str) or not SEED.match(value.lower()):
        raise Failed(f"{what} is not 64 hex digits: {value!r}")
    return value.lower()


def _entropy(given: Any, players: int) -> list[str | None]:
    if not isinstance(given, list) or len(given) != players:
        raise Failed(f"the entropy should be one entry per seat, not {given!r}")
    for text in given:
        if text is not None and (not isinstance(text, str) or not ENTROPY.match(text)):
            raise Failed(f"a seat's entropy is not 1 to 64 hex digits: {text!r}")
    return [None if text is None else text.lower() for text in given]


def _plain(data: Any) -> Any:
    """JSON as it travels (shared read-only values become plain ones)."""
    return json.loads(json.dumps(data))


def fetch_record(url: str, game_id: str, timeout_s: float = 15.0) -> JSON | Verdict:
    """The record from a server, or a could-not-check verdict saying why not."""
    return fetch_json(url, f"games/{game_id}/record", timeout_s)


def fetch_json(url: str, path: str, timeout_s: float = 15.0) -> JSON | Verdict:
    """The server's JSON at API ``path``, or a could-not-check verdict saying why not."""
    import requests

    address = f"{url.rstrip('/')}/api/v1/{path}"
    try:
        response = requests.get(address, timeout=timeout_s)
    except requests.RequestException as err:
        return Verdict(COULD_NOT_CHECK, f"{address} cannot be reached ({type(err).__name__})")
    if response.status_code != 200:
        try:
            said = response.json().get("detail", "")
        except ValueError:
            said = response.text[:200]
        return Verdict(COULD_NOT_CHECK, f"{address} answered {response.status_code}: {said}")
    try:
        found: JSON = response.json()
    except ValueError:
        return Verdict(COULD_NOT_CHECK, f"{address} did not answer JSON")
    return found


def read_record(path: str) -> JSON | Verdict:
    """The record saved in a file, or a could-not-check verdict saying why not."""
    try:
        with open(path, encoding="utf-8") as file:
            record: JSON = json.load(file)
    except OSError as err:
        return Verdict(COULD_NOT_CHECK, f"{path} cannot be read ({err.strerror})")
    except ValueError as err:
        return Verdict(COULD_NOT_CHECK, f"{path} is not JSON ({err})")
    return record


def verify_source(source: str, game_id: str | None, seen_commitment: str | None = None,
                  sent_entropy: str | None = None) -> Verdict:  # fmt: skip
    """``stacks-api verify``: a saved record (``source`` a file), or the record of
    ``game_id`` on the server at ``source``."""
    record = read_record(source) if game_id is None else fetch_record(source, game_id)
    if isinstance(record, Verdict):
        return record
    return verify_record(record, seen_commitment, sent_entropy)

"""``stacks-api verify``: honest records verify; every kind of forgery is caught
and named; a broken input is a clear message with its own exit code."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from stacks_api.app import create_app
from stacks_api.commands.verify import (
    COULD_NOT_CHECK,
    NOT_APPLICABLE,
    NOT_VERIFIED,
    VERIFIED,
    verify_record,
)
from stacks_api.model.fairness import commitment
from stacks_api.runtime.config import TestConfig
from stacks_api.testing import free_port

API = "/api/v1/games"
GAMES_PER_VARIANT = 100


def bot_game_records(client: Any, variant: str, players: int, count: int) -> list[dict]:
    """``count`` games between random bots, played to the end; their records."""
    seats = [{"bot": "random"}] * players
    ids = [
        client.post(API, json={"variant": variant, "players": players, "seats": seats}).json[
            "game"
        ]["id"]
        for _ in range(count)
    ]
    records = []
    deadline = time.monotonic() + 300
    for game_id in ids:
        while (answer := client.get(f"{API}/{game_id}/record")).status_code != 200:
            assert time.monotonic() < deadline, "the bots never finished"
            time.sleep(0.05)
        records.append(answer.json)
    return records


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[dict]]]:
    folder = tmp_path_factory.mktemp("verify")
    app = create_app(TestConfig, DATABASE_URL=f"sqlite:///{folder}/archive.sqlite3")
    client = app.test_client()
    yield {
        "sequence": bot_game_records(client, "sequence", 2, GAMES_PER_VARIANT),
        "stacks": bot_game_records(client, "stacks", 3, GAMES_PER_VARIANT),
    }
    app.extensions["stacks_api.games"].jobs.stop()


@pytest.fixture
def sequence(records: dict[str, list[dict]]) -> dict:
    """A won Sequence game (random bots draw now and then: a drawn result flipped is
    the same result)."""
    won = next(r for r in records["sequence"] if 0.5 not in r["result"]["scores"])
    return copy.deepcopy(won)


def failed(record: dict, *given: str | None) -> str:
    verdict = verify_record(record, *given)
    assert verdict.outcome == NOT_VERIFIED, verdict
    return verdict.detail


def test_the_records_of_a_hundred_bot_games_of_each_variant_verify(records):
    for variant, made in records.items():
        assert len(made) == GAMES_PER_VARIANT
        for record in made:
            verdict = verify_record(record, record["fairness"]["commitment"])
            assert verdict.outcome == VERIFIED, (variant, record["id"], verdict)


def test_one_changed_event_is_named_by_its_version(sequence):
    plays = [e for e in sequence["events"] if e["type"] == "play"]
    target = plays[3]
    # A corner is a free space nobody ever plays on: the changed play is never legal
    # (another space could be, when the card is printed twice on the board).
    target["cell"] = [0, 0]
    assert f"version {target['version']}:" in failed(sequence)


def test_a_history_cut_short_with_the_result_flipped_fails(sequence):
    last = sequence["events"][-1]["version"]
    sequence["events"] = [e for e in sequence["events"] if e["version"] <= last - 10]
    sequence["result"]["scores"] = [1 - s for s in sequence["result"]["scores"]]
    assert "still on" in failed(sequence)


def test_a_flipped_result_or_another_final_position_fails(sequence):
    flipped = copy.deepcopy(sequence)
    flipped["result"]["scores"] = [1 - s for s in flipped["result"]["scores"]]
    assert "result" in failed(flipped)
    moved = copy.deepcopy(sequence)
    moved["final_sha256"] = "0" * 64
    assert "final position" in failed(moved)


def test_the_event_that_ended_the_game_must_repeat_the_record(sequence):
    ending = sequence["events"][-1]
    assert ending["type"] == "game_over"
    revealed = copy.deepcopy(sequence)
    revealed["events"][-1]["server_seed"] = "22" * 32
    assert "game_over event's server_seed" in failed(revealed)
    told = copy.deepcopy(sequence)
    told["events"][-1]["entropy"] = ["ab"] * sequence["players"]
    assert "game_over event's entropy" in failed(told)
    recounted = copy.deepcopy(sequence)
    recounted["result"]["detail"]["sequences"] = {"0": 9}
    assert "game_over event's result" in failed(recounted)
    twice = copy.deepcopy(sequence)
    twice["events"].append({**ending, "type": "cancelled", "version": ending["version"] + 1})
    assert "2 events that end the game" in failed(twice)
    early = copy.deepcopy(sequence)
    early["events"].append({"type": "left", "seat": 0, "version": ending["version"] + 1})
    assert "game_over event that ended the game is not the last" in failed(early)


def test_a_commitment_or_entropy_other_than_the_player_saw_and_sent_fails(sequence):
    fair = sequence["fairness"]
    assert "not the one you saw" in failed(sequence, "ab" * 32)
    assert "in no seat" in failed(sequence, fair["commitment"], "c0ffee")


def test_a_server_seed_chosen_after_the_game_fails_even_with_a_matching_commitment(sequence):
    fair = sequence["fairness"]
    seen = fair["commitment"]
    fair["server_seed"] = "11" * 32
    fair["commitment"] = commitment(fair["server_seed"], fair["dealer"])
    assert "not the one you saw" in failed(sequence, seen)
    detail = failed(sequence)  # without what the player saw: the deal itself differs
    assert "started" in detail or "version" in detail


def test_another_dealer_or_swapped_entropy_fails(sequence):
    other = copy.deepcopy(sequence)
    other["fairness"]["dealer"] = 1
    assert "do not hash to the commitment" in failed(other)
    swapped = copy.deepcopy(sequence)
    swapped["fairness"]["entropy"] = ["ab", None]
    assert "started" in failed(swapped) or "version" in failed(swapped)


def test_a_record_without_its_start_or_with_a_malformed_reveal_fails(sequence):
    unstarted = copy.deepcopy(sequence)
    unstarted["events"] = [e for e in unstarted["events"] if e["type"] != "started"]
    assert "0 'started' events" in failed(unstarted)
    garbled = copy.deepcopy(sequence)
    garbled["fairness"]["server_seed"] = "zz"
    assert "not 64 hex digits" in failed(garbled)
    broken = copy.deepcopy(sequence)
    broken["events"] = 7
    assert "malformed" in failed(broken)


def test_a_chosen_deal_or_a_game_cancelled_before_its_deal_is_not_applicable(sequence):
    chosen = copy.deepcopy(sequence)
    chosen["fairness"] = {"scheme": "chosen"}
    assert verify_record(chosen).outcome == NOT_APPLICABLE
    cancelled = copy.deepcopy(sequence)
    cancelled["status"] = "cancelled"
    cancelled["events"] = [e for e in cancelled["events"] if e["type"] in ("created", "joined")]
    assert verify_record(cancelled).outcome == NOT_APPLICABLE
    assert verify_record({"hello": 1}).outcome == COULD_NOT_CHECK
    assert verify_record([1, 2]).outcome == COULD_NOT_CHECK


def run_verify(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "stacks_api.cli", "verify", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_the_command_says_what_it_found_with_distinct_exit_codes(sequence, tmp_path):
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(sequence))
    done = run_verify(str(honest), "--commitment", sequence["fairness"]["commitment"])
    assert (done.returncode, done.stdout.split(":")[0]) == (VERIFIED, "verified")
    forged = copy.deepcopy(sequence)
    forged["result"]["scores"] = [1 - s for s in forged["result"]["scores"]]
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    done = run_verify(str(tmp_path / "forged.json"))
    assert (done.returncode, done.stdout.split(":")[0]) == (NOT_VERIFIED, "NOT verified")
    forged["fairness"] = {"scheme": "chosen"}
    (tmp_path / "chosen.json").write_text(json.dumps(forged))
    assert run_verify(str(tmp_path / "chosen.json")).returncode == NOT_APPLICABLE
    (tmp_path / "junk.json").write_text("{not json")
    for source in ([str(tmp_path / "junk.json")], [str(tmp_path / "missing.json")],
                   [f"http://127.0.0.1:{free_port()}", "some-game"]):  # fmt: skip
        done = run_verify(*source)
        assert done.returncode == COULD_NOT_CHECK, done
        assert done.stdout.startswith("could not check: ") and "Traceback" not in done.stderr

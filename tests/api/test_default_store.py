"""The README's ``stacks-api serve`` (no REDIS_URL, no DATABASE_URL) keeps its games:
every move it acknowledged is there after ``kill -9`` of all its processes at once,
and after ``kill -9`` of its supervisor alone (whose redis-server, left running, is
shut down by the next start rather than shared)."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
import requests

from stacks_api.client import Client
from stacks_api.testing import ServerProcess

pytestmark = pytest.mark.slow

DEFAULT = {"REDIS_URL": "", "DATABASE_URL": "", "STACKS_STORE": ""}


def two_people(api: Client, **body: Any) -> tuple[str, list[str]]:
    game = api.create("sequence", 2, **body)
    return game["id"], [api.join(game["id"], name).token for name in ("Ada", "Bo")]


def days_game(url: str) -> tuple[str, list[str]]:
    """A days game of two accounts, from a challenge; each seat's player key."""
    keys, ids = [], []
    for name in ("Cy", "Di"):
        made = requests.post(f"{url}/api/v1/players", json={"name": name}, timeout=10).json()
        keys.append(made["key"])
        ids.append(made["player"]["id"])
    sent = requests.post(f"{url}/api/v1/players/{ids[1]}/challenges", timeout=10,
                         json={"variant": "sequence", "days": 3},
                         headers={"Authorization": f"Bearer {keys[0]}"}).json()  # fmt: skip
    accepted = requests.post(f"{url}/api/v1/challenges/{sent['challenge']['id']}/accept",
                             json={}, headers={"Authorization": f"Bearer {keys[1]}"},
                             timeout=10).json()  # fmt: skip
    seats = [keys[0], keys[0]]
    seats[accepted["seat"]] = keys[1]
    return accepted["game"]["id"], seats


def moves(api: Client, game_id: str, tokens: list[str], count: int) -> list[int]:
    """``count`` acknowledged moves; the version each answer said."""
    acknowledged = []
    for _ in range(count):
        view = api.view(game_id)
        mover = view["to_move"][0]
        mine = api.view(game_id, tokens[mover])
        answer = api.act(game_id, tokens[mover], mine["you"]["legal_actions"][0])
        acknowledged.append(answer["game"]["version"])
    return acknowledged


def test_kill_9_of_the_whole_default_server_loses_no_acknowledged_move(tmp_path: Path):
    env = {**DEFAULT, "STACKS_DATA_DIR": str(tmp_path)}
    first = ServerProcess(env, workers=2)
    try:
        assert "live games are kept in" in first.output()
        api = Client(first.url)
        quick, quick_tokens = two_people(api)
        days, days_tokens = days_game(first.url)
        versions = moves(api, quick, quick_tokens, 6) + moves(api, days, days_tokens, 3)
        events = {g: api.events(g) for g in (quick, days)}
    finally:
        first.kill_all()

    second = ServerProcess(env)
    try:
        api = Client(second.url)
        for game_id in (quick, days):
            assert api.events(game_id) == events[game_id], "every event, none added"
        assert api.view(quick)["version"] == versions[5]
        assert api.view(days)["version"] == versions[-1] and api.view(days)["pace"]["days"] == 3
        moves(api, quick, quick_tokens, 2)  # the seats' tokens still play
        after = api.view(quick)["version"]
        os.kill(second.process.pid, signal.SIGKILL)  # the supervisor alone
        second.process.wait(timeout=10)
        third = ServerProcess(env)
        try:
            assert Client(third.url).view(quick)["version"] == after
            answer = requests.get(f"{third.url}/api/v1/health", timeout=5).json()
            assert answer["status"] == "ok", answer
        finally:
            third.kill_all()
    finally:
        os.killpg(second.process.pid, signal.SIGKILL)  # what its supervisor left running

"""The outside bot of examples/challenge_bot: a bot account, signed in with a token
of scope ``bot``, accepts a person's challenges and plays a game of each variant
to its end, through a server restart in the middle of the first."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import requests

from stacks_api.testing import ServerProcess

BOT = Path(__file__).parent.parent / "examples" / "challenge_bot" / "bot.py"
ENDED = re.compile(r"game (\w+): finished, score ([\d.]+)")


def call(url: str, method: str, path: str, key: str | None = None, headers: Any = None,
         **kwargs: Any) -> Any:  # fmt: skip
    headers = {**(headers or {}), **({"Authorization": f"Bearer {key}"} if key else {})}
    answer = requests.request(method, f"{url}/api/v1{path}", headers=headers, timeout=30, **kwargs)
    assert answer.status_code < 300, (path, answer.status_code, answer.text)
    return answer.json()


def challenged_game(url: str, key: str, bot_id: str, variant: str) -> str:
    """Challenge the bot; the game, once it accepted."""
    sent = call(url, "POST", f"/players/{bot_id}/challenges", key, json={"variant": variant})
    for _ in range(300):
        seen = call(url, "GET", f"/challenges/{sent['challenge']['id']}", key)
        if seen["status"] == "accepted":
            return str(seen["game_id"])
        time.sleep(0.1)
    raise AssertionError("the bot never accepted")


def play_out(url: str, game_id: str, key: str, restart: Any = None) -> dict[str, Any]:
    """The person's side, to the end (``restart`` is called once, mid-game)."""
    for step in range(3000):
        if step == 6 and restart is not None:
            url = restart()
        view = call(url, "GET", f"/games/{game_id}", key, headers={"Prefer": "wait=5"})
        if view["status"] != "active":
            return view
        if view["to_move"] != [view["you"]["seat"]]:
            time.sleep(0.05)  # the bot's turn: it moves when its stream says so
        else:
            action = view["you"]["legal_actions"][0]
            requests.post(f"{url}/api/v1/games/{game_id}/actions", json=action, timeout=30,
                          headers={"Authorization": f"Bearer {key}",
                                   "If-Match": f'"{view["version"]}"'})  # fmt: skip
    raise AssertionError("the game did not end")


def test_a_bot_account_accepts_challenges_and_plays_both_variants(redis_url, tmp_path):
    settings = {"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": "challenge-bot",
                "DATABASE_URL": f"sqlite:///{tmp_path}/archive.sqlite3"}  # fmt: skip
    server = ServerProcess(settings)
    url = server.url
    robo = call(url, "POST", "/players", json={"name": "Robo"})
    bot_id, bot_key = robo["player"]["id"], robo["key"]
    assert call(url, "POST", "/players/me/bot", bot_key)["bot"] is True
    token = call(url, "POST", "/players/me/tokens", bot_key,
                 json={"label": "engine", "scopes": ["bot"]})["token"]  # fmt: skip
    refused = requests.post(f"{url}/api/v1/seeks", json={"variant": "sequence", "players": 2},
                            headers={"Authorization": f"Bearer {token}"}, timeout=10)  # fmt: skip
    assert refused.status_code == 409 and refused.json()["code"] == "bot_account"
    ada = call(url, "POST", "/players", json={"name": "Ada"})["key"]
    command = [sys.executable, str(BOT), url, "--token", token, "--games", "2"]
    robot = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def restart() -> str:
        nonlocal server
        port = server.port
        server.stop()  # the bot's stream drops; it resumes from its last id
        server = ServerProcess(settings, port=port)
        return server.url

    try:
        first = challenged_game(url, ada, bot_id, "sequence")
        shown = call(url, "GET", f"/games/{first}", ada)
        assert [p["bot_account"] for p in shown["players"]] == [False, True]
        ended = [play_out(url, first, ada, restart)]
        second = challenged_game(server.url, ada, bot_id, "stacks")
        ended.append(play_out(server.url, second, ada))
        out, err = robot.communicate(timeout=120)
    finally:
        robot.kill()
        server.stop()
    assert robot.returncode == 0, err
    assert [e["status"] for e in ended] == ["finished", "finished"]
    told = {m[1] for m in ENDED.finditer(out)}
    assert told == {first, second}, out

"""The outside bot of examples/account_bot: two of them find each other by quick
pairing and play a rated game to its end through the API and their streams."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from stacks_api.testing import ServerProcess

BOT = Path(__file__).parent.parent / "examples" / "account_bot" / "bot.py"
ENDED = re.compile(r"game (\w+): finished, score ([\d.]+), rating (\{.*\})")


def bot(url: str, name: str) -> subprocess.Popen[str]:
    command = [sys.executable, str(BOT), url, "--name", name, "--variant", "stacks"]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_outside_bots_pair_play_a_rated_game_and_hear_its_end(redis_url):
    server = ServerProcess({"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": "outside-bots"})
    bots = [bot(server.url, "Robo"), bot(server.url, "Tron")]
    try:
        said = [b.communicate(timeout=240) for b in bots]
    except subprocess.TimeoutExpired:
        for b in bots:
            b.kill()
        said = [b.communicate() for b in bots]  # what each said before it stopped
        pytest.fail(f"the bots did not finish: {said}")
    finally:
        for b in bots:
            b.kill()
        server.stop()
    assert [b.returncode for b in bots] == [0, 0], said
    ended = [ENDED.match(out) for out, _ in said]
    assert all(ended), said
    assert ended[0][1] == ended[1][1]  # the same game
    assert sorted(float(m[2]) for m in ended) in ([0.0, 1.0], [0.5, 0.5])
    assert all("'change'" in m[3] for m in ended)

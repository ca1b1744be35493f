"""The README's curl walk-throughs, pasted into bash against a live server, work."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from stacks_api.testing import ServerProcess

README = (Path(__file__).parent.parent / "README.md").read_text()


def walkthrough_blocks() -> list[str]:
    """The ``sh`` blocks of the section "Playing a game with curl", in order."""
    start = README.index("## Playing a game with curl")
    section = README[start : README.index("\n## ", start + 1)]
    return re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)


@pytest.fixture
def server():
    process = ServerProcess({"REDIS_URL": ""})
    yield process
    process.stop()


def test_the_readme_walkthroughs_paste_and_play(server):
    blocks = walkthrough_blocks()
    assert len(blocks) == 2, "one walk-through for each game"
    script = "\n".join(blocks).replace("http://127.0.0.1:8000", server.url)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    sequence_hand = json.loads(lines[0])
    assert len(sequence_hand) == 7 and all(isinstance(card, str) for card in sequence_hand)
    events = json.loads(lines[1])
    assert events[0]["seat"] == 0 and any(e.get("seat") == 1 for e in events), "the bot replied"
    assert json.loads(lines[3]) == "cancelled"
    assert len(json.loads(lines[4])) == 4 and len(json.loads(lines[5])) == 5
    assert 0 in json.loads(lines[6]), "the bots played until we must act again"

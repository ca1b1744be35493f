"""How long the analysis of a finished 2-player game takes on one worker, beside
the strong bot's own time per decision.

    python bench/analysis.py [--games 2]

Plays 2-player games of each variant between ``medium`` bots on a server of its
own, takes each record, counts both seats as people (so every move with a
choice is analysed) and times ``analyse`` here, in one process.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import time

import requests

from stacks_api.service.analysis import analyse
from stacks_api.testing import ServerProcess

API = "/api/v1/games"


def finished_record(url: str, variant: str) -> dict:
    body = {"variant": variant, "players": 2, "seats": [{"bot": "medium"}, {"bot": "medium"}]}
    game_id = requests.post(url + API, json=body, timeout=30).json()["game"]["id"]
    while True:
        answer = requests.get(f"{url}{API}/{game_id}/record", timeout=30)
        if answer.status_code == 200:
            return dict(answer.json())
        time.sleep(0.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    server = ServerProcess({"REDIS_URL": ""})
    try:
        records = {v: [finished_record(server.url, v) for _ in range(args.games)]
                   for v in ("sequence", "stacks")}  # fmt: skip
    finally:
        server.stop()
    for variant, kept in records.items():
        for document in kept:
            for seat in document["seats"]:
                seat["bot"] = None  # both seats analysed, as two people's
            started = time.perf_counter()
            result = analyse(document)
            took = time.perf_counter() - started
            scored = len(result["moves"])
            marked = sum(m["mistake"] for m in result["moves"])
            print(f"{variant}: {len(document['events'])} events, {scored} moves analysed in "
                  f"{took:.1f} s ({took / max(1, scored) * 1000:.0f} ms a move, the strong "
                  f"bot's search each), {marked} marked")  # fmt: skip


if __name__ == "__main__":
    main()

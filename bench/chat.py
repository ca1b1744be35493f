"""What table chat costs the games beside it: the move rate with and without 20 tables
whose players chat at their limit.

    python bench/chat.py [--seconds 8] [--rounds 4] [--movers 4] [--tables 20]

Starts one redis-server and one ``stacks-api serve`` (2 web workers). ``--movers``
threads each play two-person Sequence games as fast as the server answers (a view,
then the first legal action, for the seat to move). In a chatting round, each of
``--tables`` other games has its two players following the game's event stream and
each saying a line every 2 s (the limit is 5 lines in 10 s). Quiet and chatting
rounds alternate (which goes first too), and the script prints each round's moves a
second and the median ratio chatting/quiet.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))  # as in http.py: bench/http.py must not hide the stdlib's

import argparse
import contextlib
import statistics
import threading
import time

import requests

from stacks_api.client import Client
from stacks_api.testing import RedisServer, ServerProcess

LINE_EVERY_S = 2.0
SAID: list[int] = []  # each line's answer (0: the connection failed)


def two_people(api: Client) -> tuple[str, list[str]]:
    game_id = api.create("sequence", 2)["id"]
    return game_id, [api.join(game_id, f"p{s}", seat=s).token for s in range(2)]


def mover(url: str, stop: threading.Event, counts: list[int], slot: int) -> None:
    """Play games to their end, one after another, counting the actions sent."""
    api = Client(url)
    while not stop.is_set():
        game_id, tokens = two_people(api)
        while not stop.is_set():
            view = api.view(game_id)
            if view["status"] != "active":
                break
            token = tokens[view["to_move"][0]]
            mine = api.view(game_id, token)
            api.act(
                game_id, token, mine["you"]["legal_actions"][0], expected_version=mine["version"]
            )
            counts[slot] += 1


def chatter(url: str, game_id: str, token: str, stop: threading.Event) -> None:
    """A player who follows the table's stream and says a line every 2 s."""
    with requests.Session() as session:
        auth = {"Authorization": f"Bearer {token}"}
        stream = session.get(f"{url}/api/v1/games/{game_id}/events", stream=True, timeout=30,
                             headers={"Accept": "text/event-stream"})  # fmt: skip
        n = 0
        while not stop.wait(LINE_EVERY_S):
            n += 1
            try:
                line = {"text": f"line {n}"}
                said = session.post(f"{url}/api/v1/games/{game_id}/chat", json=line,
                                    headers=auth, timeout=10)  # fmt: skip
                SAID.append(said.status_code)
            except requests.RequestException:  # a connection the server dropped
                SAID.append(0)
        with contextlib.suppress(requests.RequestException):
            stream.close()


def round_rate(url: str, seconds: float, movers: int, tables: list[tuple[str, list[str]]]) -> float:
    stop = threading.Event()
    counts = [0] * movers
    threads = [threading.Thread(target=mover, args=(url, stop, counts, n)) for n in range(movers)]
    threads += [threading.Thread(target=chatter, args=(url, game_id, token, stop))
                for game_id, tokens in tables for token in tokens]  # fmt: skip
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # everyone under way
    before, started = sum(counts), time.monotonic()
    time.sleep(seconds)
    moved, took = sum(counts) - before, time.monotonic() - started
    stop.set()
    for thread in threads:
        thread.join()
    return moved / took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--movers", type=int, default=4)
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()
    store = RedisServer()
    store.start()
    server = ServerProcess({"REDIS_URL": store.url, "STACKS_RATE_LIMITS": "off"}, 2, bot_workers=0)
    try:
        api = Client(server.url)
        tables = [two_people(api) for _ in range(args.tables)]
        rates: dict[str, list[float]] = {"quiet": [], "chatting": []}
        for n in range(args.rounds):
            order = ("quiet", "chatting") if n % 2 == 0 else ("chatting", "quiet")
            for name in order:
                chatting = tables if name == "chatting" else []
                rates[name].append(round_rate(server.url, args.seconds, args.movers, chatting))
    finally:
        server.stop()
        store.cleanup()
    print(f"moves a second: {args.movers} movers, 2 gevent web workers, Redis, "
          f"{args.seconds:g} s x {args.rounds} rounds each; chatting: {args.tables} tables, "
          f"{2 * args.tables / LINE_EVERY_S:g} lines a second")  # fmt: skip
    answers = {code: SAID.count(code) for code in sorted(set(SAID))}
    print(f"lines of chat: {len(SAID)}, answered {answers}")
    ratios = [c / q for c, q in zip(rates["chatting"], rates["quiet"], strict=True)]
    for n, (c, q) in enumerate(zip(rates["chatting"], rates["quiet"], strict=True), 1):
        print(f"  round {n}: quiet {q:7.1f}/s   chatting {c:7.1f}/s   chatting/quiet {c / q:.3f}")
    print(f"chatting / quiet: median {statistics.median(ratios):.3f} "
          f"(rounds {min(ratios):.3f}-{max(ratios):.3f}); the goal is at least 0.95")  # fmt: skip


if __name__ == "__main__":
    main()

"""Thousands of open event streams, every event delivered, and the server still
answers promptly.

    python bench/streams.py [--streams 1000] [--seconds 10] [--clients 4] [--rounds 1]

Starts its own redis-server and ``stacks-api serve`` (2 gevent web workers,
one bot worker). Then, each round:
  1. baseline: client threads play two-human games (GET view, POST action)
     while one more times GET /api/v1/health, for --seconds;
  2. opens --streams SSE streams on one game (asyncio sockets), and measures
     the web workers' memory and their CPU with every stream idle;
  3. the same load as 1 while every stream stays open;
  4. posts 20 actions on the streamed game and times, for each, how long after
     the action's response its events reached each stream;
  5. closes the streams.
This machine's throughput swings from one phase to the next: with --rounds the
summary takes the median of the rounds' ratios.
Targets: 10,000 streams on one server (2 web workers), every one opened and
every event delivered to each; health p99 under 100 ms and action throughput at
least 80% of the same run's baseline while they are open; delivery to all
listeners p99 under 1 s. The streams are read by this process on the same
machine, so their reading competes with the server for its cores.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import asyncio
import re
import statistics
import threading
import time
from dataclasses import dataclass

import requests
from load import (
    Game,
    cpu_seconds,
    hammer,
    percentile,
    play,
    resident_mb,
    run_threads,
    served_on_redis,
    web_workers,
)

from stacks_api.client import Client
from stacks_api.testing import ServerProcess

ID_LINE = re.compile(rb"^id: (\d+)\r?$", re.MULTILINE)


class Follower(asyncio.Protocol):
    """One SSE stream, read as raw bytes: the arrival time of each ``id:`` line.

    A protocol, not a stream reader with a line at a time: with 10,000 streams in
    one Python process beside the server, the reader's own cost is what would be
    measured otherwise.
    """

    def __init__(self, request: bytes) -> None:
        self.request = request
        self.arrivals: dict[int, float] = {}
        self.started = asyncio.get_running_loop().create_future()
        self.ended = asyncio.get_running_loop().create_future()
        self._partial = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        text = self._partial + data
        cut = text.rfind(b"\n") + 1  # complete lines only; the rest waits for more
        whole, self._partial = text[:cut], text[cut:]
        for found in ID_LINE.finditer(whole):
            self.arrivals.setdefault(int(found.group(1)), now)
        if not self.started.done() and b"retry:" in whole:
            self.started.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.started.done():
            self.started.set_exception(ConnectionError("closed before the stream began"))
        if not self.ended.done():
            self.ended.set_result(None)


class Streams:
    """Many SSE streams on one game, read on an asyncio loop in its own thread."""

    def __init__(self, port: int, game_id: str, count: int) -> None:
        self.port, self.game_id, self.count = port, game_id, count
        self.opened = 0
        self.arrivals: list[dict[int, float]] = []
        self.ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    async def _main(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        gate = asyncio.Semaphore(100)  # do not open them all in one burst
        tasks = [asyncio.create_task(self._follow(gate)) for _ in range(self.count)]
        await self._stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _follow(self, gate: asyncio.Semaphore) -> None:
        request = (f"GET /api/v1/games/{self.game_id}/events HTTP/1.1\r\nHost: bench\r\n"
                   "Accept: text/event-stream\r\n\r\n").encode()  # fmt: skip
        loop = asyncio.get_running_loop()
        async with gate:
            transport, follower = await loop.create_connection(
                lambda: Follower(request), "127.0.0.1", self.port
            )
            await follower.started
        self.arrivals.append(follower.arrivals)
        self.opened += 1
        if self.opened == self.count:
            self.ready.set()
        try:
            await follower.ended
        finally:
            transport.close()

    def start(self, timeout: float) -> None:
        self.thread.start()
        self.ready.wait(timeout)

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self.thread.join(timeout=10)


def load(url: str, seconds: float, clients: int) -> tuple[float, list[float], list[float]]:
    """Actions per second, action latencies and health latencies under client load."""
    until = time.perf_counter() + seconds
    out: dict[str, list] = {"action": [], "errors": []}
    health: list[float] = []
    targets = [lambda n=n: play(url, until, 1000 + n, out) for n in range(clients)]
    elapsed = run_threads([*targets, lambda: hammer(f"{url}/api/v1/health", until, health)])
    return len(out["action"]) / elapsed, out["action"], health


def health_cpu(url: str, workers: list[int], seconds: float = 3.0) -> float:
    """The web workers' CPU seconds per GET /api/v1/health: the baseline a delivery's
    cost is compared with (it travels between machines; microseconds do not)."""
    until = time.perf_counter() + seconds
    answered: list[list[float]] = [[] for _ in range(4)]
    spent = cpu_seconds(workers)
    run_threads([lambda out=out: hammer(f"{url}/api/v1/health", until, out) for out in answered])
    return (cpu_seconds(workers) - spent) / max(1, sum(map(len, answered)))


def delivery(
    base: str, watched: Game, streams: Streams
) -> tuple[list[float], list[tuple[int, float]], int]:
    """Post 20 actions on the streamed game; how long each took to reach every stream."""
    session = requests.Session()
    posted: list[tuple[int, float]] = []
    for _ in range(20):
        state = session.get(f"{base}/games/{watched.id}").json()
        if state["status"] != "active":
            break
        auth = watched.auth(state["to_move"][0])
        mine = session.get(f"{base}/games/{watched.id}", headers=auth).json()
        answer = session.post(
            f"{base}/games/{watched.id}/actions", json=mine["you"]["legal_actions"][0],
            headers=auth,
        )  # fmt: skip
        posted.append((answer.json()["game"]["version"], time.perf_counter()))
        time.sleep(0.25)
    time.sleep(2)
    delays, missing = [], 0
    for version, done in posted:
        for arrivals in streams.arrivals:
            if version in arrivals:
                delays.append(arrivals[version] - done)
            else:
                missing += 1
    return delays, posted, missing


@dataclass
class Round:
    """One round: the load without streams, then with them open, then the deliveries."""

    opened: int
    open_s: float
    before: tuple[float, list[float], list[float]]  # actions/s, action and health latencies
    during: tuple[float, list[float], list[float]]
    delays: list[float]
    posted: int
    missing: int
    kb_per_stream: float
    idle_cpu: float  # CPU s/s of the web workers with every stream idle
    us_per_delivery: float

    @property
    def ratio(self) -> float:
        return self.during[0] / self.before[0]


def one_round(server: ServerProcess, args: argparse.Namespace, seed: int) -> Round:
    before = load(server.url, args.seconds, args.clients)
    watched = Game(Client(server.url), seed)
    workers = web_workers(server)
    memory_before = resident_mb(workers)
    started = time.perf_counter()
    streams = Streams(server.port, watched.id, args.streams)
    streams.start(timeout=300)
    open_s = time.perf_counter() - started
    memory_open = resident_mb(workers)
    try:
        idle_cpu = cpu_seconds(workers)
        time.sleep(args.seconds)
        idle_cpu = (cpu_seconds(workers) - idle_cpu) / args.seconds
        during = load(server.url, args.seconds, args.clients)
        spent = cpu_seconds(workers)
        delays, posted, missing = delivery(f"{server.url}/api/v1", watched, streams)
        # What the deliveries cost, less what the same span costs idle.
        spent = cpu_seconds(workers) - spent - idle_cpu * (len(posted) * 0.25 + 2)
    finally:
        streams.stop()
    while requests.get(f"{server.url}/api/v1/health", timeout=10).json()["open_streams"]:
        time.sleep(0.5)  # the next round's baseline runs with no stream open
    deliveries = max(1, len(posted) * streams.opened)
    return Round(
        streams.opened, open_s, before, during, delays, len(posted), missing,
        (memory_open - memory_before) * 1000 / max(streams.opened, 1), idle_cpu,
        spent * 1e6 / deliveries,
    )  # fmt: skip


def report(n: int, r: Round, streams: int, health_us: float) -> None:
    (before, actions_0, health_0), (during, actions_1, health_1) = r.before, r.during
    print(f"round {n}: streams opened {r.opened} of {streams} in {r.open_s:.1f} s")
    print(f"  actions          {before:7.1f}/s without streams, {during:7.1f}/s with them "
          f"open ({r.ratio:.0%})")  # fmt: skip
    print(f"  action latency   p50 {percentile(actions_0, 0.5):6.1f} -> "
          f"{percentile(actions_1, 0.5):6.1f} ms, p99 {percentile(actions_0, 0.99):6.1f} -> "
          f"{percentile(actions_1, 0.99):6.1f} ms")  # fmt: skip
    print(f"  GET health       p50 {percentile(health_0, 0.5):6.1f} -> "
          f"{percentile(health_1, 0.5):6.1f} ms, p99 {percentile(health_0, 0.99):6.1f} -> "
          f"{percentile(health_1, 0.99):6.1f} ms")  # fmt: skip
    print(f"  event delivery   {r.posted} actions x {r.opened} streams: "
          f"p50 {percentile(r.delays, 0.5):6.1f} ms, p99 {percentile(r.delays, 0.99):6.1f} ms, "
          f"max {percentile(r.delays, 1.0):6.1f} ms, missing {r.missing}")  # fmt: skip
    print(f"  web workers      {r.kb_per_stream:6.1f} KB resident per open stream; "
          f"{r.idle_cpu:.3f} CPU s/s with every stream idle; {r.us_per_delivery:.1f} CPU us "
          f"per delivery ({r.us_per_delivery / health_us:.2f} of a GET /health's "
          f"{health_us:.0f} us, same run)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of baseline, streams open and deliveries; the summary "
                             "takes the median of their ratios")  # fmt: skip
    args = parser.parse_args()

    with served_on_redis({}) as (server, _):
        health_us = health_cpu(server.url, web_workers(server)) * 1e6
        print(f"stacks-api serve: 2 gevent web workers, 1 bot worker, Redis; {args.clients} "
              f"playing clients + 1 health client, {args.seconds:.0f} s a phase")  # fmt: skip
        rounds = []
        for n in range(args.rounds):
            rounds.append(one_round(server, args, seed=7 + n))
            report(n + 1, rounds[-1], args.streams, health_us)
    delays = [d for r in rounds for d in r.delays]
    print(f"summary: {args.rounds} rounds; actions with streams open / without, median "
          f"{statistics.median(r.ratio for r in rounds):.0%} (rounds "
          f"{', '.join(f'{r.ratio:.0%}' for r in rounds)}); every stream opened: "
          f"{all(r.opened == args.streams for r in rounds)}; deliveries missing: "
          f"{sum(r.missing for r in rounds)} of {sum(r.posted * r.opened for r in rounds)}; "
          f"delivery p50 {percentile(delays, 0.5):.1f} ms, "
          f"p99 {percentile(delays, 0.99):.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()

"""Thousands of open event streams, every event delivered, and the server still
answers promptly.

    python bench/streams.py [--streams 1000] [--seconds 10] [--clients 4]

Starts its own redis-server and ``stacks-api serve`` (2 gevent web workers,
one bot worker). Then, in one run:
  1. baseline: client threads play two-human games (GET view, POST action)
     while one more times GET /api/v1/health, for --seconds;
  2. opens --streams SSE streams on one game (asyncio sockets);
  3. the same load as 1 while every stream stays open;
  4. posts 20 actions on the streamed game and times, for each, how long after
     the action's response its events reached each stream.
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
import threading
import time

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()

    with served_on_redis({}) as (server, _):
        base = f"{server.url}/api/v1"
        before_rate, before_actions, before_health = load(server.url, args.seconds, args.clients)

        watched = Game(Client(server.url), 7)
        workers = web_workers(server)
        per_health = health_cpu(server.url, workers)
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
            during_rate, during_actions, during_health = load(
                server.url, args.seconds, args.clients
            )
            spent = cpu_seconds(workers)
            delays, posted, missing = delivery(base, watched, streams)
            # What the deliveries cost, less what the same span costs idle.
            span = len(posted) * 0.25 + 2
            spent = cpu_seconds(workers) - spent - idle_cpu * span
        finally:
            streams.stop()
        per_stream_kb = (memory_open - memory_before) * 1000 / max(streams.opened, 1)

        print(
            f"stacks-api serve: 2 gevent web workers, 1 bot worker, Redis; "
            f"{args.clients} playing clients + 1 health client, {args.seconds:.0f} s a phase"
        )
        print(f"streams opened     {streams.opened} of {args.streams} in {open_s:.1f} s")
        print(
            f"actions            {before_rate:7.1f}/s without streams, {during_rate:7.1f}/s "
            f"with them open ({during_rate / before_rate:.0%})"
        )
        print(
            f"action latency     p50 {percentile(before_actions, 0.5):6.1f} -> "
            f"{percentile(during_actions, 0.5):6.1f} ms, p99 "
            f"{percentile(before_actions, 0.99):6.1f} -> {percentile(during_actions, 0.99):6.1f} ms"
        )
        print(
            f"GET health         p50 {percentile(before_health, 0.5):6.1f} -> "
            f"{percentile(during_health, 0.5):6.1f} ms, p99 "
            f"{percentile(before_health, 0.99):6.1f} -> {percentile(during_health, 0.99):6.1f} ms"
        )
        print(f"event delivery     {len(posted)} actions x {streams.opened} streams: "
              f"p50 {percentile(delays, 0.5):6.1f} ms, p99 {percentile(delays, 0.99):6.1f} ms, "
              f"max {percentile(delays, 1.0):6.1f} ms, missing {missing}")  # fmt: skip
        deliveries = len(posted) * streams.opened
        print(f"web workers        {per_stream_kb:6.1f} KB resident per open stream; "
              f"{idle_cpu:.3f} CPU s/s with every stream idle; "
              f"{spent * 1e6 / max(deliveries, 1):.1f} CPU us per delivery "
              f"({spent / max(deliveries, 1) / per_health:.2f} of a GET /health's "
              f"{per_health * 1e6:.0f} us, same run)")  # fmt: skip


if __name__ == "__main__":
    main()

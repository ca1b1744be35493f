"""What a move costs the server, beside what a bare request costs it, in one run.

    python bench/move_cost.py [--seconds 10] [--levels 8,32,128] [--rounds 1]

Starts its own redis-server and a default ``stacks-api serve`` (2 gevent web
workers, its bot workers, the access log on, to /dev/null), and beside it on the
same Redis bench/bare.py under the same gunicorn worker with as many workers: a
Flask route that answers one Redis GET of a game's state (the floor).

The driver is one asyncio process on keep-alive connections, one a seat. For
each level of N concurrent two-person Sequence games (seat tokens, no bots, no
clock), every seat plays as soon as the previous move's answer says it is its
turn: one ``POST .../actions`` with ``If-Match`` a move. It knows its legal
actions without asking, by playing the same seeded game in the engine here. A
game that ends is followed by a fresh one made beforehand. The floor is driven
the same way: N loops each sending ``GET /bare/<id>`` back to back.

Printed per level: accepted moves a second, p50 and p99 of a move, the server's
CPU a move (every process of ``serve``, from /proc, before and after) and
Redis's, the floor's CPU a request, and their ratio; then the same for moves over
each game's WebSocket (bench/sockets.py: each seat on its own socket, a move one
``action`` message answered with the new version; ``--no-socket`` leaves it
out). First, the resident memory of each of serve's processes. With
``--against REV`` the same is measured for another revision, the two taking
turns.

With ``STACKS_CPU_PROFILE=FOLDER``, serve's processes sample their CPU time
during the moves (bench/cpu_profile.py; ``python bench/cpu_profile.py FOLDER``
reports it). The CPU figures of such a run include the sampling's own cost.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))  # as in http.py: the helpers beside it are found last

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from load import cpu_seconds, percentile
from revision import checkout
from sockets import SocketSeat
from wrk import bare_server

from stacks_api.client import Client
from stacks_api.engine import create_game
from stacks_api.testing import RedisServer, free_port

API = "/api/v1"
WRITE_S = 1.5  # how long a profiled process may take to write its samples


def descendants(pid: int) -> list[int]:
    """``pid`` and every process under it."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").iterdir():
            try:
                todo += [int(child) for child in (task / "children").read_text().split()]
            except FileNotFoundError:
                continue  # the thread ended meanwhile
    return found


def process_name(pid: int) -> str:
    """A process's command line, shortened."""
    words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    text = " ".join(w.decode() for w in words if w)
    return text.replace(sys.executable, "python")[:70]


class Connection:
    """One keep-alive HTTP/1.1 connection: a request at a time, as a phone's app."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def send(self, method: str, path: str, headers: dict[str, str],
                   body: bytes = b"") -> tuple[int, bytes]:  # fmt: skip
        """The answer's status and body (once reconnected if the server closed it)."""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            try:
                self.writer.write(raw)
                return await self._answer()
            except (ConnectionError, asyncio.IncompleteReadError):
                self.writer = None  # an idle connection the server closed: once more
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _answer(self) -> tuple[int, bytes]:
        assert self.reader is not None
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length, chunked, closes = 0, False, False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif name == b"connection":
                closes = b"close" in value.lower()
        if chunked:
            body = b""
            while size := int((await self.reader.readuntil(b"\r\n")).strip(), 16):
                body += (await self.reader.readexactly(size + 2))[:-2]
            await self.reader.readuntil(b"\r\n")
        else:
            body = await self.reader.readexactly(length)
        if closes:
            self.close()
        return status, body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


@dataclass
class Seated:
    """A game made for the benchmark: its id, seat tokens and seed."""

    id: str
    tokens: list[str]
    seed: int


@dataclass
class Tally:
    """What one level's driver saw."""

    moves: int = 0
    refused: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)


def seat_games(url: str, count: int, first_seed: int) -> list[Seated]:
    """``count`` two-person Sequence games, both seats taken, no clock."""
    api = Client(url)
    made = []
    for seed in range(first_seed, first_seed + count):
        game_id = api.create("sequence", 2, seed=seed)["id"]
        tokens = [api.join(game_id, f"p{seat}", seat=seat).token for seat in range(2)]
        made.append(Seated(game_id, tokens, seed))
    return made


async def play_games(host: str, port: int, games: list[Seated], until: float,
                     tally: Tally) -> None:  # fmt: skip
    """Play ``games`` one after another (a fresh one when one ends) until ``until``."""
    seats = [Connection(host, port), Connection(host, port)]
    try:
        while games and time.perf_counter() < until:
            seated = games.pop()
            mirror = create_game("sequence", players=2, seed=seated.seed)
            rng = random.Random(seated.seed)
            version = 4  # created, two joins, started
            while mirror.result is None and time.perf_counter() < until:
                seat = mirror.to_move[0]
                action = rng.choice(mirror.legal_actions(seat))
                headers = {
                    "Authorization": f"Bearer {seated.tokens[seat]}",
                    "Content-Type": "application/json",
                    "If-Match": f'"{version}"',
                }
                body = json.dumps(action).encode()
                start = time.perf_counter()
                status, answer = await seats[seat].send(
                    "POST", f"{API}/games/{seated.id}/actions", headers, body
                )
                if status != 200:
                    tally.refused[status] = tally.refused.get(status, 0) + 1
                    break  # this game is off the mirror's track: take the next
                tally.latencies.append(time.perf_counter() - start)
                tally.moves += 1
                mirror.apply(seat, action)
                version = json.loads(answer)["game"]["version"]
    finally:
        for connection in seats:
            connection.close()


async def play_by_socket(host: str, port: int, games: list[Seated], until: float,
                         tally: Tally) -> None:  # fmt: skip
    """``play_games`` with each seat on its game's WebSocket: a move is one message,
    answered with the new version (every seat also hears each change)."""
    while games and time.perf_counter() < until:
        seated = games.pop()
        seats = [await SocketSeat.open(host, port, seated.id, token) for token in seated.tokens]
        try:
            mirror = create_game("sequence", players=2, seed=seated.seed)
            rng = random.Random(seated.seed)
            version = 4  # created, two joins, started
            while mirror.result is None and time.perf_counter() < until:
                seat = mirror.to_move[0]
                action = rng.choice(mirror.legal_actions(seat))
                start = time.perf_counter()
                accepted, version = await seats[seat].act(action, version)
                if not accepted:
                    tally.refused[0] = tally.refused.get(0, 0) + 1
                    break
                tally.latencies.append(time.perf_counter() - start)
                tally.moves += 1
                mirror.apply(seat, action)
        finally:
            for socket in seats:
                socket.close()


async def hammer_bare(host: str, port: int, path: str, until: float, tally: Tally) -> None:
    """GET the floor's route back to back until ``until``."""
    connection = Connection(host, port)
    try:
        while time.perf_counter() < until:
            start = time.perf_counter()
            status, _ = await connection.send("GET", path, {})
            if status != 200:
                tally.refused[status] = tally.refused.get(status, 0) + 1
                continue
            tally.latencies.append(time.perf_counter() - start)
            tally.moves += 1
    finally:
        connection.close()


Loop = Callable[[float, Tally], Coroutine[Any, Any, None]]  # (until, tally)


@dataclass
class Measured:
    """One phase: requests done, the seconds, the server's and Redis's CPU seconds."""

    tally: Tally
    seconds: float
    server_cpu: float
    redis_cpu: float

    @property
    def rate(self) -> float:
        return self.tally.moves / self.seconds

    def cpu_each_ms(self) -> float:
        return self.server_cpu / max(1, self.tally.moves) * 1000

    def redis_each_ms(self) -> float:
        return self.redis_cpu / max(1, self.tally.moves) * 1000


def measure(loops: list[Loop], seconds: float, server_pids: list[int], redis_pid: int) -> Measured:
    """Run ``loops`` together for ``seconds``, counting into one tally."""
    tally = Tally()
    before = cpu_seconds(server_pids), cpu_seconds([redis_pid])
    start = time.perf_counter()
    until = start + seconds

    async def everything() -> None:
        await asyncio.gather(*(loop(until, tally) for loop in loops))

    asyncio.run(everything())
    elapsed = time.perf_counter() - start
    after = cpu_seconds(server_pids), cpu_seconds([redis_pid])
    return Measured(tally, elapsed, after[0] - before[0], after[1] - before[1])


@contextmanager
def serve(
    redis_url: str, bot_workers: int | None, tree: dict[str, str]
) -> Iterator[tuple[str, int, int]]:
    """A default ``stacks-api serve`` on Redis (of the tree ``tree``'s PYTHONPATH
    points to); its host, port and process id."""
    port = free_port()
    command = [sys.executable, "-m", "stacks_api.cli", "serve", "--port", str(port)]
    if bot_workers is not None:
        command += ["--bot-workers", str(bot_workers)]
    env = {**os.environ, **profiled(tree), "REDIS_URL": redis_url, "STACKS_RATE_LIMITS": "off",
           "STACKS_DATA_DIR": os.environ.get("STACKS_DATA_DIR", "/tmp/stacks-bench")}  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{API}/health", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("stacks-api serve did not start") from None
                time.sleep(0.2)
        yield "127.0.0.1", port, process.pid
    finally:
        process.terminate()
        process.wait(timeout=20)


def profiled(tree: dict[str, str]) -> dict[str, str]:
    """The environment that has ``serve``'s processes profile themselves, if asked."""
    folder = os.environ.get("STACKS_CPU_PROFILE")
    if not folder:
        return tree
    hook = Path(folder) / "hook"
    hook.mkdir(parents=True, exist_ok=True)
    (hook / "sitecustomize.py").write_text(
        f"import os, sys\nsys.path.append({str(Path(__file__).parent)!r})\n"
        "import cpu_profile\ncpu_profile.install(os.environ['STACKS_CPU_PROFILE'])\n"
    )
    paths = [str(hook), *filter(None, [tree.get("PYTHONPATH")])]
    return {**tree, "PYTHONPATH": os.pathsep.join(paths)}


@contextmanager
def profiling(wanted: bool = True) -> Iterator[None]:
    """Samples taken while this lasts (when ``STACKS_CPU_PROFILE`` is set and this
    phase is the one ``--profile`` names)."""
    folder = os.environ.get("STACKS_CPU_PROFILE") if wanted else None
    switch = Path(folder or ".") / "on"
    if folder:
        switch.touch()
    try:
        yield
    finally:
        if folder:
            switch.unlink()
            time.sleep(WRITE_S)  # each process writes its samples out


def one_round(
    args: argparse.Namespace, tree: dict[str, str], seed_base: int
) -> dict[int, tuple[Measured, Measured, Measured | None]]:
    """Each level's moves and floor, measured back to back on fresh servers."""
    store = RedisServer()
    store.start()
    assert store.process is not None
    results = {}
    try:
        with serve(store.url, args.bot_workers, tree) as (host, port, serve_pid), \
                bare_server(store.url, 2, {}) as bare:  # fmt: skip
            url = f"http://{host}:{port}"
            bare_port = int(bare.url.rsplit(":", 1)[1])
            bare_pids = descendants(bare.pid)
            server_pids = descendants(serve_pid)
            if args.show_memory:
                show_memory(server_pids)
                args.show_memory = False
            for level in args.levels:
                # Enough games that none runs out: ~80 moves a game.
                spare = int(args.seconds * args.expect_rate / 60) + level
                games = seat_games(url, level + spare, seed_base + level * 1000)
                shares = [games[n::level] for n in range(level)]
                players: list[Loop] = [partial(play_games, host, port, mine) for mine in shares]
                with profiling(args.profile == "http"):
                    moves = measure(players, args.seconds, server_pids, store.process.pid)
                hammer = partial(hammer_bare, host, bare_port, f"/bare/{games[0].id}")
                floor = measure([hammer] * level, args.seconds, bare_pids, store.process.pid)
                by_socket = None
                if args.socket:  # the same level of games again, each seat on its socket
                    fresh = seat_games(url, level + spare, seed_base + level * 1000 + 500)
                    sockets: list[Loop] = [partial(play_by_socket, host, port, fresh[n::level])
                                           for n in range(level)]  # fmt: skip
                    with profiling(args.profile == "socket"):
                        by_socket = measure(sockets, args.seconds, server_pids, store.process.pid)
                results[level] = (moves, floor, by_socket)
                report(level, moves, floor)
                if by_socket is not None:
                    report(level, by_socket, floor, "socket")
    finally:
        store.cleanup()
    return results


def report(level: int, moves: Measured, floor: Measured, how: str = "HTTP") -> None:
    ratio = moves.cpu_each_ms() / floor.cpu_each_ms()
    refused = f"  refused {moves.tally.refused}" if moves.tally.refused else ""
    print(f"  {how:6} {level:4d} games: {moves.rate:7.1f} moves/s  p50 "
          f"{percentile(moves.tally.latencies, 0.5):6.1f} ms  p99 "
          f"{percentile(moves.tally.latencies, 0.99):6.1f} ms  | server CPU "
          f"{moves.cpu_each_ms():.3f} ms a move (Redis {moves.redis_each_ms():.3f})  | floor "
          f"{floor.rate:7.1f}/s, {floor.cpu_each_ms():.3f} ms a request (Redis "
          f"{floor.redis_each_ms():.3f}), p99 {percentile(floor.tally.latencies, 0.99):.1f} ms"
          f"  | {ratio:.2f}x{refused}", flush=True)  # fmt: skip


def show_memory(pids: list[int]) -> None:
    """Each of serve's processes' resident and unique memory."""
    print("memory of stacks-api serve (resident, unique):")
    total = 0.0
    for pid in pids:
        rss, unique = memory_mb(pid)
        total += unique
        print(f"  {rss:6.1f} MB  {unique:6.1f} MB  {process_name(pid)}")
    print(f"  unique in all: {total:.1f} MB")


def memory_mb(pid: int) -> tuple[float, float]:
    """Resident and proportional-unique (private) memory of a process, in MB."""
    rollup = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    values = {line.split(":")[0]: int(line.split()[1]) for line in rollup[1:] if ":" in line}
    private = values.get("Private_Clean", 0) + values.get("Private_Dirty", 0)
    return values.get("Rss", 0) / 1024, private / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10, help="each phase's length")
    parser.add_argument("--levels", default="8,32,128", help="concurrent games, comma-separated")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--against", help="another revision, measured in turn with this tree")
    parser.add_argument("--bot-workers", type=int, help="serve's --bot-workers (its default)")
    parser.add_argument("--expect-rate", type=float, default=1500,
                        help="moves a second to make games for")  # fmt: skip
    parser.add_argument("--no-socket", dest="socket", action="store_false",
                        help="HTTP moves only (no WebSocket phase)")  # fmt: skip
    parser.add_argument("--profile", choices=["http", "socket"], default="http",
                        help="the phase STACKS_CPU_PROFILE samples")  # fmt: skip
    args = parser.parse_args()
    args.levels = [int(n) for n in args.levels.split(",")]
    args.show_memory = True
    print(f"stacks-api serve on Redis against bench/bare.py; {args.seconds:g} s a phase, "
          f"{args.rounds} round(s); CPU from /proc")  # fmt: skip
    with contextlib.ExitStack() as stack:
        trees: dict[str, dict[str, str]] = {"this tree": {}}
        if args.against:
            trees[args.against] = {"PYTHONPATH": str(stack.enter_context(checkout(args.against)))}
        ratios: dict[str, dict[int, list[float]]] = {}
        p99s: dict[str, dict[int, list[float]]] = {}
        for n in range(args.rounds):  # the trees take turns, so a slow spell hits both
            for name, tree in trees.items():
                print(f"round {n + 1}, {name}")
                measured = one_round(args, tree, 100_000 * (n + 1)).items()
                for level, (moves, floor, by_socket) in measured:
                    for how, phase in (("HTTP", moves), ("socket", by_socket)):
                        if phase is None:
                            continue
                        key = f"{name}, {how}"
                        ratios.setdefault(key, {}).setdefault(level, []).append(
                            phase.cpu_each_ms() / floor.cpu_each_ms()
                        )
                        p99s.setdefault(key, {}).setdefault(level, []).append(
                            percentile(phase.tally.latencies, 0.99)
                        )
    print("CPU a move against a bare request (median over rounds, range), and p99:")
    for name, by_level in ratios.items():
        for level, seen in by_level.items():
            middle, low, high = statistics.median(seen), min(seen), max(seen)
            p99 = statistics.median(p99s[name][level])
            print(f"  {name:18} {level:4d} games: {middle:.2f}x ({low:.2f}-{high:.2f}), "
                  f"p99 {p99:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()

"""Garbage on four WebSockets, and how long another client waits meanwhile.

    python bench/socket_flood.py [--seconds 10] [--sockets 4] [--requests 400]

Starts ``stacks-api serve`` (embedded store, 2 gevent web workers, rate limits as
shipped). A victim reads a game's view ``--requests`` times in a row, first with
nothing else going on (the baseline), then while a separate process keeps
``--sockets`` WebSockets sending frames that are no JSON as fast as the kernel
takes them, each opened again the moment the server closes it. It prints the
victim's p50 and p99 both times, their ratio (bar: p99 within 2x of quiet), and
what the flood got: frames sent, sockets closed by the server, upgrades refused.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import multiprocessing
import socket
import time
from typing import Any

import requests
from load import percentile
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    RejectConnection,
    Request,
    TextMessage,
)

from stacks_api.testing import ServerProcess

GARBAGE = "x" * 64  # not JSON
BATCH = 200  # frames a write


def flood(port: int, game_id: str, sockets: int, seconds: float, counts: Any) -> None:
    """``sockets`` connections sending garbage until ``seconds`` have passed; each one
    the server closes (or refuses) is opened again at once."""
    deadline = time.monotonic() + seconds
    live: list[tuple[socket.socket, WSConnection]] = []
    while time.monotonic() < deadline:
        while len(live) < sockets:
            opened = _upgrade(port, game_id)
            if opened is None:
                counts["refused"] += 1
                continue
            live.append(opened)
        for pair in list(live):
            sock, ws = pair
            try:
                sock.sendall(ws.send(TextMessage(data=GARBAGE)) * BATCH)
                counts["frames"] += BATCH
            except OSError:
                counts["closed"] += 1
                sock.close()
                live.remove(pair)
    for sock, _ in live:
        sock.close()


def _upgrade(port: int, game_id: str) -> tuple[socket.socket, WSConnection] | None:
    """A socket that has said hello (as a spectator), or None if refused."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    ws = WSConnection(ConnectionType.CLIENT)
    sock.sendall(ws.send(Request(host=f"127.0.0.1:{port}",
                                 target=f"/api/v1/games/{game_id}/socket")))  # fmt: skip
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                raise OSError("closed")
            ws.receive_data(data)
            for event in ws.events():
                if isinstance(event, AcceptConnection):
                    sock.sendall(ws.send(TextMessage(data='{"type": "hello"}')))
                    sock.settimeout(None)
                    return sock, ws
                if isinstance(event, RejectConnection | CloseConnection):
                    raise OSError("refused")
    except OSError:
        sock.close()
        return None


def victim(url: str, count: int) -> list[float]:
    """``count`` reads of the view in a row: each one's seconds."""
    session = requests.Session()
    times = []
    for _ in range(count):
        start = time.perf_counter()
        session.get(url, timeout=60).raise_for_status()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--sockets", type=int, default=4)
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args()
    server = ServerProcess({"REDIS_URL": "", "STACKS_RATE_LIMITS": "on"}, workers=2)
    try:
        api = f"{server.url}/api/v1/games"
        body = {"variant": "sequence", "players": 2, "seats": [{}, {"bot": "greedy"}]}
        game_id = requests.post(api, json=body, timeout=10).json()["game"]["id"]
        url = f"{api}/{game_id}"
        victim(url, 50)  # warm both workers
        quiet = victim(url, args.requests)
        counts = multiprocessing.Manager().dict(frames=0, closed=0, refused=0)
        flooder = multiprocessing.Process(
            target=flood, args=(server.port, game_id, args.sockets, args.seconds, counts)
        )
        flooder.start()
        time.sleep(1.0)  # the flood under way
        loud = victim(url, args.requests)
        flooder.join()
        for name, times in (("quiet", quiet), ("flooded", loud)):
            worst = max(times) * 1000
            print(f"{name:8}: p50 {percentile(times, 0.5):7.1f} ms, "
                  f"p99 {percentile(times, 0.99):7.1f} ms, worst {worst:7.1f} ms")  # fmt: skip
        ratio = percentile(loud, 0.99) / percentile(quiet, 0.99)
        print(f"p99 flooded / quiet: {ratio:.2f}x (bar: 2x)")
        print(f"flood: {counts['frames']:,} frames sent on {args.sockets} sockets, "
              f"{counts['closed']} sockets closed by the server, {counts['refused']} upgrades "
              f"refused")  # fmt: skip
        print("server errors logged:", server.output().count("Traceback"))
    finally:
        server.stop()


if __name__ == "__main__":
    main()

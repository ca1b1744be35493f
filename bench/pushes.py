"""Web Push: how many pushes a worker sends a second, and how long after a move its
push reaches the push service.

    python bench/pushes.py [--pushes 1000] [--moves 30]

1. **Throughput.** ``--pushes`` pushes spread over 16 accounts, each with a
   subscription to its own push service on 127.0.0.1 that answers 201 at once,
   queued in an SQLite archive of the bench's own; one ``PushDesk`` (one worker)
   sends them all: each is a lease, an encryption (RFC 8291, a new P-256 key a
   push), a VAPID signature, a POST and its record. ``bench/webhooks.py`` sends
   webhook deliveries the same way, without the encryption: its figure is the
   baseline this one's extra cost shows against.
2. **Latency.** An app on the embedded store with its own workers; an account
   with a subscription plays ``--moves`` moves against a person whose moves the
   bench makes, each time waiting until it is the account's turn again: the time
   from the other person's move (its answer) to the account's ``your_turn``
   push arriving at the push service (the notifications thread looks every
   half second).
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import statistics
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from stacks_api.app import create_app
from stacks_api.archive import open_archive
from stacks_api.outbound.addresses import Allowed
from stacks_api.outbound.courier import Courier, Rules
from stacks_api.runtime.config import TestConfig
from stacks_api.service.people import People, Times
from stacks_api.service.preferences import Preferences
from stacks_api.service.pushes import PushDesk, PushSettings
from stacks_api.service.table import Table
from stacks_api.store.memory import MemoryStore
from stacks_api.workers.runner import RemoteWorkers
from tests.api.pushservice import PushService

LOOPBACK = Allowed.parse("127.0.0.0/8")
ACCOUNTS = 16


class Quick(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return None


def throughput(pushes: int) -> float:
    archive = open_archive(f"sqlite:///{tempfile.mkdtemp()}/archive.sqlite3")
    store = MemoryStore()
    table = Table(store, RemoteWorkers(store.work), time.time, archive)  # type: ignore[arg-type]
    courier = Courier(Rules(allowed=LOOPBACK))
    desk = PushDesk(table, People(table, Times(online_s=-1)), Preferences(table), courier,
                    PushSettings(allowed=LOOPBACK))  # fmt: skip
    service = PushService()
    servers = []
    for n in range(ACCOUNTS):
        server = ThreadingHTTPServer(("127.0.0.1", 0), Quick)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        player, _ = archive.accounts.create(f"P{n}", "bench")
        endpoint = f"http://127.0.0.1:{server.server_address[1]}/push/{n}"
        archive.pushes.subscribe(player["id"], endpoint, service.keys["p256dh"],
                                 service.keys["auth"], ["your_turn"])  # fmt: skip
        events = [{"type": "your_turn", "game_id": f"g{n}-{v}", "seat": 0, "version": v}
                  for v in range(pushes // ACCOUNTS)]  # fmt: skip
        desk.queue(player["id"], events, time.time())
    queued = archive.pushes.queued()
    started = time.perf_counter()
    while archive.pushes.queued():
        if not desk.send():
            courier.wait_for_room(0.05)
    took = time.perf_counter() - started
    for server in servers:
        server.shutdown()
    archive.engine.dispose()
    return queued / took


def latency(moves: int) -> list[float]:
    app = create_app(TestConfig, DATABASE_URL=f"sqlite:///{tempfile.mkdtemp()}/a.sqlite3",
                     WEBHOOK_ALLOW="127.0.0.1", PRESENCE_S=(-1.0, 600.0, 240.0))  # fmt: skip
    client = app.test_client()
    service = PushService(server_key=client.get("/api/v1/push/key").json["public_key"])
    endpoint = service.start()
    key = client.post("/api/v1/players", json={"name": "Ada", "label": "b"}).json["key"]
    ada = {"Authorization": f"Bearer {key}"}
    client.post("/api/v1/players/me/push", headers=ada,
                json={"endpoint": endpoint, "keys": service.keys})  # fmt: skip
    game = client.post("/api/v1/games", json={"variant": "sequence", "players": 2}).json
    game_id = game["game"]["id"]
    mine = client.post(f"/api/v1/games/{game_id}/players", headers=ada, json={}).json
    bo = client.post(f"/api/v1/games/{game_id}/players", json={"name": "Bo"}).json
    tokens = {mine["seat"]: ada, bo["seat"]: {"Authorization": f"Bearer {bo['token']}"}}
    delays = []
    for _ in range(moves):
        view = client.get(f"/api/v1/games/{game_id}").json
        if view["status"] != "active":
            break
        mover = view["to_move"][0]
        legal = client.get(f"/api/v1/games/{game_id}", headers=tokens[mover]).json
        before = len(service.received)
        moved_at = time.monotonic()
        client.post(f"/api/v1/games/{game_id}/actions", headers=tokens[mover],
                    json=legal["you"]["legal_actions"][0])  # fmt: skip
        if mover == mine["seat"]:
            continue  # Ada moved: her turn comes after Bo's
        while len(service.received) == before and time.monotonic() - moved_at < 10:
            time.sleep(0.005)
        if len(service.received) > before:
            delays.append(time.monotonic() - moved_at)
    service.stop()
    app.extensions["stacks_api.games"].jobs.stop()
    return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pushes", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=30)
    args = parser.parse_args()
    rate = throughput(args.pushes)
    print(f"{args.pushes} pushes to {ACCOUNTS} push services, archive on sqlite, one worker: "
          f"{rate:.1f}/s")  # fmt: skip
    delays = sorted(latency(args.moves))
    if delays:
        print(f"from a move to its your_turn push ({len(delays)} pushes): median "
              f"{statistics.median(delays):.3f} s, worst {delays[-1]:.3f} s")  # fmt: skip


if __name__ == "__main__":
    main()

"""How many webhook deliveries one worker sends a second, beside plain POSTs.

    python bench/webhooks.py [--deliveries 2000] [--database sqlite|postgresql]

Queues ``--deliveries`` deliveries (one webhook, distinct events) in an archive
of its own (an SQLite file, or a private PostgreSQL server with fsync on) and
lets one ``WebhookDesk`` send them to a receiver on 127.0.0.1 that answers 204
at once: each delivery is a lease, a signature, a POST and the attempt's
record. The baseline, in the same run, sends the same number of POSTs of the
same bodies to the same receiver with the same HTTP session and nothing else.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))  # as in http.py: the helpers beside it are found last

import argparse
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from typing import Any

import requests

from stacks_api.archive import open_archive
from stacks_api.outbound import Allowed
from stacks_api.service.table import Table
from stacks_api.service.webhooks import Sending, WebhookDesk, delivery_id
from stacks_api.store.memory import MemoryStore
from stacks_api.testing import PostgresServer, create_database
from stacks_api.workers.runner import RemoteWorkers


class Quick(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as a real receiver would

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deliveries", type=int, default=2000)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), Quick)
    Thread(target=receiver.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    postgres = None
    if args.database == "postgresql":
        postgres = PostgresServer(fast=False)
        postgres.start()
        database = create_database(postgres.url)
    else:
        database = f"sqlite:///{tempfile.mkdtemp()}/archive.sqlite3"
    try:
        archive = open_archive(database)
        player, _ = archive.accounts.create("Bench", "bench")
        hook, _ = archive.webhooks.create(player["id"], url, ["your_turn"])
        bodies = [
            f'{{"type":"your_turn","data":{{"version":{n}}}}}' for n in range(args.deliveries)
        ]
        archive.webhooks.enqueue(
            {"id": delivery_id(hook["id"], {"type": "your_turn", "game_id": "g", "version": n}),
             "webhook_id": hook["id"], "event": "your_turn", "payload": body}
            for n, body in enumerate(bodies)
        )  # fmt: skip
        store = MemoryStore()
        table = Table(store, RemoteWorkers(store.work), time.time, archive)  # type: ignore[arg-type]
        desk = WebhookDesk(table, None, Sending(Allowed.parse("127.0.0.1")))  # type: ignore[arg-type]

        started = time.perf_counter()
        sent = 0
        while (batch := desk.deliver()) > 0:
            sent += batch
        queued = time.perf_counter() - started

        session = requests.Session()
        started = time.perf_counter()
        for body in bodies:
            session.post(url, data=body.encode(), timeout=10).close()
        plain = time.perf_counter() - started
        assert sent == args.deliveries and archive.webhooks.queued() == 0
        archive.engine.dispose()
    finally:
        receiver.shutdown()
        if postgres is not None:
            postgres.cleanup()
    print(f"{args.deliveries} deliveries, archive on {args.database}, one worker thread")
    print(f"  webhook deliveries   {sent / queued:8.1f}/s")
    print(f"  plain POSTs          {args.deliveries / plain:8.1f}/s")
    print(f"  deliveries / POSTs   {plain / queued:8.3f}")


if __name__ == "__main__":
    main()

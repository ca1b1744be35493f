"""Webhook deliveries through the courier: how many a worker sends a second, how
late a delivery is while another account's receivers stall, and what a huge
answer costs the sender's memory.

    python bench/webhooks.py [--deliveries 2000] [--database sqlite|postgresql]
                             [--stall-seconds 30]

1. **Throughput.** ``--deliveries`` deliveries spread over 16 accounts, each with
   a webhook to its own receiver on 127.0.0.1 that answers 204 at once, queued in
   an archive of the bench's own (an SQLite file, or a private PostgreSQL with
   fsync on); one ``WebhookDesk`` (one worker) sends them all. Each delivery is a
   lease, a signature, a POST and the attempt's record. The baseline, in the same
   run, is the same number of POSTs of the same bodies, one after another, with
   ``requests`` and nothing else.
2. **A victim beside stalled receivers.** Mallory's five webhooks (three receivers
   that trickle a byte a second, two that never answer) each have 100 deliveries
   queued; the courier keeps its real 10 s deadline. Every half second Ada's
   account gets a new delivery to a receiver on 127.0.0.2; printed: the time from
   its queueing to its arrival (every one, for ``--stall-seconds``).
3. **A 400 MiB answer.** The worker's RSS before and after one delivery to a
   receiver that answers 200 with a 400 MiB body.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))  # as in http.py: the helpers beside it are found last
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.outbound.hostile

import argparse
import statistics
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import requests

from stacks_api.archive import open_archive
from stacks_api.outbound.addresses import Allowed
from stacks_api.outbound.courier import Courier, Rules
from stacks_api.service.table import Table
from stacks_api.service.webhooks import Sending, WebhookDesk, delivery_id
from stacks_api.store.memory import MemoryStore
from stacks_api.testing import scratch_archive
from stacks_api.workers.runner import RemoteWorkers
from tests.outbound.hostile import Receiver, endless, silent, trickle

LOOPBACK = Allowed.parse("127.0.0.0/8")
ACCOUNTS = 16


class Quick(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if getattr(self.server, "arrived", None) is not None:
            self.server.arrived.append((time.monotonic(), self.headers["webhook-id"]))  # type: ignore[attr-defined]
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return None


def quick_receiver(host: str = "127.0.0.1") -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer((host, 0), Quick)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://{host}:{server.server_address[1]}/hook"


def queue(archive: Any, hook_id: str, numbers: range) -> list[str]:
    """Queue one delivery per number for the webhook; their ids."""
    ids, rows = [], []
    for n in numbers:
        event = {"type": "your_turn", "game_id": "g", "version": n}
        ids.append(delivery_id(hook_id, event))
        rows.append({"id": ids[-1], "webhook_id": hook_id, "event": "your_turn",
                     "payload": f'{{"type":"your_turn","data":{{"version":{n}}}}}'})  # fmt: skip
    archive.webhooks.enqueue(rows)
    return ids


def desk_over(archive: Any, rules: Rules) -> WebhookDesk:
    store = MemoryStore()
    table = Table(store, RemoteWorkers(store.work), time.time, archive)  # type: ignore[arg-type]
    return WebhookDesk(table, Sending(LOOPBACK, 0.5, 30), Courier(rules))


def throughput(archive: Any, deliveries: int) -> tuple[float, float]:
    """Deliveries a second through one desk, and plain POSTs a second."""
    servers, urls, bodies = [], [], []
    for n in range(ACCOUNTS):
        server, url = quick_receiver()
        servers.append(server)
        urls.append(url)
        player, _ = archive.accounts.create(f"Bench {n}", "bench")
        hook, _ = archive.webhooks.create(player["id"], url, ["your_turn"])
        share = range(n, deliveries, ACCOUNTS)
        queue(archive, hook["id"], share)
        bodies += [(url, f'{{"type":"your_turn","data":{{"version":{v}}}}}') for v in share]
    desk = desk_over(archive, Rules(allowed=LOOPBACK))
    started = time.perf_counter()
    while archive.webhooks.queued():
        if not desk.deliver():
            desk.courier.wait_for_room(0.05)
    sent = time.perf_counter() - started
    session = requests.Session()
    started = time.perf_counter()
    for url, body in bodies:
        session.post(url, data=body.encode(), timeout=10).close()
    plain = time.perf_counter() - started
    for server in servers:
        server.shutdown()
    return deliveries / sent, deliveries / plain


def victim_latency(archive: Any, seconds: float) -> list[float]:
    """Seconds from queueing to arrival of Ada's deliveries while Mallory's stall."""
    mallory, _ = archive.accounts.create("Mallory", "bench")
    hostile = [Receiver(trickle) for _ in range(3)] + [Receiver(silent) for _ in range(2)]
    for receiver in hostile:
        hook, _ = archive.webhooks.create(mallory["id"], receiver.start(), ["your_turn"])
        queue(archive, hook["id"], range(100))
    server, url = quick_receiver("127.0.0.2")
    server.arrived = []  # type: ignore[attr-defined]
    ada, _ = archive.accounts.create("Ada", "bench")
    hook, _ = archive.webhooks.create(ada["id"], url, ["your_turn"])
    desk = desk_over(archive, Rules(allowed=LOOPBACK))
    stop = threading.Event()

    def worker() -> None:
        while not stop.is_set():
            if not desk.deliver():
                desk.courier.wait_for_room(0.5)  # as the workers' loop waits

    threading.Thread(target=worker, daemon=True).start()
    queued_at: dict[str, float] = {}
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        (delivery,) = queue(archive, hook["id"], range(n, n + 1))
        queued_at[delivery] = time.monotonic()
        n += 1
        time.sleep(0.5)
    time.sleep(2)
    stop.set()
    for receiver in hostile:
        receiver.stop()
    server.shutdown()
    arrived = {rid: at for at, rid in server.arrived}  # type: ignore[attr-defined]
    missing = set(queued_at) - set(arrived)
    if missing:
        print(f"  {len(missing)} of Ada's {len(queued_at)} deliveries did not arrive")
    return [arrived[rid] - queued_at[rid] for rid in queued_at if rid in arrived]


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def huge_answer(archive: Any) -> tuple[int, int, int]:
    """RSS (KiB) before and after one delivery to a 400 MiB answer, and bytes read."""
    receiver = Receiver(endless)
    player, _ = archive.accounts.create("Big", "bench")
    hook, _ = archive.webhooks.create(player["id"], receiver.start(), ["your_turn"])
    server, url = quick_receiver()
    warm, _ = archive.webhooks.create(player["id"], url, ["your_turn"])
    desk = desk_over(archive, Rules(allowed=LOOPBACK))
    for hook_id, numbers in ((warm["id"], range(1)), (hook["id"], range(1, 2))):
        if hook_id == hook["id"]:  # measured once a first delivery warmed the courier
            before = rss_kib()
        queue(archive, hook_id, numbers)
        while not desk.deliver():
            time.sleep(0.01)
        while desk.courier.under_way():
            time.sleep(0.05)
        desk.record()
    after = rss_kib()
    server.shutdown()
    receiver.stop()
    return before, after, receiver.sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deliveries", type=int, default=2000)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--stall-seconds", type=float, default=30.0)
    args = parser.parse_args()
    with scratch_archive(args.database) as database:
        archive = open_archive(database)
        before, after, offered = huge_answer(archive)  # first: the others leave garbage
        sent, plain = throughput(archive, args.deliveries)
        print(f"{args.deliveries} deliveries to {ACCOUNTS} receivers, archive on "
              f"{args.database}, one worker")  # fmt: skip
        print(f"  webhook deliveries   {sent:8.1f}/s")
        print(f"  plain POSTs in a row {plain:8.1f}/s")
        print(f"  deliveries / POSTs   {sent / plain:8.2f}x")
        late = sorted(victim_latency(archive, args.stall_seconds))
        if late:
            print(f"Ada's deliveries while Mallory's 5 receivers stall ({len(late)} sent): "
                  f"median {statistics.median(late):.3f} s, worst {late[-1]:.3f} s")  # fmt: skip
        print(f"a 400 MiB answer: RSS {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB "
              f"after ({(after - before) / 1024:+.1f} MiB); the receiver got "
              f"{offered / 2**20:.1f} MiB out before the courier hung up")  # fmt: skip
        archive.engine.dispose()


if __name__ == "__main__":
    main()

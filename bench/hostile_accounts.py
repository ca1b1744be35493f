"""A victim's deliveries while many hostile accounts stall: how late one account's
webhook delivery and push arrive while 10 other accounts each keep 5 webhooks and
5 push subscriptions on receivers that never answer or trickle, with a backlog of
tens of thousands queued for them (the attack of issue "Ratings that mean
something, a courier fair to every account": before, the victim's delivery came
minutes late).

    python bench/hostile_accounts.py [--hostile 10] [--backlog 600] [--seconds 60]
                                     [--database sqlite|postgresql]

One worker's loop (``Notifications.send`` over a webhook desk and a push desk
sharing one courier, with its real 10 s deadline) runs against an archive of the
bench's own. Each hostile account's 5 webhooks and 5 subscriptions point at 10
receivers of its own on 127.0.0.1 (half never answer, half trickle a byte every
half second), and ``--backlog`` deliveries are queued for each webhook and for
each subscription before the clock starts (the archive keeps at most 1,000 a
webhook and 100 a subscription: what it dropped is printed). Then every half
second the victim's account gets one webhook delivery and one push, to receivers
on 127.0.0.2 that answer at once; printed: the seconds from queueing to arrival,
median, 99th percentile and worst, for each, and the bar (5 s).
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))  # the helpers beside it are found last
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.*

import argparse
import statistics
import threading
import time
from typing import Any

from bench.webhooks import LOOPBACK, queue, quick_receiver
from stacks_api.archive import open_archive
from stacks_api.outbound.courier import Courier, Rules
from stacks_api.service.notifications import Notifications
from stacks_api.service.people import People
from stacks_api.service.preferences import Preferences
from stacks_api.service.pushes import PushDesk, PushSettings, _push
from stacks_api.service.table import Table
from stacks_api.service.webhooks import Sending, WebhookDesk
from stacks_api.store.memory import MemoryStore
from stacks_api.testing import scratch_archive
from stacks_api.workers.runner import RemoteWorkers
from tests.api.pushservice import PushService
from tests.outbound.hostile import Receiver, silent, trickle

BAR_S = 5.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def hostile_account(archive: Any, n: int, backlog: int, keys: dict[str, str]) -> list[Receiver]:
    """An account with 5 webhooks and 5 subscriptions on stalling receivers, each with
    ``backlog`` deliveries queued; the receivers."""
    player, _ = archive.accounts.create(f"Hostile {n}", "bench")
    receivers = []
    for k in range(10):
        receiver = Receiver(silent if k % 2 else trickle)
        receivers.append(receiver)
        url = receiver.start()
        if k < 5:
            hook, _ = archive.webhooks.create(player["id"], url, ["your_turn"])
            queue(archive, hook["id"], range(backlog))
        else:
            made = archive.pushes.subscribe(player["id"], url, keys["p256dh"], keys["auth"],
                                            ["your_turn"])  # fmt: skip
            archive.pushes.enqueue([_push(made["id"], player["id"], event(v), "your_turn",
                                          time.time()) for v in range(backlog)])  # fmt: skip
    return receivers


def event(version: int) -> dict[str, Any]:
    """A turn of a game of its own (a push says its game: how arrivals are matched)."""
    return {"type": "your_turn", "game_id": f"g{version:016d}", "version": version, "seat": 0}


class TimedPushService(PushService):
    """The victim's push service: when each game's push arrived (decrypted, checked)."""

    def check(self, headers: dict[str, str], body: bytes, status: int) -> Any:
        got = super().check(headers, body, status)
        self.arrived[got.plaintext["game_id"]] = time.monotonic()  # type: ignore[attr-defined]
        return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hostile", type=int, default=10)
    parser.add_argument("--backlog", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()
    with scratch_archive(args.database) as database:
        push_service = TimedPushService()  # the victim's, answering at once
        push_service.arrived = {}  # type: ignore[attr-defined]
        push_endpoint = push_service.start()
        try:
            archive = open_archive(database)
            keys = push_service.keys
            receivers = [r for n in range(args.hostile)
                         for r in hostile_account(archive, n, args.backlog, keys)]  # fmt: skip
            queued = archive.webhooks.queued(), archive.pushes.queued()
            print(f"{args.hostile} hostile accounts, 5 webhooks and 5 subscriptions each on "
                  f"stalling receivers, {args.backlog} queued for each: {queued[0]} webhook "
                  f"deliveries and {queued[1]} pushes kept ({args.database})")  # fmt: skip

            store = MemoryStore()
            table = Table(store, RemoteWorkers(store.work), time.time, archive)  # type: ignore[arg-type]
            courier = Courier(Rules(allowed=LOOPBACK))
            hooks = WebhookDesk(table, Sending(LOOPBACK, 0.5, 30), courier)
            pushes = PushDesk(table, People(table), Preferences(table), courier,
                            PushSettings(allowed=LOOPBACK, first_delay_s=0.5))  # fmt: skip
            push_service.server_key = pushes.key()
            notifications = Notifications(None, courier, [hooks, pushes])  # type: ignore[arg-type]
            stop = threading.Event()

            def worker() -> None:  # the workers' loop (workers/archiver.py)
                while not stop.is_set():
                    if not notifications.send():
                        courier.wait_for_room(0.5)

            threading.Thread(target=worker, daemon=True).start()
            victim, _ = archive.accounts.create("Victim", "bench")
            server, url = quick_receiver("127.0.0.2")
            server.arrived = []  # type: ignore[attr-defined]
            hook, _ = archive.webhooks.create(victim["id"], url, ["your_turn"])
            subscription = archive.pushes.subscribe(victim["id"], push_endpoint, keys["p256dh"],
                                                    keys["auth"], ["your_turn"])  # fmt: skip
            hook_at: dict[str, float] = {}
            push_at: dict[str, float] = {}
            end, n = time.monotonic() + args.seconds, 0
            while time.monotonic() < end:
                (delivery,) = queue(archive, hook["id"], range(n, n + 1))
                hook_at[delivery] = time.monotonic()
                archive.pushes.enqueue([_push(subscription["id"], victim["id"], event(n),
                                              "your_turn", time.time())])  # fmt: skip
                push_at[event(n)["game_id"]] = time.monotonic()
                n += 1
                time.sleep(0.5)
            time.sleep(BAR_S)
            stop.set()
            arrived = {rid: at for at, rid in server.arrived}  # type: ignore[attr-defined]
            pushed = dict(push_service.arrived)  # type: ignore[attr-defined]
            for name, sent, got in (("webhooks", hook_at, arrived), ("pushes", push_at, pushed)):
                late = [got[k] - at for k, at in sent.items() if k in got]
                lost = len(sent) - len(late)
                missing = f"; {lost} not within {BAR_S:g} s of the end" if lost else ""
                if late:
                    print(f"  the victim's {name}: {len(late)} of {len(sent)} arrived: median "
                          f"{statistics.median(late):.3f} s, p99 {percentile(late, 0.99):.3f} s, "
                          f"worst {max(late):.3f} s (bar {BAR_S:g} s){missing}")  # fmt: skip
                else:
                    print(f"  none of the victim's {len(sent)} {name} arrived")
            dropped = sum(h.get("dropped", 0) for p in archive.accounts.search("Hostile", 100)
                          for h in archive.webhooks.of(p["id"]))  # fmt: skip
            print(f"  dropped from full webhook backlogs: {dropped}")
            for receiver in receivers:
                receiver.stop()
            server.shutdown()
            archive.engine.dispose()
        finally:
            push_service.stop()


if __name__ == "__main__":
    main()

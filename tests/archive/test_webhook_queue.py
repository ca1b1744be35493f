"""The webhook queue in the archive: leases no two workers share, retries that grow,
a delivery that fails after a day, a webhook disabled after a day of failures."""

from __future__ import annotations

import random
import threading
import time

from sqlalchemy import func, insert, select, text

from stacks_api.archive import Archive, connect, upgrade
from stacks_api.archive.models import WebhookDelivery
from stacks_api.archive.models_push import PushDelivery
from stacks_api.archive.webhooks import DISABLE_AFTER_S, MAX_DELAY_S, RETRY_FOR_S, retry_delay
from stacks_api.testing import create_database, drop_database


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def archive_at(url: str, clock: Clock) -> Archive:
    engine = connect(url)
    upgrade(engine)
    return Archive(engine, clock)


def queue_one(archive: Archive, n: int = 0) -> tuple[str, str]:
    player, _ = archive.accounts.create(f"P{n}", "k")
    hook, _ = archive.webhooks.create(player["id"], "https://hooks.example.org/x", ["your_turn"])
    archive.webhooks.enqueue([{"id": f"msg_{n}", "webhook_id": hook["id"],
                               "event": "your_turn", "payload": "{}"}])  # fmt: skip
    return player["id"], hook["id"]


def test_a_lease_is_held_by_one_worker_and_falls_due_when_it_runs_out(database_url):
    clock = Clock()
    archive = archive_at(database_url, clock)
    try:
        queue_one(archive)
        assert archive.webhooks.enqueue([{"id": "msg_0", "webhook_id": "x", "event": "e",
                                          "payload": "{}"}]) == 0  # queued once  # fmt: skip
        first = archive.webhooks.claim(30, 10)
        assert [d.id for d in first] == ["msg_0"] and first[0].attempts == 1
        assert archive.webhooks.claim(30, 10) == []  # held
        clock.now += 31  # the worker died: the lease ran out
        second = archive.webhooks.claim(30, 10)
        assert [d.attempts for d in second] == [2]
        assert archive.webhooks.finish(first[0], True, 200, None, 1.0, 5.0) == "lost"
        assert archive.webhooks.finish(second[0], True, 200, None, 1.0, 5.0) == "delivered"
        assert archive.webhooks.queued() == 0
    finally:
        archive.engine.dispose()


def test_failures_retry_later_and_later_then_fail_and_disable_the_webhook(database_url):
    clock = Clock()
    archive = archive_at(database_url, clock)
    try:
        player, hook = queue_one(archive)
        waits = []
        while True:
            due = archive.webhooks.claim(30, 10)
            if not due:
                break
            outcome = archive.webhooks.finish(due[0], False, 500, None, 1.0, 5.0)
            if outcome == "failed":
                break
            shown = archive.webhooks.deliveries(player, hook)
            assert shown is not None
            waits.append(shown[0]["next_at"] - clock.now)
            clock.now = shown[0]["next_at"]
        # A day of failures disabled the webhook, and its delivery failed with it.
        assert outcome == "failed" and clock.now - 1_800_000_000.0 >= DISABLE_AFTER_S
        assert waits[1] > waits[0] and max(waits) <= MAX_DELAY_S
        assert archive.webhooks.queued() == 0
        disabled = archive.webhooks.disabled_since(player, 0)
        assert [h["id"] for h in disabled] == [hook] and disabled[0]["disabled_at"]
        assert archive.webhooks.active() == []
        archive.webhooks.enqueue([{"id": "msg_late", "webhook_id": hook, "event": "your_turn",
                                   "payload": "{}"}])  # fmt: skip
        assert archive.webhooks.claim(30, 10) == []  # a disabled webhook sends nothing
        attempts = archive.webhooks.deliveries(player, hook)
        assert attempts is not None
        assert {a["status"] for d in attempts for a in d["attempts"]} == {500}
        assert {d["state"] for d in attempts if d["id"] != "msg_late"} == {"failed"}
        assert archive.webhooks.remove(player, hook)
    finally:
        archive.engine.dispose()


def test_a_success_clears_the_failures_that_would_disable_a_webhook(database_url):
    clock = Clock()
    archive = archive_at(database_url, clock)
    try:
        player, hook = queue_one(archive)
        due = archive.webhooks.claim(30, 10)[0]
        archive.webhooks.finish(due, False, 503, None, 1.0, 5.0)
        clock.now += DISABLE_AFTER_S - 60
        due = archive.webhooks.claim(30, 10)[0]
        archive.webhooks.finish(due, True, 204, None, 1.0, 5.0)
        archive.webhooks.enqueue([{"id": "msg_next", "webhook_id": hook, "event": "your_turn",
                                   "payload": "{}"}])  # fmt: skip
        clock.now += 120
        due = archive.webhooks.claim(30, 10)[0]
        archive.webhooks.finish(due, False, 503, None, 1.0, 5.0)
        assert archive.webhooks.disabled_since(player, 0) == []
    finally:
        archive.engine.dispose()


def test_the_retry_delay_grows_threefold_with_jitter_up_to_a_bound():
    rng = random.Random(1)
    for attempts in range(1, 30):
        delay = retry_delay(attempts, 5.0, rng)
        full = min(MAX_DELAY_S, 5.0 * 3 ** (attempts - 1))
        assert full / 2 <= delay <= full


def test_a_delivery_fails_after_a_day_of_retries_while_its_webhook_works(database_url):
    """One event the receiver always refuses, while it accepts the others."""
    clock = Clock()
    archive = archive_at(database_url, clock)
    try:
        player, hook = queue_one(archive)
        outcomes: list[str] = []
        while (due := archive.webhooks.claim(30, 10)) and len(outcomes) < 200:
            for delivery in due:
                ok = delivery.id != "msg_0"
                outcomes.append(archive.webhooks.finish(delivery, ok, 200 if ok else 500, None,
                                                        1.0, 5.0))  # fmt: skip
            pending = archive.webhooks.deliveries(player, hook) or []
            clock.now = min(d["next_at"] for d in pending if d["next_at"] is not None) \
                if any(d["next_at"] for d in pending) else clock.now  # fmt: skip
            archive.webhooks.enqueue([{"id": f"msg_ok_{len(outcomes)}", "webhook_id": hook,
                                       "event": "your_turn", "payload": "{}"}])  # fmt: skip
            if outcomes[-1] == "failed" or not any(d["next_at"] for d in pending):
                break
        assert "failed" in outcomes and "delivered" in outcomes
        assert clock.now - 1_800_000_000.0 >= RETRY_FOR_S
        assert archive.webhooks.disabled_since(player, 0) == []
    finally:
        archive.engine.dispose()


def test_a_delivery_queued_while_its_account_is_deleted_cannot_fail_the_deletion(postgres_url):
    """A delivery and a push are inserted, not yet committed, as the deletion starts:
    the deletion waits for them, then takes them with the account (before: the
    webhook's foreign key failed the whole deletion)."""
    url = create_database(postgres_url)
    archive = archive_at(url, Clock())
    try:
        player, hook = queue_one(archive)
        keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
        subscription = archive.pushes.subscribe(
            player, "https://push.example/s", keys["p256dh"], keys["auth"], ["your_turn"]
        )
        racing = archive.engine.connect()
        racing.begin()
        racing.execute(insert(WebhookDelivery).values(
            id="msg_late", webhook_id=hook, event="your_turn", payload="{}", created_at=0.0,
            state="pending", next_at=0.0, lease_until=0.0, attempts=0))  # fmt: skip
        racing.execute(insert(PushDelivery).values(
            id="push_late", subscription_id=subscription["id"], player_id=player,
            event="your_turn", payload="{}", topic="t", urgency="normal", ttl=60,
            state="pending", created_at=0.0, next_at=0.0, lease_until=0.0, attempts=0))  # fmt: skip
        failed: list[BaseException] = []

        def delete_account() -> None:
            try:
                archive.moderation.delete(player)
            except BaseException as err:
                failed.append(err)

        deleting = threading.Thread(target=delete_account)
        # Until the deletion waits for a lock. Each look is its own transaction:
        # PostgreSQL keeps one snapshot of pg_stat_activity for a whole transaction,
        # so a watcher in one would never see the wait begin (and the deletion's
        # statement would time out, as it did in CI).
        watcher = archive.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        with watcher:
            waiting = text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                           " AND datname = current_database()")  # fmt: skip
            deleting.start()
            while not watcher.execute(waiting).scalar() and deleting.is_alive():
                time.sleep(0.01)
        racing.commit()
        racing.close()
        deleting.join()
        assert not failed, failed
        assert archive.webhooks.of(player) == [] and archive.webhooks.queued() == 0
        assert archive.pushes.of(player) == []
        with archive.engine.connect() as connection:
            assert connection.execute(select(func.count()).select_from(PushDelivery)).scalar() == 0
    finally:
        archive.engine.dispose()
        drop_database(url)

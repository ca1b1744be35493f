"""The delivery queues are fair and bounded: due work is handed out in turn across
accounts, a backlog is capped (oldest dropped, counted), what is done is pruned, and
a push service's pause never keeps a push past its TTL."""

from __future__ import annotations

from stacks_api.archive import Archive
from stacks_api.archive import pushes as push_book
from stacks_api.archive import webhooks as webhook_book
from stacks_api.model.deliveries import PushOutcome

from .test_webhook_queue import Clock, archive_at

KEYS = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}


def hook_of(archive: Archive, name: str) -> tuple[str, str]:
    player, _ = archive.accounts.create(name, "k")
    hook, _ = archive.webhooks.create(player["id"], f"https://{name}.example/x", ["your_turn"])
    return player["id"], hook["id"]


def queue(archive: Archive, hook: str, count: int, tag: str) -> None:
    archive.webhooks.enqueue([{"id": f"{tag}_{n}", "webhook_id": hook, "event": "your_turn",
                               "payload": "{}"} for n in range(count)])  # fmt: skip


def test_due_deliveries_come_in_turn_across_accounts_and_a_backlog_is_capped(database_url):
    clock = Clock()
    archive = archive_at(database_url, clock)
    try:
        hostile = [hook_of(archive, f"hostile{n}") for n in range(3)]
        for player, hook in hostile:
            queue(archive, hook, 40, player)
        clock.now += 1
        victim, victim_hook = hook_of(archive, "victim")
        queue(archive, victim_hook, 1, "victim")  # the newest by far
        due = archive.webhooks.due(8)
        owners = [c.player_id for c in due]
        assert owners[:4].count(victim) == 1, "the victim's comes in the first turn"
        assert len(set(owners[:4])) == 4

        _, flooded = hostile[0]
        queue(archive, flooded, webhook_book.MAX_BACKLOG + 25, "more")
        shown = archive.webhooks.of(hostile[0][0])[0]
        assert shown["dropped"] == 40 + 25, "the oldest went, and are counted"
        assert archive.webhooks.queued() == webhook_book.MAX_BACKLOG + 2 * 40 + 1
    finally:
        archive.engine.dispose()


def test_delivered_and_failed_deliveries_are_pruned(database_url):
    clock = Clock()
    archive = archive_at(database_url, clock)
    try:
        player, hook = hook_of(archive, "ada")
        queue(archive, hook, 2, "d")
        sent = archive.webhooks.claim(30, 10)
        archive.webhooks.finish(sent[0], True, 200, None, 1.0, 5.0)
        archive.webhooks.finish(sent[1], False, 500, None, 1.0, 5.0)
        clock.now += 3600
        assert archive.webhooks.prune(clock.now - 60) == 1, "only the one done with"
        assert [d["state"] for d in archive.webhooks.deliveries(player, hook) or []] == ["pending"]
    finally:
        archive.engine.dispose()


def test_a_pause_never_keeps_a_push_past_its_ttl_and_pushes_are_bounded(database_url):
    clock = Clock()
    archive = archive_at(database_url, clock)
    try:
        player, _ = archive.accounts.create("Ada", "k")
        endpoint = "https://push.example/s"
        subscription = archive.pushes.subscribe(player["id"], endpoint, KEYS["p256dh"],
                                                KEYS["auth"], ["your_turn"])  # fmt: skip

        def push(n: int, ttl: int) -> dict[str, object]:
            return {"id": f"p_{n}", "subscription_id": subscription["id"],
                    "player_id": player["id"], "event": "your_turn", "payload": "{}",
                    "topic": "t", "urgency": "high", "ttl": ttl, "next_at": clock.now}  # fmt: skip

        archive.pushes.enqueue([push(0, 600), push(1, 86_400)])
        short, long = sorted(archive.pushes.lease(["p_0", "p_1"], 30), key=lambda d: d.ttl)
        told = archive.pushes.finish_many(
            [PushOutcome(short, False, 429, 3600.0), PushOutcome(long, False, 429, 3600.0)], 5.0
        )
        assert told == ["stale", "paused"], "a push whose TTL ends first is not kept"
        clock.now += 3601
        archive.pushes.enqueue([push(n, 600) for n in range(2, 2 + push_book.MAX_BACKLOG + 10)])
        assert archive.pushes.queued() == push_book.MAX_BACKLOG
        clock.now += 2 * 86_400
        assert archive.pushes.prune(clock.now - 86_400) >= 11
    finally:
        archive.engine.dispose()


def test_each_challenge_is_a_push_of_its_own():
    """The push id held the event's kind and status but not the challenge: after the
    first challenge pushed to a subscription, every later one was dropped as sent."""
    from stacks_api.service.pushes import _push

    made = [_push("sub", "ada", {"type": "challenge", "challenge": {"id": f"c{n}",
                                 "status": "pending", "from_name": "Bo"}}, "challenge", 0.0)
            for n in range(4)]  # fmt: skip
    assert len({p["id"] for p in made}) == 4
    assert len({p["topic"] for p in made}) == 4, "no challenge replaces another offline"
    again = _push("sub", "ada", {"type": "challenge", "challenge": {"id": "c0",
                  "status": "pending", "from_name": "Bo"}}, "challenge", 9.0)  # fmt: skip
    assert again["id"] == made[0]["id"], "the same event is queued once"

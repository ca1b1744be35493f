"""The figures an operator watches, in the Prometheus text format (docs/operations.md).

Counters and histograms are kept by whichever process counts them. Under
``stacks-api serve`` every process (each web worker and bot worker) writes its
own into ``PROMETHEUS_MULTIPROC_DIR``, which serve sets before any of them
starts, so ``GET /metrics`` answers the sum over all of them whichever worker
it reaches. Without that directory (tests, ``flask run``) the one process's
figures are answered. Gauges of the whole server (live games, the archive's
backlog, open streams) are read from the store when the page is asked for, so
they need no bookkeeping in any process.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"  # set by `serve` (stacks_api.runtime.supervisor)
disable_created_metrics()  # type: ignore[no-untyped-call]  # *_created series only add noise
# The classic text format, which every Prometheus reads (and generate_latest writes).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# Histograms of seconds: a view takes milliseconds, a bot decision up to seconds.
FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0)

REQUESTS = Counter(
    "stacks_http_requests_total", "HTTP requests answered", ["route", "method", "status"]
)
REQUEST_SECONDS = Histogram(
    "stacks_http_request_duration_seconds", "Time to answer an HTTP request", ["route"],
    buckets=FAST,
)  # fmt: skip
ACTIONS = Counter("stacks_actions_total", "Actions applied to games", ["variant", "by"])
BOT_DECISION_SECONDS = Histogram(
    "stacks_bot_decision_seconds", "Time a bot took to choose an action", ["level"], buckets=FAST
)
WORK_LAG_SECONDS = Histogram(
    "stacks_work_lag_seconds",
    "How late a background worker took up a game after it was due",
    buckets=FAST,
)
PAIRING_WAIT_SECONDS = Histogram(
    "stacks_pairing_wait_seconds", "Time from a seek to its pairing", ["pool"], buckets=SLOW
)
WEBHOOK_DELIVERIES = Counter(
    "stacks_webhook_deliveries_total",
    "Webhook delivery attempts, by outcome (delivered, retry, failed, lost to another worker)",
    ["outcome"],
)
PUSHES = Counter(
    "stacks_pushes_total",
    "Web Push attempts, by outcome (delivered, retry, paused, stale, gone, lost)",
    ["outcome"],
)
STORE_ERRORS = Counter(
    "stacks_store_errors_total",
    "Requests refused because a store failed (store: live or archive)",
    ["store"],
)


class ServerGauges(Collector):
    """Figures read from the stores at scrape time: the same whichever process asks."""

    def __init__(self, read: Callable[[], dict[str, Any]]) -> None:
        self.read = read

    def describe(self) -> Iterable[Metric]:
        return []  # registering must not read the stores: the page reads them once

    def collect(self) -> Iterable[Metric]:
        figures = self.read()
        live = GaugeMetricFamily("stacks_games_live", "Games being played", labels=["variant"])
        for variant, count in figures["games_live"].items():
            live.add_metric([variant], count)
        yield live
        yield GaugeMetricFamily(
            "stacks_archive_backlog", "Ended games waiting to be archived",
            value=figures["archive_backlog"],
        )  # fmt: skip
        yield GaugeMetricFamily(
            "stacks_streams_open", "Event streams open over every web process",
            value=figures["streams_open"],
        )  # fmt: skip
        yield GaugeMetricFamily(
            "stacks_webhooks_queued", "Webhook deliveries waiting to be sent",
            value=figures["webhooks_queued"],
        )  # fmt: skip


def page(gauges: Collector) -> bytes:
    """The metrics page: every process's counters and histograms, and the gauges."""
    server = CollectorRegistry()
    server.register(gauges)
    if os.environ.get(MULTIPROCESS_DIR):
        MultiProcessCollector(server)  # type: ignore[no-untyped-call]
        return generate_latest(server)
    return generate_latest(REGISTRY) + generate_latest(server)  # this process alone

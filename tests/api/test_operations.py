"""What operators see: request ids on every answer, JSON log lines that never hold a
secret, and the metrics page (one process, and summed over ``serve``'s processes)."""

from __future__ import annotations

import json
import logging
import re
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from flask import request_finished

from stacks_api.api.tracing import METHODS
from stacks_api.runtime.logs import JsonFormatter
from stacks_api.testing import ServerProcess

from .helpers import API, bearer, create, problem

NAMES = ("stacks_http_requests_total", "stacks_http_request_duration_seconds",
         "stacks_games_live", "stacks_actions_total", "stacks_bot_decision_seconds",
         "stacks_work_lag_seconds", "stacks_archive_backlog", "stacks_streams_open")  # fmt: skip


def test_every_answer_carries_a_request_id(client):
    sent = client.get("/api/v1/health", headers={"X-Request-ID": "lb-42.a:b_c"})
    assert sent.headers["X-Request-ID"] == "lb-42.a:b_c"
    for insane in ("x" * 129, "has space", "semi;colon", ""):
        made = client.get("/api/v1/health", headers={"X-Request-ID": insane})
        assert re.fullmatch(r"[0-9a-f]{32}", made.headers["X-Request-ID"])
    assert client.get(f"{API}/nope").headers.get("X-Request-ID")  # a problem has one too
    refused = client.post(API, json={"variant": "nope"})
    assert refused.status_code == 422 and refused.headers.get("X-Request-ID")
    ids = {client.get("/api/v1/health").headers["X-Request-ID"] for _ in range(5)}
    assert len(ids) == 5


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def test_no_log_line_holds_a_token_a_key_a_seed_or_a_hand(make_app, tmp_path):
    app = make_app(DATABASE_URL=f"sqlite:///{tmp_path}/a.sqlite3", ACCESS_LOG=True)
    client = app.test_client()
    lines = Lines()
    root = logging.getLogger()
    root.addHandler(lines)
    old_level, root.level = root.level, logging.DEBUG
    answered = []  # one entry a request the app answered (the game's length varies)

    def count(sender: object, response: object, **extra: object) -> None:
        answered.append(response)

    request_finished.connect(count, app)  # held weakly: ``count`` lives as long as the test
    try:
        key = client.post("/api/v1/players", json={"name": "Ada"}).json["key"]
        body = create(client, variant="sequence", players=3,
                      seats=[{}, {}, {"bot": "random"}])  # fmt: skip
        game_id, host = body["game"]["id"], body["host_token"]
        seats = [client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key)).json,
                 client.post(f"{API}/{game_id}/players", json={"name": "Bo"}).json]  # fmt: skip
        secrets = {key, host, *(s["token"] for s in seats)}
        hands = set()
        for _ in range(600):
            moved = False
            for token in (key, seats[1]["token"]):
                waiting = {**bearer(token), "Prefer": "wait=5"}
                seen = client.get(f"{API}/{game_id}", headers=waiting).json
                if seen["status"] != "active":
                    break
                hands.add(json.dumps(seen["you"]["hand"]))
                if seen["you"]["legal_actions"]:
                    client.post(f"{API}/{game_id}/actions", json=seen["you"]["legal_actions"][0],
                                headers=bearer(token))  # fmt: skip
                    moved = True
            if seen["status"] != "active":
                break
            assert moved or seen["to_move"]
        final = client.get(f"{API}/{game_id}").json
        assert final["status"] == "finished"
        client.get(f"{API}/{game_id}/record")
        client.get(f"{API}/{game_id}", headers={"Authorization": "Bearer not-a-token"})
    finally:
        request_finished.disconnect(count, app)
        root.removeHandler(lines)
        root.level = old_level
    secrets.add(final["fairness"]["server_seed"])
    access = [json.loads(line) for line in lines.lines if '"stacks_api.access"' in line]
    assert len(access) == len(answered) > 10  # each request logged once, a whole game's
    assert all(a["request_id"] and a["route"] for a in access)
    assert {a["route"] for a in access} >= {"/api/v1/games/<game_id>/actions"}
    text = "\n".join(lines.lines)
    leaked = [s for s in secrets if s in text] + [h for h in hands if h in text]
    assert not leaked and '"hand"' not in text
    assert all(json.loads(line) for line in lines.lines)  # every line is one JSON object


def metric(page: str, name: str, **labels: str) -> float:
    """The value of one series of a Prometheus text page (0 when absent)."""
    total = 0.0
    for line in page.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        if all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_the_metrics_page_names_the_figures_and_may_need_a_token(make_app, tmp_path):
    app = make_app(DATABASE_URL=f"sqlite:///{tmp_path}/a.sqlite3")
    client = app.test_client()
    create(client, variant="sequence", players=2, seats=[{"bot": "random"}, {"bot": "random"}])
    page = client.get("/metrics")
    assert page.status_code == 200 and page.content_type.startswith("text/plain; version=0.0.4")
    for name in NAMES:
        assert f"# TYPE {name.removesuffix('_total')}" in page.text, name
    assert metric(page.text, "stacks_http_requests_total", route="/api/v1/games",
                  method="POST", status="201") >= 1  # fmt: skip
    guarded = make_app(DATABASE_URL=f"sqlite:///{tmp_path}/b.sqlite3", METRICS_TOKEN="s3cret")
    other = guarded.test_client()
    problem(other.get("/metrics"), 401, "unauthorized")
    problem(other.get("/metrics", headers=bearer("wrong")), 401, "unauthorized")
    assert other.get("/metrics", headers=bearer("s3cret")).status_code == 200


def test_made_up_methods_and_paths_make_no_new_series(make_app, tmp_path):
    """Each label value of a series is kept for ever: a client may not make them."""
    app = make_app(DATABASE_URL=f"sqlite:///{tmp_path}/a.sqlite3")
    client = app.test_client()

    def series() -> set[str]:
        page = client.get("/metrics").text
        return {line.split(" ")[0] for line in page.splitlines()
                if line.startswith("stacks_http_requests_total{")}  # fmt: skip

    series()  # the page's own series
    client.open("/api/v1/games/nope", method="BREW")  # one of each kind, counted once
    client.open("/nowhere", method="BREW")
    client.get("/api/v1/no/such/route")
    before = series()
    for n in range(200):
        client.open(f"/api/v1/games/g{n}", method=f"M{n}X")
        client.open(f"/random/{n}", method=f"Z{n}")
        client.get(f"/api/v1/nothing/{n}")
    after = series()
    assert after == before, after - before
    methods = {re.search(r'method="([^"]*)"', s).group(1) for s in after}  # type: ignore[union-attr]
    assert methods <= METHODS | {"other"} and "other" in methods
    routes = {re.search(r'route="([^"]*)"', s).group(1) for s in after}  # type: ignore[union-attr]
    assert not any("/g1" in r or "/random" in r or "nothing" in r for r in routes), routes


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        text: str = answer.read().decode()
        return text


@pytest.mark.usefixtures("prefix")
def test_serve_counts_every_worker_in_one_page(redis_url, prefix, tmp_path):
    counted = Path(tmp_path) / "metrics"
    env = {"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": prefix,
           "PROMETHEUS_MULTIPROC_DIR": str(counted)}  # fmt: skip
    server = ServerProcess(env, workers=2, bot_workers=1)
    try:
        health = f"{server.url}/api/v1/health"
        sent, pids = 0, set[str]()
        with ThreadPoolExecutor(16) as pool:
            for _ in range(20):  # until both web workers have answered some
                list(pool.map(lambda _: _get(health), range(32)))
                sent += 32
                pids = {p.name.split("_")[1].split(".")[0] for p in counted.glob("counter_*.db")}
                if len(pids) >= 2:  # both web workers counted requests
                    break
        assert len(pids) >= 2, pids
        pages = [_get(f"{server.url}/metrics") for _ in range(8)]  # answered by either worker
        counts = [metric(p, "stacks_http_requests_total", route="/api/v1/health") for p in pages]
        assert all(count >= sent for count in counts), (sent, counts)
        assert all(metric(p, "stacks_games_live") == 0 for p in pages)
    finally:
        server.stop()

"""Problem details for everything, and a fast 503 when Redis is gone."""

import time

import pytest

from stacks_api.app import create_app
from stacks_api.runtime.config import TestConfig
from stacks_api.testing import free_port

from .helpers import API, problem


def test_unknown_routes_and_methods(client):
    problem(client.get("/api/v1/nothing"), 404, "not_found")
    allowed = problem(client.put(API, json={}), 405, "method_not_allowed")
    assert "detail" in allowed
    assert "POST" in client.put(API, json={}).headers["Allow"]


def test_body_that_is_not_an_object(client):
    problem(client.post(API, json=[1, 2]), 422, "validation_error")
    problem(client.post(API, data="null", content_type="application/json"), 422, "validation_error")


@pytest.mark.parametrize("value", [0, 1, "true", "no", None])
@pytest.mark.parametrize("name", ["unlisted", "rated"])
def test_a_flag_is_true_or_false_and_nothing_else(client, name, value):
    body = {"variant": "sequence", "players": 2, name: value}
    refused = problem(client.post(API, json=body), 422, "validation_error")
    assert name in refused["errors"]
    assert client.get(API).json["games"] == []  # and nothing was made


def test_health_reports_the_store_and_the_archive(client, store_url):
    response = client.get("/api/v1/health")
    assert response.status_code == 200
    kind = "redis" if store_url else "memory"
    archive = {"database": "sqlite", "reachable": True, "backlog": 0}
    assert response.json == {"status": "ok", "store": kind, "open_streams": 0, "archive": archive}


@pytest.fixture
def dead_redis_client():
    app = create_app(TestConfig, REDIS_URL=f"redis://127.0.0.1:{free_port()}/0", STORE_TIMEOUT_S=1)
    return app.test_client()


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/v1/health", None),
        ("post", API, {"variant": "sequence", "players": 2}),
        ("get", API, None),
        ("get", f"{API}/abc", None),
        ("post", f"{API}/abc/players", {"name": "x"}),
        ("get", f"{API}/abc/events", None),
    ],
)
def test_an_unreachable_store_answers_503_within_seconds(dead_redis_client, method, path, body):
    start = time.monotonic()
    response = getattr(dead_redis_client, method)(path, json=body)
    assert time.monotonic() - start < 5
    problem(response, 503, "store_unavailable")

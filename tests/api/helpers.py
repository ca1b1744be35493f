"""Small HTTP helpers for API tests."""

from __future__ import annotations

from typing import Any

API = "/api/v1/games"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: Any, status: int = 201, **body: Any) -> dict[str, Any]:
    response = client.post(API, json=body)
    assert response.status_code == status, response.json
    return response.json


def join(client: Any, game_id: str, name: str = "Ada", **extra: Any) -> dict[str, Any]:
    response = client.post(f"{API}/{game_id}/players", json={"name": name, **extra})
    assert response.status_code == 201, response.json
    return response.json


def view(client: Any, game_id: str, token: str | None = None, wait: int = 10) -> dict[str, Any]:
    """The game as ``token`` sees it, once a human must act (bots move in the background)."""
    headers = {**(bearer(token) if token else {}), "Prefer": f"wait={wait}"}
    response = client.get(f"{API}/{game_id}", headers=headers)
    assert response.status_code == 200, response.json
    return response.json


def act(client: Any, game_id: str, token: str, action: dict[str, Any], **headers: str) -> Any:
    return client.post(
        f"{API}/{game_id}/actions", json=action, headers={**bearer(token), **headers}
    )


def human_vs_bots(client: Any, variant: str, players: int, bot: str = "random", **body: Any):
    """A game with a human at seat 0 and bots elsewhere; returns (game id, token)."""
    seats = [{}] + [{"bot": bot}] * (players - 1)
    game = create(client, variant=variant, players=players, seats=seats, **body)["game"]
    token = join(client, game["id"])["token"]
    return game["id"], token


# Seat 0 completes pile 0 with its B5; seats 1 and 2 are then asked to block.
COMPLETING_POSITION = {
    "piles": [["B1", "B2", "B3", "B4"], [], [], []],
    "hands": [["B5", "R1"], ["R2"], ["R3"]],
    "turn": 0,
}
COMPLETE = {"type": "play", "card": "B5", "pile": 0}


def open_block_window(client: Any, timeout_s: float) -> tuple[str, list[str], Any]:
    """Three people at Stacks, seat 0 having just completed a pile whose block window
    times out after ``timeout_s``; (game id, seat tokens, the completing action's response)."""
    body = {"position": COMPLETING_POSITION, "options": {"response_timeout_s": timeout_s}}
    game = create(client, variant="stacks", players=3, **body)["game"]
    tokens = [join(client, game["id"], f"P{i}")["token"] for i in range(3)]
    return game["id"], tokens, act(client, game["id"], tokens[0], COMPLETE)


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.json
    assert response.content_type == "application/problem+json"
    body = response.json
    assert body["code"] == code and body["status"] == status
    assert {"type", "title", "detail"} <= set(body)
    return body

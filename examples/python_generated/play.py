"""A whole game of each variant against the greedy bot, through a client generated
from openapi.yaml by openapi-python-client, using only its generated names and types.

    openapi-python-client generate --path openapi.yaml --meta none --output-path gen/stacks_client
    PYTHONPATH=gen python examples/python_generated/play.py http://127.0.0.1:8000

Prints each game's result and how many events it had (and how many block windows);
exits 1 if a game does not finish. A request the server refuses for its rate limit
(429) is sent again after the Retry-After it names, never at once.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

from stacks_client import AuthenticatedClient, Client
from stacks_client.api.games import create_game, get_game, join_game, list_events, post_action
from stacks_client.models import (
    Created,
    CreateGame,
    CreateGameVariant,
    Join,
    Joined,
    SeatSpec,
    SeatSpecBot,
    SequenceEvents,
    SequenceView,
    StacksBlockWindowEvent,
    StacksEvents,
    StacksView,
)

MOST_REQUESTS = 5_000  # a bound, so a broken server cannot keep this running
T = TypeVar("T")


def patiently(send: Callable[[], Any]) -> Any:
    """``send()`` (a generated ``sync_detailed`` call) until it is not refused for the
    rate limit, waiting the Retry-After of each refusal; its parsed answer."""
    for _ in range(MOST_REQUESTS):
        response = send()
        if response.status_code != 429:
            return response.parsed
        time.sleep(max(1, int(response.headers.get("Retry-After", "1"))))
    raise SystemExit("refused for the rate limit, again and again")


def play(url: str, variant: CreateGameVariant, players: int, seed: int) -> str:
    """Create a game of one person against greedy bots, play it to the end with random
    legal actions, and say how it ended."""
    anyone = Client(base_url=url)
    seats = [SeatSpec()] + [SeatSpec(bot=SeatSpecBot.GREEDY)] * (players - 1)
    body = CreateGame(variant=variant, players=players, seats=seats)
    created = patiently(lambda: create_game.sync_detailed(client=anyone, body=body))
    assert isinstance(created, Created), created
    game_id = created.game.id
    seat = Join(name="Generated", entropy="5eed")
    joined = patiently(lambda: join_game.sync_detailed(game_id, client=anyone, body=seat))
    assert isinstance(joined, Joined), joined
    me = AuthenticatedClient(base_url=url, token=joined.token)
    rng = random.Random(seed)
    for _ in range(MOST_REQUESTS):
        view = patiently(lambda: get_game.sync_detailed(game_id, client=me, prefer="wait=10"))
        assert isinstance(view, SequenceView | StacksView), view
        if view.status.value != "active":
            result = view.result.to_dict() if view.result else None
            return f"{variant.value}: {view.status.value}, result {result}, {told(anyone, game_id)}"
        you = view.you
        if you and you.legal_actions:
            action = rng.choice(you.legal_actions)
            patiently(
                lambda chosen=action: post_action.sync_detailed(game_id, client=me, body=chosen)
            )
    raise SystemExit(f"{variant.value}: the game did not finish")


def told(client: Client, game_id: str) -> str:
    """How many events the game had, each parsed as its own variant's type."""
    page = patiently(lambda: list_events.sync_detailed(game_id, client=client))
    assert isinstance(page, SequenceEvents | StacksEvents), page
    windows = sum(isinstance(event, StacksBlockWindowEvent) for event in page.events)
    return f"{len(page.events)} events, {windows} block windows"


def main() -> None:
    url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    print(play(url, CreateGameVariant.SEQUENCE, 2, seed=1))
    print(play(url, CreateGameVariant.STACKS, 3, seed=2))


if __name__ == "__main__":
    main()

"""The Flask app class: what it changes of Flask's behaviour."""

import asyncio

from stacks_api.app import _is_coroutine_function

from .helpers import API, create


def test_whether_a_hook_or_view_is_a_coroutine_is_asked_once_per_function(make_app):
    client = make_app().test_client()
    game = create(client, variant="sequence", players=2)["game"]
    client.get(f"{API}/{game['id']}")  # every hook and the view asked once, at the latest here
    asked = _is_coroutine_function.cache_info()
    for _ in range(3):
        assert client.get(f"{API}/{game['id']}").status_code == 200
    again = _is_coroutine_function.cache_info()
    assert again.misses == asked.misses and again.hits >= asked.hits + 3 * 4


def test_a_coroutine_function_is_still_told_apart():
    async def waits() -> None:
        await asyncio.sleep(0)

    def does_not() -> None:
        return None

    assert _is_coroutine_function(waits) and not _is_coroutine_function(does_not)

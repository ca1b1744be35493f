"""The service alone, on the in-memory store and an SQLite archive, with a clock the
test sets and no background workers: each test calls what a worker would."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from stacks_api.archive import Archive, open_archive
from stacks_api.competition.bot_ratings import start
from stacks_api.service import GameService
from stacks_api.store.memory import MemoryStore

NOW = time.time()  # the archive keeps real times: the test clock starts there


class NoWorkers:
    """Jobs with nobody behind them: the test is the worker."""

    def wake(self) -> None:
        return None

    def ended(self) -> None:
        return None

    def stop(self) -> None:
        return None


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def archive(tmp_path: Any) -> Iterator[Archive]:
    made = open_archive(f"sqlite:///{tmp_path}/archive.sqlite3", starts=start)
    yield made
    made.engine.dispose()


@pytest.fixture
def service(clock: Clock, archive: Archive) -> GameService:
    return GameService(MemoryStore(), NoWorkers(), clock=clock, archive=archive)


def account(service: GameService, name: str) -> tuple[str, str]:
    """A new account: its id and key."""
    player, key = service.players.create(name, "test")
    return str(player["id"]), key

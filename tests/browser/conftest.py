"""Headless Chromium (Debian's, at /usr/bin/chromium) driven by Playwright."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from stacks_api.testing import ServerProcess, free_port

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps trying to reach hosts
# that this machine's closed network refuses.
FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
SHOTS = Path(__file__).parent / "screenshots"
DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "install Debian's chromium (.ci/run does)"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


class QuietFiles(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def static_site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A plain file server on its own port: another origin than the API's."""
    handler = functools.partial(QuietFiles, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", tmp_path
    server.shutdown()


@pytest.fixture(scope="module")
def server():
    process = ServerProcess({"REDIS_URL": ""})
    yield process
    process.stop()


@pytest.fixture(scope="module")
def people_server(tmp_path_factory):
    """A server whose presence runs in seconds (online 3 s, idle until 60 s, a claim
    after 8 s unseen), whose streams speak every second, with its own archive."""
    archive = tmp_path_factory.mktemp("journeys") / "archive.sqlite3"
    process = ServerProcess({
        "REDIS_URL": "", "DATABASE_URL": f"sqlite:///{archive}",
        "STACKS_PRESENCE_S": "3,60,8", "STACKS_SSE_KEEPALIVE_S": "1",
        "STACKS_WEBHOOK_ALLOW": "127.0.0.1",
    })  # fmt: skip
    yield process
    process.stop()


@pytest.fixture
def open_page(browser):
    """Pages that record every console error, page error and failed request."""
    contexts, problems = [], []

    def opener(url: str, viewport: dict | None = None, before: str | None = None,
               enforce_csp: bool = False):  # fmt: skip
        """A page in a context of its own at ``url``; ``before`` runs in it first.
        The pages' Content-Security-Policy forbids the eval that Playwright's
        ``wait_for_function`` needs: it is bypassed unless ``enforce_csp``."""
        context = browser.new_context(viewport=viewport or DESKTOP, bypass_csp=not enforce_csp)
        contexts.append(context)
        if before:
            context.add_init_script(before)
        page = context.new_page()
        leaving = [False]  # the test sends the page elsewhere: what it had in flight is cut
        page.on("console", lambda m: problems.append(f"{m.text} ({m.location.get('url')})")
                if m.type == "error" else None)  # fmt: skip
        page.on("pageerror", lambda error: problems.append(str(error)))

        def request_failed(request) -> None:  # type: ignore[no-untyped-def]
            cut = leaving[0] and request.failure == "net::ERR_ABORTED"
            if not closed_by_client(request) and not cut:
                problems.append(failed(request))

        page.on("requestfailed", request_failed)
        go = page.goto

        def goto(*args, **kwargs):  # type: ignore[no-untyped-def]
            leaving[0] = True
            try:
                return go(*args, **kwargs)
            finally:
                leaving[0] = False

        page.goto = goto  # type: ignore[method-assign]
        page.goto(url)
        return page

    opener.problems = problems
    yield opener
    for context in contexts:
        context.close()


def closed_by_client(request) -> bool:
    """The client closes its event stream itself on game over; if the server has not ended
    it first, Chromium reports that close as an aborted request, which is no fault."""
    return "/events" in request.url and request.failure == "net::ERR_ABORTED"


def failed(request) -> str:
    return f"{request.url} {request.failure}"


def version(page) -> int:
    return int(page.get_attribute("[data-status]", "data-version"))


def wait_newer(page, than: int, timeout: float | None = None) -> None:
    """Until the page shows a version of the game newer than ``than``."""
    page.wait_for_function(
        "v => Number(document.querySelector('[data-status]').dataset.version) > v",
        arg=than, timeout=timeout,
    )  # fmt: skip


def status(page) -> str:
    return page.text_content("[data-status]")


def wait_turn(page, timeout=20_000) -> str:
    """Until the seat must act (its turn, or a block window it can block in) or the
    game is over; the game's status."""
    page.wait_for_function(
        "['finished', 'cancelled'].includes(document.querySelector('[data-status]').textContent)"
        " || document.querySelector('.turnline.mine') !== null",
        timeout=timeout,
    )
    return status(page)


def history(page) -> list[tuple[str, str]]:
    """The move history as shown: each entry's version and text."""
    return page.eval_on_selector_all(
        "[data-move]", "items => items.map(i => [i.dataset.move, i.textContent])"
    )


def reloaded_history(page) -> list[tuple[str, str]]:
    """Reload the page and read the history once it is rebuilt."""
    page.reload()
    page.wait_for_selector("[data-move]")
    return history(page)


def choose_language(page, language: str) -> None:
    """Switch the page to ``language``, which draws its screen anew, and wait until it
    has; nothing when the page is in it already (choosing it again would redraw the
    screen later, under the test's next steps)."""
    if page.evaluate("document.documentElement.lang") == language:
        return
    page.select_option("#language", language)
    page.wait_for_function(f"document.documentElement.lang === '{language}'")


def shoot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def play_sequence_turn(page) -> None:
    """Click a card, then one of its highlighted spaces; trade or pass when nothing fits."""
    before = version(page)
    cards = page.locator(".hand [data-card]")
    for i in range(cards.count()):
        cards.nth(i).click()
        if page.locator(".cell.target").count():
            page.locator(".cell.target").first.click()
            break
        if page.locator("[data-action=exchange]").count():
            page.locator("[data-action=exchange]").click()
            break
        cards.nth(i).click()  # not this one: unselect
    else:
        page.locator("[data-action=pass]").click()
    wait_newer(page, before)

"""How soon the web client shows a game, beside how soon the same browser gets /health.

    python bench/browser.py [--rounds 10]

Starts ``stacks-api serve`` on the embedded store and Debian's Chromium (through
Playwright). Each round, in a fresh browser context: load /api/v1/health (the
baseline: one request, nothing to draw), then open a seat's /play page of a new
game against a bot and time until the board is drawn, and until its move history
(rebuilt from the game's events) is. Prints medians and the ratios. The browser
tests keep only behaviour; timings belong here.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import statistics
import time

from playwright.sync_api import sync_playwright

from stacks_api.client import Client
from stacks_api.testing import ServerProcess

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    server = ServerProcess({"REDIS_URL": ""})
    api = Client(server.url)
    health, first_render, told = [], [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for _ in range(args.rounds):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                start = time.perf_counter()
                page.goto(f"{server.url}/api/v1/health")
                health.append(time.perf_counter() - start)
                game = api.create("sequence", 2, seats=[{}, {"bot": "random"}])
                me = api.join(game["id"], "Ada")
                start = time.perf_counter()
                page.goto(f"{server.url}/play#game={game['id']}&token={me.token}")
                page.wait_for_selector("[data-cell='0,1']")
                first_render.append(time.perf_counter() - start)
                page.wait_for_selector("[data-move]")  # the history, rebuilt from the events
                told.append(time.perf_counter() - start)
                context.close()
            browser.close()
    finally:
        server.stop()
    h, r = statistics.median(health), statistics.median(first_render)
    print(f"GET /api/v1/health in the browser: median {h * 1000:.0f} ms")
    print(
        f"/play, seat view until the board is drawn: median {r * 1000:.0f} ms, "
        f"max {max(first_render) * 1000:.0f} ms ({r / h:.1f}x health), {args.rounds} rounds"
    )
    m = statistics.median(told)
    print(f"/play, until the move history is drawn: median {m * 1000:.0f} ms ({m / h:.1f}x health)")


if __name__ == "__main__":
    main()

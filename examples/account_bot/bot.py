"""An outside bot: an account that plays through the public API and its account's
event stream only, as bots of other servers do.

    stacks-api serve &     # then, in two terminals (they pair with each other):
    python examples/account_bot/bot.py http://127.0.0.1:8000 --name Robo
    python examples/account_bot/bot.py http://127.0.0.1:8000 --name Tron

It makes an account (or uses --key), asks for a game (quick pairing), and then
only reacts to its stream: ``paired`` -> take the held seat with the key and
fresh entropy; ``your_turn`` -> read the view, play a legal action; a game's end
-> print it and ask for the next game, until --games are played. A dropped
stream is opened again with ``Last-Event-ID``, and an answer of 429 or 503 is
waited out as its ``Retry-After`` says. It needs nothing but the requests
package; its moves are random, which is where a real bot's mind would go.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import time
from collections.abc import Iterator
from typing import Any

import requests

RETRYABLE = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError)


class Bot:
    def __init__(self, url: str, key: str, variant: str, rated: bool) -> None:
        self.api = url.rstrip("/") + "/api/v1"
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {key}"
        self.variant, self.rated = variant, rated
        self.last_id: str | None = None

    def call(self, method: str, path: str, *, ok: tuple[int, ...] = (), **kwargs: Any) -> Any:
        """One request, sent again while the server is out of reach or says 429 or 503."""
        while True:
            try:
                answer = self.session.request(method, self.api + path, timeout=30, **kwargs)
            except RETRYABLE:
                time.sleep(1)
                continue
            if answer.status_code in (429, 503):
                time.sleep(float(answer.headers.get("Retry-After", "1")))
                continue
            if answer.status_code >= 400 and answer.status_code not in ok:
                raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text}")
            return answer

    def seek(self) -> None:
        body = {"variant": self.variant, "players": 2, "rated": self.rated, "wait_s": 600}
        self.call("POST", "/seeks", json=body)

    def events(self) -> Iterator[dict]:
        """The account's events, one JSON object each (Server-Sent Events), for ever:
        a dropped stream is opened again from the last event seen."""
        while True:
            headers = {"Accept": "text/event-stream"}
            if self.last_id is not None:
                headers["Last-Event-ID"] = self.last_id
            try:
                with self.call("GET", "/players/me/events", headers=headers, stream=True) as stream:
                    # chunk_size=None: each piece as it arrives (else it waits for 512 bytes)
                    for line in stream.iter_lines(chunk_size=None, decode_unicode=True):
                        if line.startswith("id: "):
                            self.last_id = line[len("id: ") :]
                        elif line.startswith("data: "):
                            yield json.loads(line[len("data: ") :])
            except RETRYABLE:
                pass  # the connection dropped: open it again
            time.sleep(0.5)

    def play_turn(self, game_id: str) -> None:
        view = self.call("GET", f"/games/{game_id}").json()
        if view["status"] == "active" and view["you"]["legal_actions"]:
            action = random.choice(view["you"]["legal_actions"])
            # 409 or 412: the game moved on; the stream tells the next turn.
            self.call("POST", f"/games/{game_id}/actions", ok=(409, 412), json=action,
                      headers={"If-Match": f'"{view["version"]}"'})  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--name", default="Robo")
    parser.add_argument("--key", help="an account's key (default: make a new account)")
    parser.add_argument("--variant", default="sequence", choices=["sequence", "stacks"])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--casual", action="store_true", help="ask for casual games, not rated")
    args = parser.parse_args()
    key = args.key
    if key is None:
        made = requests.post(
            args.url.rstrip("/") + "/api/v1/players", json={"name": args.name}, timeout=30
        ).json()
        key = made["key"]
    bot = Bot(args.url, key, args.variant, rated=not args.casual)
    bot.seek()
    played = 0
    for event in bot.events():
        if event["type"] == "paired":
            entropy = {"entropy": secrets.token_hex(16)}
            # 409: taken already (a resumed stream tells the pairing again)
            bot.call("POST", f"/games/{event['game_id']}/players", ok=(409,), json=entropy)
        elif event["type"] == "your_turn":
            bot.play_turn(event["game_id"])
        elif event["type"] == "game_ended":
            played += 1
            print(
                f"game {event['game_id']}: {event['status']}, score {event['score']}, "
                f"rating {event['rating']}",
                flush=True,
            )
            if played == args.games:
                return
            bot.seek()
        elif event["type"] == "seek_closed":
            bot.seek()  # expired: ask again


if __name__ == "__main__":
    main()

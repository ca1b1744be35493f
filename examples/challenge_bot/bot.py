"""An outside bot that people challenge: a bot account that signs in with a token,
accepts the challenges it is sent, and plays whole games of either variant.

    python examples/challenge_bot/bot.py http://127.0.0.1:8000 --token stp_... [--policy first]

The token is a personal token of a bot account with the ``bot`` scope (or an
app's access token): make the account a bot with ``POST /players/me/bot`` and
the token with ``POST /players/me/tokens {"label": "bot", "scopes": ["bot"]}``,
both with the account's key (docs/bots.md, "Bring your own bot").

It follows its account's event stream only: ``challenge`` -> accept it;
``your_turn`` -> read the view and play what ``--policy`` picks among the legal
actions; ``game_ended`` -> print it. A dropped stream is opened again with
``Last-Event-ID`` (the server then tells what happened meanwhile), and every
answer of 429 or 503 is waited out as its ``Retry-After`` says. It needs nothing
but the requests package; a real bot's mind goes in ``POLICIES``.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import time
from collections.abc import Callable, Iterator
from typing import Any

import requests

JSON = dict[str, Any]
POLICIES: dict[str, Callable[[list[JSON]], JSON]] = {
    "random": random.choice,
    "first": lambda legal: legal[0],
}
RETRYABLE = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError)


class Bot:
    def __init__(self, url: str, token: str, policy: str) -> None:
        self.api = url.rstrip("/") + "/api/v1"
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"
        self.choose = POLICIES[policy]
        self.last_id: str | None = None
        self.me: str | None = None

    def call(self, method: str, path: str, *, ok: tuple[int, ...] = (), **kwargs: Any) -> Any:
        """One request, waited out and sent again while the server says 429 or 503."""
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

    def events(self) -> Iterator[JSON]:
        """The account's events, for ever: each dropped stream is resumed."""
        while True:
            headers = {"Accept": "text/event-stream"}
            if self.last_id is not None:
                headers["Last-Event-ID"] = self.last_id
            try:
                with self.call("GET", "/players/me/events", headers=headers, stream=True) as stream:
                    for line in stream.iter_lines(chunk_size=None, decode_unicode=True):
                        if line.startswith("id: "):
                            self.last_id = line[4:]
                        elif line.startswith("data: "):
                            yield json.loads(line[6:])
            except RETRYABLE:
                pass  # the connection dropped: open it again, from the last id
            time.sleep(0.5)

    def accept(self, challenge: JSON) -> None:
        if challenge.get("status") != "pending" or challenge.get("to") != self.me:
            return
        answer = self.call("POST", f"/challenges/{challenge['id']}/accept", ok=(409,),
                           json={"entropy": secrets.token_hex(16)})  # fmt: skip
        if answer.status_code == 201:
            print(f"accepted {challenge['id']}: game {answer.json()['game']['id']}", flush=True)

    def play_turn(self, game_id: str) -> None:
        view = self.call("GET", f"/games/{game_id}").json()
        if view["status"] != "active" or not view["you"]["legal_actions"]:
            return
        action = self.choose(view["you"]["legal_actions"])
        # 409 or 412: the game moved on (a clock, a block window): the stream says more.
        self.call("POST", f"/games/{game_id}/actions", ok=(409, 412), json=action,
                  headers={"If-Match": f'"{view["version"]}"'})  # fmt: skip

    def run(self, games: int) -> None:
        self.me = self.call("GET", "/players/me").json()["id"]
        pending = self.call("GET", "/challenges").json()["challenges"]
        for challenge in pending:  # sent while the bot was away
            self.accept(challenge)
        ended: set[str] = set()  # a resumed stream may tell an end twice
        for event in self.events():
            if event["type"] == "challenge":
                self.accept(event["challenge"])
            elif event["type"] == "your_turn":
                self.play_turn(event["game_id"])
            elif event["type"] == "game_ended" and event["game_id"] not in ended:
                ended.add(event["game_id"])
                print(f"game {event['game_id']}: {event['status']}, score {event['score']}",
                      flush=True)  # fmt: skip
                if len(ended) == games:
                    return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--token", required=True, help="a bot account's token (scope bot)")
    parser.add_argument("--policy", default="random", choices=sorted(POLICIES))
    parser.add_argument("--games", type=int, default=0, help="stop after this many (0: never)")
    args = parser.parse_args()
    Bot(args.url, args.token, args.policy).run(args.games)


if __name__ == "__main__":
    main()

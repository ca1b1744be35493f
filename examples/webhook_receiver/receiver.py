"""A webhook receiver for stacks_api: checks each delivery's signature, refuses old
or replayed ones, and handles each event once.

    WEBHOOK_SECRET=whsec_... python examples/webhook_receiver/receiver.py [--port 8080]

Register its URL with ``POST /api/v1/players/me/webhooks`` (the answer's
``secret`` is WEBHOOK_SECRET). A delivery is answered 204 once handled; one
whose signature does not check is answered 401 and not handled; a retry of a
delivery handled before (same ``webhook-id``) is answered 204 again and not
handled twice. Standard library only.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import os
import time
from collections import OrderedDict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOLERANCE_S = 300  # a delivery signed longer ago than this is refused (a replay)
REMEMBERED = 10_000  # webhook-ids kept to dedupe retries


def signature_is_valid(secret: str, headers: Any, body: bytes, now: float) -> bool:
    """The Standard Webhooks check: HMAC-SHA256 over "id.timestamp.body" keyed by
    the secret, compared in constant time, within ``TOLERANCE_S`` of now."""
    message_id = headers.get("webhook-id", "")
    timestamp = headers.get("webhook-timestamp", "")
    if not message_id or not timestamp.isdigit() or abs(now - int(timestamp)) > TOLERANCE_S:
        return False
    signed = f"{message_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(secret.encode(), signed, hashlib.sha256).digest())
    for signature in headers.get("webhook-signature", "").split():
        version, _, value = signature.partition(",")
        if version == "v1" and hmac.compare_digest(value.encode(), expected):
            return True
    return False


def handle(event: dict[str, Any]) -> None:
    """Your app's part: here, a line per event."""
    data = event["data"]
    if event["type"] == "your_turn":
        print(f"your turn in game {data['game_id']} (version {data['version']})", flush=True)
    else:
        print(f"{event['type']}: {json.dumps(data)}", flush=True)


def make_handler(secret: str) -> type[BaseHTTPRequestHandler]:
    seen: OrderedDict[str, None] = OrderedDict()

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(min(int(self.headers.get("Content-Length", "0")), 65536))
            if not signature_is_valid(secret, self.headers, body, time.time()):
                self._answer(401)
                return
            message_id = self.headers["webhook-id"]
            if message_id not in seen:
                handle(json.loads(body))
                seen[message_id] = None
                if len(seen) > REMEMBERED:
                    seen.popitem(last=False)
            self._answer(204)

        def _answer(self, status: int) -> None:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return None

    return Receiver


def main() -> None:
    parser = argparse.ArgumentParser(description="Receive stacks_api webhooks.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args()
    secret = os.environ.get("WEBHOOK_SECRET")
    if not secret:
        raise SystemExit("set WEBHOOK_SECRET to the secret the server answered")
    server = ThreadingHTTPServer((args.host, args.port), make_handler(secret))
    print(f"receiving on http://{args.host}:{args.port}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

"""examples/webhook_receiver/receiver.py handles a delivery the server signed, once,
and refuses forged, altered and stale ones."""

from __future__ import annotations

import importlib.util
import threading
import time
import urllib.error
import urllib.request
from http.server import ThreadingHTTPServer
from pathlib import Path

from stacks_api.service.webhooks import sign

PATH = Path(__file__).resolve().parents[1] / "examples" / "webhook_receiver" / "receiver.py"
SECRET = "whsec_test-secret"


def load():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("receiver", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def post(url: str, body: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def test_the_example_receiver_checks_signatures_and_dedupes(monkeypatch):
    receiver = load()
    handled = []
    monkeypatch.setattr(receiver, "handle", handled.append)
    server = ThreadingHTTPServer(("127.0.0.1", 0), receiver.make_handler(SECRET))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        body = '{"type":"your_turn","timestamp":1,"data":{"game_id":"g","version":4}}'
        now = int(time.time())

        def headers(at: int, message: str = "msg_1", payload: str = body) -> dict[str, str]:
            return {"webhook-id": message, "webhook-timestamp": str(at),
                    "webhook-signature": sign(SECRET, message, at, payload)}  # fmt: skip

        assert post(url, body, headers(now)) == 204
        assert post(url, body, headers(now)) == 204  # a retry: answered, not handled again
        assert len(handled) == 1 and handled[0]["data"]["version"] == 4
        assert post(url, body.replace("4", "5"), headers(now)) == 401  # the body was altered
        assert post(url, body, headers(now - 3600, "msg_2")) == 401  # signed an hour ago
        forged = {**headers(now, "msg_3"), "webhook-signature": "v1,AAAA"}
        assert post(url, body, forged) == 401
        assert post(url, body, headers(now, "msg_4")) == 204
        assert len(handled) == 2
    finally:
        server.shutdown()
        server.server_close()

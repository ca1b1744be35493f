"""A recording proxy between a client and the server, and a strict check of what it
recorded against openapi.yaml: every request body and every response, as sent."""

from __future__ import annotations

import http.client
import json
import re
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import yaml
from openapi_schema_validator import OAS30Validator

SPEC = yaml.safe_load((Path(__file__).resolve().parents[1] / "openapi.yaml").read_text())
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "host"}


@dataclass(frozen=True)
class Exchange:
    method: str
    path: str
    request: bytes
    status: int
    content_type: str
    response: bytes


class RecordingProxy:
    """Forwards every request to ``upstream`` and keeps each exchange."""

    def __init__(self, upstream: str) -> None:
        self.exchanges: list[Exchange] = []
        target = urlsplit(upstream)
        recorded = self.exchanges

        class Forward(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
                try:
                    upstream.request(self.command, self.path, body or None, headers)
                    answer = upstream.getresponse()
                    data = answer.read()
                finally:
                    upstream.close()
                kind = answer.getheader("Content-Type", "")
                recorded.append(Exchange(self.command, self.path, body, answer.status, kind, data))
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in HOP_BY_HOP | {"content-length"}:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = _forward

            def log_message(self, *_: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Forward)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _operation(method: str, path: str) -> dict:
    bare = urlsplit(path).path
    for template, operations in SPEC["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, bare) and method.lower() in operations:
            return operations[method.lower()]
    raise AssertionError(f"{method} {bare} is not in the document")


def validator(schema: dict) -> OAS30Validator:
    """An OpenAPI 3.0 validator for ``schema``, resolving the document's own $refs (the
    components ride along: in this dialect a $ref's siblings are not keywords)."""
    return OAS30Validator({"components": SPEC["components"], **schema})


def off_spec(exchanges: list[Exchange]) -> list[str]:
    """Each request body and response the document does not allow, said in a line."""
    found = []
    for one in exchanges:
        operation = _operation(one.method, one.path)
        where = f"{one.method} {one.path} -> {one.status}"
        if one.request:
            body = operation["requestBody"]["content"]["application/json"]["schema"]
            found += [f"{where} request: {e.message}"
                      for e in validator(body).iter_errors(json.loads(one.request))]  # fmt: skip
        documented = operation["responses"].get(str(one.status))
        if documented is None:
            found.append(f"{where}: status not documented")
            continue
        if not one.response:
            continue
        media = one.content_type.split(";")[0].strip()
        schema = documented.get("content", {}).get(media, {}).get("schema")
        if schema is None:
            found.append(f"{where}: {media} not documented")
            continue
        found += [f"{where}: {e.message[:300]}"
                  for e in validator(schema).iter_errors(json.loads(one.response))]  # fmt: skip
    return found


def bodies(exchanges: list[Exchange]) -> list[dict]:
    """The JSON responses recorded, in order."""
    return [json.loads(e.response) for e in exchanges if e.response and "json" in e.content_type]

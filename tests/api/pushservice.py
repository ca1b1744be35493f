"""A push service on 127.0.0.1 for the tests, playing the browser's part too: it
holds a subscription's keys, decrypts each push (RFC 8291) and checks its VAPID
token (RFC 8292) against the server's public key, then answers with the statuses
it is told, in order (then 201)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    headers: dict[str, str]
    plaintext: dict[str, Any]
    claims: dict[str, Any]
    status: int


@dataclass
class PushService:
    server_key: str = ""  # the server's VAPID public key (GET /push/key), set by the test
    statuses: list[int] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.auth = os.urandom(16)
        self.keys = {"p256dh": b64url(point), "auth": b64url(self.auth)}

    def start(self) -> str:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                with service.lock:
                    status = service.statuses.pop(0) if service.statuses else 201
                try:
                    entry = service.check(headers, body, status)
                    with service.lock:
                        service.received.append(entry)
                except Exception as failure:  # what the test reports
                    with service.lock:
                        service.failures.append(f"{type(failure).__name__}: {failure}")
                    status = 400
                self.send_response(status)
                if status == 429:
                    self.send_header("Retry-After", "1")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/push/{b64url(os.urandom(8))}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def check(self, headers: dict[str, str], body: bytes, status: int) -> Received:
        """What a browser and its push service check of a push; raises when wrong."""
        assert headers["content-encoding"] == "aes128gcm"
        for name in ("ttl", "topic", "urgency"):
            assert name in headers, f"no {name} header"
        plaintext = http_ece.decrypt(body, private_key=self.private_key,
                                     auth_secret=self.auth, version="aes128gcm")  # fmt: skip
        scheme, _, params = headers["authorization"].partition(" ")
        assert scheme == "vapid", scheme
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        assert parts["k"] == self.server_key, "signed with another key"
        claims = self._verified(parts["t"], parts["k"])
        host = f"http://127.0.0.1:{self.server.server_address[1]}"
        assert claims["aud"] == host and claims["exp"] > time.time() and claims["sub"]
        return Received(headers, json.loads(plaintext), claims, status)

    @staticmethod
    def _verified(token: str, key: str) -> dict[str, Any]:
        """The JWT's claims once its ES256 signature checks out with ``key``."""
        header, claims, signature = token.split(".")
        assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
        raw = unb64url(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        try:
            public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise AssertionError("the VAPID signature does not verify") from None
        parsed: dict[str, Any] = json.loads(unb64url(claims))
        return parsed

    def accepted(self) -> list[Received]:
        with self.lock:
            return [r for r in self.received if 200 <= r.status < 300]

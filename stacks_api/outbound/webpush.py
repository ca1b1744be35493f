"""A Web Push message, ready for the courier: its plaintext encrypted for one
subscription (RFC 8291, ``aes128gcm``, with ``http_ece``) and the headers the push
service reads: VAPID (RFC 8292, signed with ``py_vapid``), ``TTL``, ``Topic`` and
``Urgency`` (RFC 8030).

The claims of each VAPID token are made anew for each message (its push
service's origin, an expiry, the operator's contact): nothing shared is ever
changed. The server's key pair is one P-256 key, given by the operator or made
once (``new_private_key``) and kept by the caller.
"""

from __future__ import annotations

import base64
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

TOKEN_LIFE_S = 12 * 3600  # a VAPID token's expiry (RFC 8292: at most 24 hours)
URGENCIES = ("very-low", "low", "normal", "high")
TOPIC = re.compile(r"[A-Za-z0-9_-]{1,32}")  # RFC 8030: URL-safe base64 characters, 32 at most


class PushKeyError(ValueError):
    """A subscription's keys (or the server's) cannot be used."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError):
        raise PushKeyError("not base64url") from None


def new_private_key() -> str:
    """A new VAPID private key: its 32-byte secret, base64url (what the operator's
    ``STACKS_VAPID_PRIVATE_KEY`` holds too)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


@dataclass(frozen=True)
class Vapid:
    """The server's VAPID key pair and the contact its tokens name (``sub``)."""

    private_key: str  # base64url, 32 bytes (or a PEM)
    subject: str  # mailto: or https:

    def _signer(self) -> Vapid02:
        if self.private_key.lstrip().startswith("-----BEGIN"):
            return Vapid02.from_pem(self.private_key.encode())
        return Vapid02.from_raw(self.private_key.encode())

    @property
    def public_key(self) -> str:
        """The application server key a browser subscribes with: the uncompressed
        P-256 point, base64url."""
        point = self._signer().public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def authorization(self, endpoint: str, now: float) -> str:
        """The ``Authorization: vapid t=…, k=…`` header for a push to ``endpoint``."""
        parts = urlsplit(endpoint)
        claims = {"aud": f"{parts.scheme}://{parts.netloc}", "sub": self.subject,
                  "exp": int(now) + TOKEN_LIFE_S}  # fmt: skip
        return str(self._signer().sign(claims)["Authorization"])


def check_keys(p256dh: str, auth: str) -> None:
    """Refuse (``PushKeyError``) a subscription's keys that cannot encrypt a message."""
    try:
        point = unb64url(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, PushKeyError):
        raise PushKeyError("keys.p256dh is not a P-256 public key, base64url") from None
    if len(unb64url(auth)) != 16:
        raise PushKeyError("keys.auth is not 16 bytes, base64url")


def encrypt(plaintext: bytes, p256dh: str, auth: str) -> bytes:
    """The body of a push: ``plaintext`` encrypted for the subscription's keys with a
    new key of our own (RFC 8291: without a keyid, ``http_ece`` puts our public key
    in the body's header, where the browser reads it)."""
    ours = ec.generate_private_key(ec.SECP256R1())
    body: bytes = http_ece.encrypt(
        plaintext, salt=os.urandom(16), private_key=ours, dh=unb64url(p256dh),
        auth_secret=unb64url(auth), version="aes128gcm",
    )  # fmt: skip
    return body


def headers(vapid: Vapid, endpoint: str, ttl: int, topic: str, urgency: str) -> Mapping[str, str]:
    """The headers of a push to ``endpoint``."""
    if urgency not in URGENCIES or TOPIC.fullmatch(topic) is None or ttl < 0:
        raise ValueError("a push has a TTL, a Topic of up to 32 URL-safe characters and an Urgency")
    return {
        "authorization": vapid.authorization(endpoint, time.time()),
        "content-encoding": "aes128gcm",
        "content-type": "application/octet-stream",
        "ttl": str(ttl),
        "topic": topic,
        "urgency": urgency,
    }

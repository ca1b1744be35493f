"""A deal nobody could choose (scheme ``commit-reveal-v2``, docs/fairness.md).

At creation the server draws a secret 32-byte server seed and shows only a
SHA-256 over it and the dealer fixed in advance (if any), the commitment. Each
person who joins may add entropy. When the table is full, the game's seed is
derived from the server seed and every seat's entropy, and the cards are dealt
from it; once the game is over the server seed and the entropy are shown, so
anyone can check the commitment and replay the deal.

``commit-reveal-v1`` (games made before v2) committed to the server seed alone.
"""

from __future__ import annotations

import hashlib
import re
import secrets

SCHEME = "commit-reveal-v2"
SCHEMES = ("commit-reveal-v1", SCHEME)  # every committed scheme verify knows
NO_DEALER = 255  # the dealer byte of a deal whose dealer the seed chooses
CHOSEN = "chosen"  # the creator chose the seed or the position: nothing to prove
ENTROPY = re.compile(r"^[0-9a-fA-F]{1,64}$")


def server_seed() -> str:
    """A new secret server seed, as 64 hex characters."""
    return secrets.token_hex(32)


def commitment(seed_hex: str, dealer: int | None, scheme: str = SCHEME) -> str:
    """The commitment, in hex. v2: SHA-256 over the label ``commit-reveal-v2``, the
    server seed's 32 bytes and one byte, the dealer fixed in advance (255: none).
    v1: SHA-256 of the server seed's 32 bytes alone."""
    if scheme == "commit-reveal-v1":
        return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()
    dealt_by = NO_DEALER if dealer is None else dealer
    material = scheme.encode() + bytes.fromhex(seed_hex) + bytes([dealt_by])
    return hashlib.sha256(material).hexdigest()


def game_seed(seed_hex: str, entropy: list[str | None], scheme: str = SCHEME) -> int:
    """The game's seed: SHA-256 over the scheme's label (``commit-reveal-v2``), the
    server seed's 32 bytes, then for each seat in order one byte giving the length
    of its entropy text and that text (lower-case hex, as ASCII; empty for a seat
    without any). The first 8 bytes of the digest, big-endian, with the top bit
    cleared."""
    material = bytearray(scheme.encode())
    material += bytes.fromhex(seed_hex)
    for given in entropy:
        text = (given or "").lower().encode()
        material += bytes([len(text)]) + text
    digest = hashlib.sha256(material).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)


MIX_LABEL = b"stacks-duplicate-entropy-v1"


def mixed_entropy(given: list[str | None]) -> str | None:
    """One entropy from many (a duplicate event's entries', in the order they
    entered; None when nobody gave any): SHA-256 over a label, then each given
    entropy's length and lower-case text, as 64 hex digits."""
    texts = [text.lower() for text in given if text]
    if not texts:
        return None
    material = bytearray(MIX_LABEL)
    for text in texts:
        material += bytes([len(text)]) + text.encode()
    return hashlib.sha256(material).hexdigest()

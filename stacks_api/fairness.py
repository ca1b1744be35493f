"""A deal nobody could choose (scheme ``commit-reveal-v1``, docs/fairness.md).

At creation the server draws a secret 32-byte server seed and shows only its
SHA-256, the commitment. Each person who joins may add entropy. When the table is
full, the game's seed is derived from the server seed and every seat's entropy,
and the cards are dealt from it; once the game is over the server seed and the
entropy are shown, so anyone can check the commitment and replay the deal.
"""

from __future__ import annotations

import hashlib
import re
import secrets

SCHEME = "commit-reveal-v1"
CHOSEN = "chosen"  # the creator chose the seed or the position: nothing to prove
ENTROPY = re.compile(r"^[0-9a-fA-F]{1,64}$")


def server_seed() -> str:
    """A new secret server seed, as 64 hex characters."""
    return secrets.token_hex(32)


def commitment(seed_hex: str) -> str:
    """The SHA-256 of the server seed's 32 bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def game_seed(seed_hex: str, entropy: list[str | None]) -> int:
    """The game's seed: SHA-256 over the label ``commit-reveal-v1``, the server seed's
    32 bytes, then for each seat in order one byte giving the length of its entropy
    text and that text (lower-case hex, as ASCII; empty for a seat without any). The
    first 8 bytes of the digest, big-endian, with the top bit cleared."""
    material = bytearray(SCHEME.encode())
    material += bytes.fromhex(seed_hex)
    for given in entropy:
        text = (given or "").lower().encode()
        material += bytes([len(text)]) + text
    digest = hashlib.sha256(material).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)

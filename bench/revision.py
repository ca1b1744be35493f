"""Another git revision of this repository, checked out for a side-by-side benchmark."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def checkout(revision: str) -> Iterator[Path]:
    """``revision`` in a temporary git worktree, removed again afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        other = Path(folder) / "other"
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "add", "--detach", str(other), revision], check=True,
                       capture_output=True)  # fmt: skip
        try:
            yield other
        finally:
            subprocess.run([*git, "remove", "--force", str(other)], check=True,
                           capture_output=True)  # fmt: skip

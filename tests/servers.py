"""Real server processes (gunicorn) for tests that cross process boundaries."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import requests

from .conftest import free_port


class ServerProcess:
    """``stacks_api.wsgi:app`` under gunicorn on a free port."""

    def __init__(self, env: dict[str, str], workers: int = 1) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(workers), "--worker-class", "gthread", "--threads", "8",
             "stacks_api.wsgi:app"],
            env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.url}/api/v1/health", timeout=1).status_code == 200:
                    return
            except requests.ConnectionError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def read_sse(response: requests.Response, stop_after_id: int | None = None):
    """Yield (last id, event) per SSE message; comments are yielded as (None, None)."""
    data: list[str] = []
    last_id = None
    for line in response.iter_lines(decode_unicode=True):
        if line.startswith(":"):
            yield None, None
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line.startswith("id: "):
            last_id = int(line[4:])
        elif line == "" and data:
            yield last_id, json.loads("\n".join(data))
            data = []
            if stop_after_id is not None and last_id is not None and last_id >= stop_after_id:
                return

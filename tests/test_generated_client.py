"""A client generated from openapi.yaml by openapi-python-client, as an integrator
would, drops nothing and plays whole games of both variants against the server."""

import subprocess
import sys
from pathlib import Path

from stacks_api.testing import ServerProcess

ROOT = Path(__file__).resolve().parents[1]


def test_a_generated_python_client_plays_both_games(tmp_path):
    generated = subprocess.run(
        ["openapi-python-client", "generate", "--path", str(ROOT / "openapi.yaml"),
         "--meta", "none", "--output-path", str(tmp_path / "stacks_client")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    said = generated.stdout + generated.stderr
    assert generated.returncode == 0, said
    assert "WARNING" not in said and "will not be generated" not in said, said
    server = ServerProcess({"REDIS_URL": ""})
    try:
        played = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "generated_client.py"), server.url],
            env={"PYTHONPATH": str(tmp_path), "PATH": ""}, capture_output=True, text=True,
            timeout=300, check=False,
        )  # fmt: skip
    finally:
        server.stop()
    assert played.returncode == 0, played.stdout + played.stderr
    lines = played.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["sequence", "stacks"], lines
    assert all("finished" in line for line in lines), lines

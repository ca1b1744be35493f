"""A client generated from openapi.yaml by openapi-python-client, as an integrator
would, drops nothing and plays whole games of both variants against the server."""

import shutil
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
            [sys.executable, str(ROOT / "examples" / "python_generated" / "play.py"), server.url],
            env={"PYTHONPATH": str(tmp_path), "PATH": ""}, capture_output=True, text=True,
            timeout=300, check=False,
        )  # fmt: skip
    finally:
        server.stop()
    assert played.returncode == 0, played.stdout + played.stderr
    lines = played.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["sequence", "stacks"], lines
    assert all("finished" in line for line in lines), lines


def npx(where, *args, timeout=300):
    return subprocess.run(["npx", "--no-install", *args], cwd=where, capture_output=True,
                          text=True, timeout=timeout, check=False)  # fmt: skip


def test_generated_typescript_types_play_both_games_and_the_spec_lints(tmp_path):
    """openapi-typescript's types, openapi-fetch calls, tsc --strict with no casts; then
    Redocly's lint finds no error in the document."""
    where = tmp_path / "ts"
    shutil.copytree(ROOT / "examples" / "typescript", where)
    installed = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund"], cwd=where, capture_output=True,
        text=True, timeout=600, check=False,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    spec = str(ROOT / "openapi.yaml")
    generated = npx(where, "openapi-typescript", spec, "-o", "schema.d.ts")
    said = generated.stdout + generated.stderr
    assert generated.returncode == 0 and "warn" not in said.lower(), said
    compiled = npx(where, "tsc")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    assert " as " not in (where / "play.ts").read_text(), "no casts"
    server = ServerProcess({"REDIS_URL": ""})
    try:
        played = subprocess.run(
            ["node", "out/play.js", server.url], cwd=where, capture_output=True, text=True,
            timeout=300, check=False,
        )  # fmt: skip
    finally:
        server.stop()
    lines = played.stdout.splitlines()
    assert played.returncode == 0, played.stdout + played.stderr
    assert [line.split(":")[0] for line in lines] == ["sequence", "stacks"], lines
    assert all("finished" in line for line in lines), lines
    linted = npx(where, "redocly", "lint", spec, "--format", "stylish")
    assert linted.returncode == 0 and " error " not in linted.stdout, linted.stdout

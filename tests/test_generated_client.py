"""Clients generated from openapi.yaml, as an integrator would (openapi-python-client;
openapi-typescript with openapi-fetch), drop nothing and play whole games of both
variants against the server, block windows included; every request and response of
those games is checked against the document."""

import shutil
import subprocess
import sys
from pathlib import Path

from stacks_api.testing import ServerProcess

from .spec_check import RecordingProxy, bodies, off_spec

ROOT = Path(__file__).resolve().parents[1]


def played_through_a_proxy(command, limits=None, **run):
    """Run ``command`` (given the server's URL) against a fresh server (rate limits
    off, unless ``limits`` gives settings), through a recording proxy: what it
    printed, and every exchange recorded."""
    server = ServerProcess({"REDIS_URL": "", **(limits or {})})
    proxy = RecordingProxy(server.url)
    try:
        played = subprocess.run([*command, proxy.url], capture_output=True, text=True,
                                timeout=300, check=False, **run)  # fmt: skip
    finally:
        proxy.stop()
        server.stop()
    assert played.returncode == 0, played.stdout + played.stderr
    return played.stdout.splitlines(), proxy.exchanges


def games_as_documented(lines, exchanges):
    """Both games finished, the Stacks one with block windows the player was asked in,
    and nothing sent or received outside the document."""
    assert [line.split(":")[0] for line in lines] == ["sequence", "stacks"], lines
    assert all("finished" in line for line in lines), lines
    assert " 0 block windows" not in lines[1], lines
    asked = [b for b in bodies(exchanges)
             if (b.get("block_window") or {}).get("waiting") and b.get("you")
             and b["you"]["seat"] in b["block_window"]["waiting"]]  # fmt: skip
    assert asked, "the player was never asked in a block window"
    assert len(exchanges) > 50
    wrong = off_spec(exchanges)
    assert not wrong, wrong[:10]


def generated_python_client(where: Path) -> None:
    # The generator installed beside this Python (a virtual environment that is not
    # activated has it there, not on PATH).
    beside = Path(sys.executable).parent / "openapi-python-client"
    generator = str(beside) if beside.exists() else "openapi-python-client"
    generated = subprocess.run(
        [generator, "generate", "--path", str(ROOT / "openapi.yaml"),
         "--meta", "none", "--output-path", str(where / "stacks_client")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    said = generated.stdout + generated.stderr
    assert generated.returncode == 0, said
    assert "WARNING" not in said and "will not be generated" not in said, said


def test_the_generated_python_example_waits_out_rate_limits(tmp_path):
    """On a server whose action limit is tight, the example waits each refusal's
    Retry-After instead of hammering: a few refusals, and both games end."""
    generated_python_client(tmp_path)
    tight = {"STACKS_RATE_LIMITS": "on", "STACKS_LIMIT_ACT": "4/second",
             "STACKS_LIMIT_CREATE": "2/second", "STACKS_LIMIT_JOIN": "2/second"}  # fmt: skip
    lines, exchanges = played_through_a_proxy(
        [sys.executable, str(ROOT / "examples" / "python_generated" / "play.py")],
        limits=tight, env={"PYTHONPATH": str(tmp_path), "PATH": ""},
    )  # fmt: skip
    assert all("finished" in line for line in lines), lines
    refused = [e for e in exchanges if e.status == 429]
    played = [e for e in exchanges if e.method == "POST" and e.path.endswith("/actions")
              and e.status == 200]  # fmt: skip
    assert refused, "the limit was met (else this checks nothing)"
    # Waiting out each refusal, at most one refusal per accepted action; a client
    # that sends again at once is refused many times for each.
    assert len(refused) <= len(played), (len(refused), len(played))


def test_a_generated_python_client_plays_both_games(tmp_path):
    generated_python_client(tmp_path)
    lines, exchanges = played_through_a_proxy(
        [sys.executable, str(ROOT / "examples" / "python_generated" / "play.py")],
        env={"PYTHONPATH": str(tmp_path), "PATH": ""},
    )
    games_as_documented(lines, exchanges)


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
    lines, exchanges = played_through_a_proxy(["node", "out/play.js"], cwd=where)
    games_as_documented(lines, exchanges)
    linted = npx(where, "redocly", "lint", spec, "--format", "stylish")
    assert linted.returncode == 0 and " error " not in linted.stdout, linted.stdout

"""Lint, format and strict typing are part of the suite, so CI enforces them."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_lint_and_format():
    lint = run(sys.executable, "-m", "ruff", "check", ".")
    assert lint.returncode == 0, lint.stdout
    fmt = run(sys.executable, "-m", "ruff", "format", "--check", ".")
    assert fmt.returncode == 0, fmt.stdout


def test_mypy():
    result = run(sys.executable, "-m", "mypy", "stacks_api")
    assert result.returncode == 0, result.stdout


# The product's own name (the default Redis key prefix), not the Stacks variant's.
PRODUCT_NAME = {
    ("runtime/config.py", "stacks"),
    ("store/keys.py", "stacks"),
    ("store/redis.py", "stacks"),
}


def test_no_variant_is_named_outside_the_variant_packages():
    """Service, store, API, CLI and bots find variants in the registry: no string equal to
    a variant's name, and no name in the code that contains one."""
    from stacks_api import variants

    names = set(variants.names())
    package = ROOT / "stacks_api"
    found = []
    for path in package.rglob("*.py"):
        where = path.relative_to(package).as_posix()
        if where.startswith("variants/"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            text = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value if node.value.lower() in names else None
            elif isinstance(node, ast.Name | ast.FunctionDef | ast.ClassDef | ast.arg):
                label = getattr(node, "id", None) or getattr(node, "name", None) or node.arg
                text = label if any(n in label.lower() for n in names) else None
            if text is not None and (where, text) not in PRODUCT_NAME:
                found.append(f"{where}:{node.lineno}: {text}")
    assert not found, found

"""The documentation says what the code does: event types and error codes match in
both directions, and no link leaves the repository."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from stacks_api import variants
from stacks_api.model import codes
from stacks_api.service import play

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "stacks_api"
API_DOC = (ROOT / "docs" / "api.md").read_text()


def section(text: str, heading: str) -> str:
    """The body of a ``## heading`` section, up to the next ``## ``."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def documented(heading: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, section(API_DOC, heading), flags=re.MULTILINE))


def literal_calls(name: str, position: int) -> set[str]:
    """String constants passed as argument ``position`` to calls of ``name`` in the package."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == name
                and len(node.args) > position
                and isinstance(node.args[position], ast.Constant)
                and isinstance(node.args[position].value, str)
            ):
                found.add(node.args[position].value)
    return found


RULES_MODULES = {"bot.py", "schemas.py", "__init__.py"}  # the rest of a variant package


def rules_modules(variant: str) -> list[Path]:
    return [p for p in (PACKAGE / "variants" / variant).glob("*.py") if p.name not in RULES_MODULES]


def event_types_in_code(*paths: Path) -> set[str]:
    """Every ``{"type": ...}`` literal of ``paths`` (default: the engine, every variant's
    rules and the service; prebuilt actions use types that are event types too)."""
    found = set()
    rules = [p for name in variants.names() for p in rules_modules(name)]
    for path in paths or [*PACKAGE.glob("service/*.py"), *PACKAGE.glob("rules/*.py"), *rules]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value == "type"
                        and isinstance(value, ast.Constant)
                    ):
                        found.add(value.value)
    return found


def refusal_codes_raised() -> set[str]:
    """Every code the package raises a Refusal with, or maps a status or engine code to."""
    raised = literal_calls("Refusal", 0) | {"validation_error"}
    return raised | set(codes.BY_STATUS.values()) | set(play.ENGINE_CODES.values())


def test_every_documented_event_type_is_produced_and_every_produced_one_documented():
    docs = documented("Events", r"^\| `(\w+)` \|")
    assert docs == event_types_in_code()


@pytest.mark.parametrize("name", variants.names())
def test_each_variant_documents_the_events_its_rules_produce(name):
    variant = variants.get(name)
    assert set(variant.events) == event_types_in_code(*rules_modules(name))


def test_the_documented_errors_are_the_table_and_every_raised_code_is_in_it():
    rows = re.findall(r"^\| (\d{3}) \| `(\w+)` \|", section(API_DOC, "Errors"), re.MULTILINE)
    assert {code: int(status) for status, code in rows} == {
        code: status for code, (status, _) in codes.CODES.items()
    }
    assert refusal_codes_raised() <= set(codes.CODES)


def test_no_link_leaves_the_repository():
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        text = path.read_text()
        assert "../shared" not in text, path
        for target in re.findall(r"\]\(([^)]+)\)", text):
            assert not re.match(r"[a-z]+:", target), f"{path.name} links outside: {target}"
            if not target.startswith("#"):
                assert (path.parent / target.split("#")[0]).exists(), f"{path.name}: {target}"

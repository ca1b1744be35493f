"""constraints.txt pins the tests' tools; it must agree with pyproject.toml (refresh
it with ``bash .ci/lock``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def pins() -> dict[str, Version]:
    found = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        name, separator, version = line.partition("==")
        assert separator and version, f"not an exact pin: {line!r}"
        found[canonicalize_name(name)] = Version(version)
    return found


def required() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(text) for text in [*project["dependencies"],
                                           *project["optional-dependencies"]["test"]]]  # fmt: skip


def test_every_requirement_is_pinned_inside_its_range():
    locked = pins()
    wrong = []
    for requirement in required():
        pinned = locked.get(canonicalize_name(requirement.name))
        if pinned is None:
            wrong.append(f"{requirement.name} is not pinned")
        elif not requirement.specifier.contains(pinned, prereleases=True):
            wrong.append(f"{requirement.name}=={pinned} is outside {requirement.specifier}")
        for extra in requirement.extras:  # psycopg[binary] needs psycopg-binary pinned too
            if canonicalize_name(f"{requirement.name}-{extra}") not in locked:
                wrong.append(f"{requirement.name}[{extra}] is not pinned")
    assert not wrong, "run 'bash .ci/lock': " + "; ".join(wrong)


def test_the_readme_and_ci_install_the_pinned_set():
    command = "pip install -c constraints.txt -e '.[test]' && python -m pytest"
    assert command in (ROOT / "README.md").read_text()
    assert command.replace("pip install", "pip install -q") in (ROOT / ".ci" / "run").read_text()

"""The house's walls (docs/architecture.md): every module lives in a room this test
knows, each room imports only the rooms below it, nothing imports in a circle, and
no module grows past 400 lines. A module in no known room fails the suite, so a
new one is placed on purpose."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "stacks_api"

# The package's entry points, at its top: they put the rooms together and may
# import any of them (``client`` is the exception: it imports nothing of the server).
ENTRY_POINTS = {"app", "cli", "wsgi", "client"}
BELOW_THE_SERVICE = {"model", "rules", "variants", "engine", "bots", "competition", "store",
                     "outbound", "runtime"}  # fmt: skip
# Each room, and the rooms it may import.
ROOMS: dict[str, set[str]] = {
    "model": set(),
    "rules": set(),
    "outbound": set(),
    "runtime": {"model"},
    "variants": {"rules", "model"},
    "engine": {"rules", "variants", "model"},
    "bots": {"rules", "variants", "engine", "model"},
    # Bot matches may be played through any server's API, with the public client.
    "competition": {"model", "rules", "variants", "engine", "bots", "client"},
    "store": {"model"},
    # The archive implements the service's ports; its failures are the store's 503.
    "archive": {"model", "store", "competition"},
    "service": BELOW_THE_SERVICE,
    "workers": {"service", "model", "runtime"},
    "web": {"runtime"},
    "api": {"service", "model", "variants", "engine", "bots", "runtime", "web"},
    # Beside the entry points: they put parts together (and check names as the API does).
    "commands": BELOW_THE_SERVICE | {"archive", "api"},
    # Throwaway Redis and PostgreSQL servers, and what tests read of the store.
    "testing": {"model", "store", "runtime"},
}
# Of the store, the service sees only its interface (``store/__init__.py``).
STORE_INTERFACE = "stacks_api.store"
LONGEST = 400  # lines a module may have


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room_of(module: str) -> str | None:
    """The room of a module: the package part after ``stacks_api`` (None: the package)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def imports(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import of the package in ``path``, the
    modules a ``from X import a`` names when ``a`` is a module itself."""
    here = module_name(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            for alias in node.names:
                named = f"{module}.{alias.name}"
                is_module = (root.parent / named.replace(".", "/")).with_suffix(".py").exists() or (
                    root.parent / named.replace(".", "/") / "__init__.py").exists()  # fmt: skip
                found.append((node.lineno, named if is_module else module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] == root.name]


def walls(root: Path = PACKAGE) -> list[str]:
    """Every breach of the rules in the module's text, one line each."""
    wrong = []
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        room = room_of(module)
        where = path.relative_to(root)
        if len(path.read_text().splitlines()) > LONGEST:
            wrong.append(f"{where} is longer than {LONGEST} lines: split it")
        if room is None:
            continue  # the package's own __init__
        top_level = path.parent == root and path.name != "__init__.py"
        if top_level and room not in ENTRY_POINTS:
            wrong.append(f"{where} is in no room: put it in one (ROOMS) or name it an entry point")
            continue
        if not top_level and room not in ROOMS:
            wrong.append(f"{where} is in a room this test does not know: add it to ROOMS")
            continue
        graph[module] = set()
        for line, name in imports(path, root):
            graph[module].add(name)
            target = room_of(name)
            if target is None or target == room:
                continue
            allowed = set() if room == "client" else ROOMS.get(room)
            if allowed is not None and target not in allowed:
                wrong.append(f"{where}:{line} ({room}) imports {name}")
            elif target == "store" and room == "service" and name != STORE_INTERFACE:
                wrong.append(f"{where}:{line} reaches past the store's interface: {name}")
    wrong += [f"an import circle: {' -> '.join(circle)}" for circle in circles(graph)]
    return wrong


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles among modules (strongly connected parts of more than one,
    found with Tarjan's algorithm). A package imports its own ``__init__`` freely:
    an edge from a module to the package it is in is not followed."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def edges(module: str) -> list[str]:
        return [t for t in graph.get(module, ()) if t in graph and not module.startswith(t + ".")]

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in edges(module):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            part = []
            while (top := stack.pop()) != module:
                part.append(top)
            part.append(module)
            if len(part) > 1:
                found.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_walls_hold():
    wrong = walls()
    assert not wrong, "\n".join(wrong)


def test_a_module_in_no_room_or_an_import_against_the_walls_fails(tmp_path):
    copy = tmp_path / "stacks_api"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "static"))
    (copy / "helpers.py").write_text("X = 1\n")
    (copy / "model" / "shortcut.py").write_text("from ..service import GameService\n")
    (copy / "attic").mkdir()
    (copy / "attic" / "__init__.py").write_text("")
    (copy / "rules" / "loop_a.py").write_text("from . import loop_b\n")
    (copy / "rules" / "loop_b.py").write_text("from . import loop_a\n")
    wrong = walls(copy)
    assert any(w.startswith("helpers.py is in no room") for w in wrong), wrong
    assert any(w.startswith("model/shortcut.py:1 (model) imports") for w in wrong), wrong
    assert any(
        w.startswith("attic/__init__.py is in a room this test does not know") for w in wrong
    )
    assert "an import circle: stacks_api.rules.loop_a -> stacks_api.rules.loop_b" in wrong
    assert len(wrong) == 4, wrong


def test_only_the_service_and_the_composition_roots_see_the_store():
    users = set()
    for path in PACKAGE.rglob("*.py"):
        for _, name in imports(path, PACKAGE):
            if room_of(name) == "store":
                users.add(room_of(module_name(path, PACKAGE)))
    assert users <= {"store", "service", "archive", "commands", "testing", *ENTRY_POINTS}, users

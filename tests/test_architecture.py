"""The arrows between the package's layers point one way (docs/architecture.md): each
layer imports only the layers below it, so the house stays tidy as it grows."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "stacks_api"

# Each part of the package, and the parts it may import. Anything not named here
# (app.py, admin.py, cli.py, testing.py, tournament.py) is a composition root and may import
# anything.
SERVICE_NEEDS = {
    "rules",
    "variants",
    "engine",
    "bots",
    "record",
    "store",
    "problems",
    "tokens",
    "fairness",
}
MAY_IMPORT = {
    "rules": set(),
    "record": set(),
    "problems": set(),
    "tokens": set(),
    "offload": set(),
    "ttl_cache": set(),
    "config": set(),
    "fairness": set(),
    "metrics": set(),
    "logs": set(),
    "outbound": set(),
    "model": set(),
    "outcomes": set(),
    "swiss": set(),
    "arena": {"swiss"},
    "ratings": {"record", "outcomes"},
    "variants": {"rules", "record", "fairness"},
    "engine": {"rules", "variants"},
    "bots": {"rules", "variants", "engine"},
    "store": {"record"},
    # The archive implements the service's ports; its failures are the store's 503.
    "archive": {"record", "model", "store", "problems", "tokens", "ratings"},
    "service": SERVICE_NEEDS
    | {"model", "offload", "metrics", "outbound", "outcomes", "swiss", "arena", "ttl_cache"},
    "workers": {"service"},
    "api": {
        "offload",
        "variants",
        "engine",
        "bots",
        "record",
        "service",
        "problems",
        "ttl_cache",
        "config",
        "fairness",
        "headers",
        "metrics",
        "logs",
    },
    "headers": set(),
    "web": {"headers"},
    "client": set(),
}
# Of the store, the service sees only its interface (``store/__init__.py``), never a
# backend or its keys.
STORE_INTERFACE = "stacks_api.store"


def part_of(module: str) -> str | None:
    """The part a dotted module name of the package belongs to."""
    parts = module.split(".")
    return parts[1] if parts[0] == "stacks_api" and len(parts) > 1 else None


def imports(path: Path, root: Path = PACKAGE) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import of the package in ``path``."""
    here = ["stacks_api", *path.relative_to(root).with_suffix("").parts]
    if here[-1] == "__init__":
        here = here[:-1]
        package = here
    else:
        package = here[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            if node.module is None:  # from . import a, b
                found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return [(line, name) for line, name in found if name.startswith("stacks_api")]


def test_every_import_points_down():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = part_of(".".join(["stacks_api", *path.relative_to(PACKAGE).with_suffix("").parts]))
        if own not in MAY_IMPORT:
            continue
        for line, name in imports(path):
            target = part_of(name)
            if target is None or target == own:
                continue
            if target not in MAY_IMPORT[own]:
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} ({own}) imports {name}")
            elif target == "store" and name != STORE_INTERFACE:
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} reaches past the store's "
                             f"interface: {name}")  # fmt: skip
    assert not wrong, "\n".join(wrong)


def test_only_the_service_and_the_composition_roots_see_the_store():
    users = set()
    for path in PACKAGE.rglob("*.py"):
        for _, name in imports(path):
            if part_of(name) == "store":
                users.add(path.relative_to(PACKAGE).parts[0].removesuffix(".py"))
    assert users <= {"store", "service", "app", "admin", "testing", "archive"}, users


def test_the_archive_takes_only_the_stores_unavailable_from_it():
    """The archive's failure is a 503 like the store's; it reads nothing else there."""
    archive = PACKAGE / "archive"
    for path in archive.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "store":
                assert [a.name for a in node.names] == ["StoreUnavailable"], path


def test_the_check_reads_relative_imports_as_they_resolve(tmp_path):
    """A variant module importing the API is seen as such (so the test above can fail)."""
    fake = tmp_path / "stacks_api"
    (fake / "variants" / "toy").mkdir(parents=True)
    (fake / "variants" / "toy" / "bad.py").write_text(
        "from ...api import schemas\nfrom .. import kit\nfrom . import rules\n"
    )
    found = imports(fake / "variants" / "toy" / "bad.py", root=fake)
    assert found == [(1, "stacks_api.api"), (2, "stacks_api.variants.kit"),
                     (3, "stacks_api.variants.toy.rules")]  # fmt: skip
    assert part_of(found[0][1]) not in MAY_IMPORT["variants"]


LONGEST_MODULE = 400


def test_every_module_can_be_read_at_a_sitting():
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text().splitlines())) > LONGEST_MODULE
    }
    assert not long, long

"""Every route says which scope a token needs for it, and docs/api.md says the same."""

from __future__ import annotations

import re
from pathlib import Path

from stacks_api.api.scopes import CHECKED, NEEDED
from stacks_api.model.scopes import ACCOUNT

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
KEY_ONLY = "/api/v1/players/me/"  # the account's own routes: player keys alone


def test_every_route_a_token_may_call_is_in_the_table(app):
    routes = {(method, rule.rule) for rule in app.url_map.iter_rules()
              for method in rule.methods - {"HEAD", "OPTIONS"}
              if rule.rule.startswith(CHECKED)}  # fmt: skip
    unplaced = {r for r in routes - set(NEEDED) if not r[1].startswith(KEY_ONLY)}
    assert not unplaced, f"place these in stacks_api/api/scopes.py: {sorted(unplaced)}"
    assert set(NEEDED) <= routes, f"no such routes: {sorted(set(NEEDED) - routes)}"


def test_the_documented_scope_table_is_the_code_s():
    section = API_DOC.read_text().split("## Other apps: OAuth, scopes and bot accounts")[1]
    rows = re.findall(r"^\| `(\w+) ([^`]+)` \| (.+) \|$", section.split("\n## ")[0], re.M)
    documented = {(m, path): tuple(re.findall(r"`(\w+)`", needs)) for m, path, needs in rows}
    expected = {
        (m, re.sub(r"<(?:int:)?(\w+)>", r"{\1}", path)): (n,) if isinstance(n, str) else n
        for (m, path), n in NEEDED.items()
        if n is not None and n != ACCOUNT
    }
    assert documented == expected

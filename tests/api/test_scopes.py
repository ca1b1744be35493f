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


def test_head_and_options_pass_the_checks_get_passes(make_app):
    """HEAD and OPTIONS read what GET reads: a token is refused them wherever it is
    refused a GET (on the in-memory store alone: scopes are the same on every one)."""
    from .test_oauth import account, token_for

    client = make_app().test_client()
    key = account(client)
    reading = token_for(client, key, "read")
    bearer = {"Authorization": f"Bearer {reading}"}
    readable = sorted(rule.rule for rule in client.application.url_map.iter_rules()
                      if rule.rule.startswith(KEY_ONLY[:-1]) and "GET" in rule.methods
                      and "<" not in rule.rule)  # fmt: skip
    assert "/api/v1/players/me/keys" in readable and "/api/v1/players/me/export" in readable
    for path in readable:
        got = client.get(path, headers=bearer).status_code
        head = client.head(path, headers=bearer)
        assert head.status_code == got, (path, head.status_code, got)
        options = client.options(path, headers=bearer).status_code
        assert (options == 403) == (got == 403), (path, options, got)
    refused = client.head("/api/v1/players/me/keys", headers=bearer)
    assert refused.status_code == 403 and refused.content_type == "application/problem+json"

"""Other apps act for an account: OAuth 2 with PKCE, scopes, personal tokens,
connected apps and their revocation; on the embedded store with SQLite and on
Redis with PostgreSQL."""

from __future__ import annotations

import base64
import hashlib
import http.server
import logging
import secrets
import threading
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests

from stacks_api.client import Client
from stacks_api.testing import ServerProcess

from . import test_archive
from .helpers import API, act, bearer, create, problem, view

PLAYERS = "/api/v1/players"
ME = f"{PLAYERS}/me"
APP = "http://127.0.0.1:8765/"
BACK = "http://127.0.0.1:8765/back"
# The archive's app and client: the embedded store with SQLite, Redis with PostgreSQL.
app, client = test_archive.app, test_archive.client


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def account(client: Any, name: str = "Ada") -> str:
    return str(client.post(PLAYERS, json={"name": name}).json["key"])


def asked(challenge: str, **changed: str) -> dict[str, str]:
    """An authorization request's parameters."""
    return {"response_type": "code", "client_id": APP, "redirect_uri": BACK,
            "code_challenge": challenge, "code_challenge_method": "S256",
            "scope": "play read", "state": "s-1", **changed}  # fmt: skip


def answer_of(location: str) -> dict[str, str]:
    parts = urlsplit(location)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == BACK
    return {k: v[0] for k, v in parse_qs(parts.query).items()}


def approved(client: Any, key: str, challenge: str, **changed: str) -> str:
    """The code the consent hands the app (the person approved with their key)."""
    sent = client.post("/oauth/authorize", data=asked(challenge, **changed), headers=bearer(key))
    assert sent.status_code == 303, sent.json
    told = answer_of(sent.headers["Location"])
    assert told["state"] == "s-1" and "error" not in told, told
    return told["code"]


def exchange(client: Any, code: str, verifier: str, **changed: str) -> Any:
    form = {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
            "redirect_uri": BACK, "client_id": APP, **changed}  # fmt: skip
    return client.post("/oauth/token", data=form)


def token_for(client: Any, key: str, scope: str = "play read") -> str:
    verifier, challenge = pkce()
    got = exchange(client, approved(client, key, challenge, scope=scope), verifier)
    assert got.status_code == 200, got.json
    assert got.headers["Cache-Control"] == "no-store"
    assert got.json["token_type"] == "Bearer" and got.json["scope"] == scope
    return str(got.json["access_token"])


def test_a_play_token_from_the_flow_plays_and_a_read_token_may_not(client, caplog):
    caplog.set_level(logging.DEBUG)
    key = account(client)
    page = client.get("/oauth/authorize", query_string=asked(pkce()[1]))
    assert page.status_code == 200 and b"<!doctype html>" in page.data
    assert page.headers["Cache-Control"] == "no-store"
    assert page.headers["X-Frame-Options"] == "DENY"
    playing = token_for(client, key)
    game_id = create(client, variant="sequence", players=2, seats=[{}, {"bot": "random"}])["game"][
        "id"
    ]
    joined = client.post(f"{API}/{game_id}/players", json={}, headers=bearer(playing))
    assert joined.status_code == 201, joined.json
    for _ in range(400):  # the whole game, with the app's token alone
        seen = view(client, game_id, playing)
        if seen["status"] != "active":
            break
        assert act(client, game_id, playing, seen["you"]["legal_actions"][0]).status_code == 200
    assert seen["status"] == "finished"
    reading = token_for(client, key, "read")
    assert client.get(ME, headers=bearer(reading)).json["name"] == "Ada"
    other = create(client, variant="sequence", players=2)["game"]["id"]
    refused = problem(client.post(f"{API}/{other}/players", json={}, headers=bearer(reading)),
                      403, "missing_scope")  # fmt: skip
    assert "play" in refused["detail"]
    for secret in (playing, reading):  # nothing of a token reaches a log line
        assert secret not in caplog.text and secret.split("_", 2)[2] not in caplog.text


def test_each_faulty_request_is_refused(client):
    key = account(client)
    verifier, challenge = pkce()
    redirected = {  # faults the app hears at its redirect URI
        "unsupported_response_type": {"response_type": "token"},
        "invalid_request": {"code_challenge_method": "plain"},
        "invalid_scope": {"scope": "play everything"},
    }
    for error, changed in redirected.items():
        for method in ("GET", "POST"):
            sent = client.open("/oauth/authorize", method=method, headers=bearer(key),
                               **({"query_string": asked(challenge, **changed)} if method == "GET"
                                  else {"data": asked(challenge, **changed)}))  # fmt: skip
            assert sent.status_code == 303, (error, method)
            assert answer_of(sent.headers["Location"])["error"] == error
    no_challenge = {k: v for k, v in asked(challenge).items() if k != "code_challenge"}
    told = answer_of(client.get("/oauth/authorize", query_string=no_challenge).headers["Location"])
    assert told["error"] == "invalid_request"
    untrusted = {  # faults shown to the person: the redirect cannot be trusted
        "http://example.com/back": "invalid_request",  # http off the loopback
        "https://elsewhere.example/back": None,  # fine for a named app...
    }
    for uri, code in untrusted.items():
        sent = client.get("/oauth/authorize", query_string=asked(challenge, redirect_uri=uri))
        if code is None:
            assert sent.status_code == 200
        else:
            problem(sent, 400, code)
    off_host = asked(challenge, client_id="https://app.example/", redirect_uri="https://x.example/")
    problem(client.get("/oauth/authorize", query_string=off_host), 400, "invalid_request")
    # A person's browser asks for HTML: the page (which tells them in their language).
    page = client.get("/oauth/authorize", query_string=off_host,
                      headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})  # fmt: skip
    assert page.status_code == 400 and page.content_type.startswith("text/html")
    # An app on the person's own machine may name its site and listen on a loopback
    # address (docs/api.md says so).
    native = asked(
        challenge, client_id="https://app.example/", redirect_uri="http://127.0.0.1:9/cb"
    )
    assert client.get("/oauth/authorize", query_string=native).status_code == 200
    problem(client.get("/oauth/authorize", query_string=asked(challenge, client_id="")), 400,
            "invalid_client")  # fmt: skip
    denied = client.post("/oauth/authorize", data={**asked(challenge), "decision": "deny"},
                         headers=bearer(key))  # fmt: skip
    assert answer_of(denied.headers["Location"])["error"] == "access_denied"
    problem(client.post("/oauth/authorize", data=asked(challenge)), 401, "unauthorized")
    code = approved(client, key, challenge)
    problem(exchange(client, code, pkce()[0]), 400, "invalid_grant")  # a wrong verifier...
    body = problem(exchange(client, code, verifier), 400, "invalid_grant")  # ...spent the code
    assert body["error"] == "invalid_grant" and body["error_description"]
    problem(exchange(client, approved(client, key, challenge), verifier, grant_type="password"),
            400, "unsupported_grant_type")  # fmt: skip
    problem(exchange(client, approved(client, key, challenge), "short"), 400, "invalid_request")
    fresh = approved(client, key, challenge)
    problem(exchange(client, fresh, verifier, redirect_uri=f"{BACK}2"), 400, "invalid_grant")
    problem(exchange(client, "nonsense", verifier), 400, "invalid_grant")


def test_a_code_used_twice_revokes_what_it_gave(client):
    key = account(client)
    verifier, challenge = pkce()
    code = approved(client, key, challenge)
    token = exchange(client, code, verifier).json["access_token"]
    assert client.get(ME, headers=bearer(token)).status_code == 200
    problem(exchange(client, code, verifier), 400, "invalid_grant")
    problem(client.get(ME, headers=bearer(token)), 401, "unauthorized")


def test_tokens_never_touch_the_account_and_a_key_lists_and_revokes_them(client):
    key = account(client)
    made = client.post(f"{ME}/tokens", json={"label": "script", "scopes": ["play", "read"]},
                       headers=bearer(key))  # fmt: skip
    assert made.status_code == 201 and made.json["token"].startswith("stp_")
    personal = made.json["token"]
    app_token = token_for(client, key)
    account_only = [
        ("POST", f"{ME}/tokens", {"label": "x", "scopes": ["read"]}),
        ("POST", f"{ME}/keys", {"label": "x"}),
        ("GET", f"{ME}/apps", None),
        ("DELETE", ME, None),
        ("POST", "/oauth/authorize", None),
    ]
    for token in (personal, app_token):
        for method, path, body in account_only:
            refused = problem(client.open(path, method=method, json=body, headers=bearer(token)),
                              403, "missing_scope")  # fmt: skip
            # No scope "account" to ask for: it is the key's alone (docs/api.md).
            assert "scope account" not in refused["detail"], refused["detail"]
            assert "player key" in refused["detail"], refused["detail"]
    apps = client.get(f"{ME}/apps", headers=bearer(key)).json["apps"]
    assert {(a["kind"], a["app"]) for a in apps} == {("personal", "script"), ("oauth", APP)}
    assert all(a["last_used_at"] is not None for a in apps)  # each was used just now
    for entry in apps:
        assert client.delete(f"{ME}/apps/{entry['id']}", headers=bearer(key)).status_code == 204
    for token in (personal, app_token):  # refused on their very next request
        problem(client.get(ME, headers=bearer(token)), 401, "unauthorized")
    problem(client.delete(f"{ME}/apps/{apps[0]['id']}", headers=bearer(key)), 404, "not_found")
    problem(client.post(f"{ME}/tokens", json={"label": "x", "scopes": ["bot"]},
                        headers=bearer(key)), 422, "validation_error")  # fmt: skip
    problem(client.post(f"{ME}/tokens", json={"label": "x", "scopes": []}, headers=bearer(key)),
            422, "validation_error")  # fmt: skip
    revoked = token_for(client, key)
    assert client.post("/oauth/revoke", data={"token": revoked}).status_code == 200
    assert client.post("/oauth/revoke", data={"token": "sta_nothing_here"}).status_code == 200
    problem(client.get(ME, headers=bearer(revoked)), 401, "unauthorized")


def test_a_request_reads_its_token_s_grant_once(app, client, monkeypatch):
    """The scope check and the route share one lookup; the next request looks again."""
    key = account(client)
    personal = client.post(f"{ME}/tokens", json={"label": "script", "scopes": ["play", "read"]},
                           headers=bearer(key)).json["token"]  # fmt: skip
    game_id = create(client, variant="sequence", players=2)["game"]["id"]
    grants = app.extensions["stacks_api.games"].table.archive.grants
    looked_up, holder = [], grants.holder
    monkeypatch.setattr(grants, "holder", lambda token: looked_up.append(token) or holder(token))
    joined = client.post(f"{API}/{game_id}/players", json={"name": "Ada"},
                         headers=bearer(personal))  # fmt: skip
    assert joined.status_code == 201, joined.json
    assert looked_up == [personal]
    assert client.get(ME, headers=bearer(personal)).status_code == 200
    assert looked_up == [personal, personal]


def test_a_revocation_reaches_every_server_process_at_once(app, make_app):
    """Two apps over the same stores stand for two workers: a token revoked through
    one is refused by the other on its very next request."""
    other = make_app(**{k: app.config[k] for k in ("REDIS_URL", "STORE_PREFIX", "DATABASE_URL")
                        if app.config.get(k)})  # fmt: skip
    first, second = app.test_client(), other.test_client()
    key = account(first)
    token = token_for(first, key)
    assert second.get(ME, headers=bearer(token)).status_code == 200
    grant = first.get(f"{ME}/apps", headers=bearer(key)).json["apps"][0]["id"]
    assert first.delete(f"{ME}/apps/{grant}", headers=bearer(key)).status_code == 204
    problem(second.get(ME, headers=bearer(token)), 401, "unauthorized")


def test_an_app_on_the_loopback_gets_a_token_over_http_and_plays_a_game(redis_url, tmp_path):
    """The whole flow over real HTTP: the browser's steps (the consent approved with
    the person's key, the redirect followed) and the app's (a loopback server that
    receives the code, the exchange), then a whole game with the token."""
    received: list[str] = []

    class Back(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            received.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"you may close this page")

        def log_message(self, *args: Any) -> None:
            pass

    receiver = http.server.HTTPServer(("127.0.0.1", 0), Back)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    back = f"http://127.0.0.1:{receiver.server_port}/back"
    server = ServerProcess({"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": "oauth-http",
                            "DATABASE_URL": f"sqlite:///{tmp_path}/archive.sqlite3"})  # fmt: skip
    try:
        key = requests.post(f"{server.url}{PLAYERS}", json={"name": "Ada"}, timeout=10).json()[
            "key"
        ]
        verifier, challenge = pkce()
        request = asked(challenge, client_id="Ada's phone app", redirect_uri=back)
        page = requests.get(f"{server.url}/oauth/authorize", params=request, timeout=10)
        assert page.status_code == 200 and "text/html" in page.headers["Content-Type"]
        browser = requests.post(f"{server.url}/oauth/authorize", data=request, timeout=10,
                                headers=bearer(key))  # the redirect is followed  # fmt: skip
        assert browser.status_code == 200 and browser.history[0].status_code == 303
        told = parse_qs(urlsplit(received[0]).query)
        assert told["state"] == ["s-1"]
        form = {
            "grant_type": "authorization_code",
            "code": told["code"][0],
            "code_verifier": verifier,
            "redirect_uri": back,
            "client_id": "Ada's phone app",
        }
        token = requests.post(f"{server.url}/oauth/token", data=form, timeout=10).json()
        app = Client(server.url)
        game = app.create("sequence", 2, seats=[{}, {"bot": "random"}])
        base = f"{server.url}{API}/{game['id']}"
        auth = bearer(token["access_token"])
        assert requests.post(f"{base}/players", json={}, headers=auth, timeout=10).ok
        for _ in range(400):
            seen = requests.get(base, headers={**auth, "Prefer": "wait=5"}, timeout=15).json()
            if seen["status"] != "active":
                break
            action = seen["you"]["legal_actions"][0]
            moved = requests.post(f"{base}/actions", json=action, headers=auth, timeout=15)
            assert moved.status_code == 200, moved.text
        assert seen["status"] == "finished"
    finally:
        server.stop()
        receiver.shutdown()


def test_a_revocation_closes_the_streams_its_token_and_its_key_opened(client):
    """An app's game and account streams, and a second key's account stream, end once
    the app's access and the key are revoked (they stayed open for minutes)."""
    key = account(client)
    token = token_for(client, key)
    other_key = client.post(f"{ME}/keys", json={"label": "tablet"}, headers=bearer(key)).json
    game_id = create(client, variant="sequence", players=2,
                     seats=[{}, {"bot": "random"}])["game"]["id"]  # fmt: skip
    assert (
        client.post(f"{API}/{game_id}/players", json={}, headers=bearer(token)).status_code == 201
    )
    streaming = {"Accept": "text/event-stream"}
    asked = {
        "game, app token": (f"{API}/{game_id}/events?after=0", token),
        "account, app token": (f"{ME}/events", token),
        "account, second key": (f"{ME}/events", other_key["key"]),
    }
    opened: dict[str, int] = {}
    ended: set[str] = set()

    def read(name: str, path: str, credential: str) -> None:
        # Opened and read on one thread: a streamed response keeps the request's
        # context on the thread that made it.
        response = client.get(path, buffered=False, headers={**bearer(credential), **streaming})
        opened[name] = response.status_code
        for _ in response.response:  # until the server ends the stream
            pass
        ended.add(name)

    for name, (path, credential) in asked.items():
        threading.Thread(target=read, args=(name, path, credential), daemon=True).start()
    wait_until(lambda: len(opened) == len(asked))
    assert set(opened.values()) == {200}
    grant = client.get(f"{ME}/apps", headers=bearer(key)).json["apps"][0]["id"]
    assert client.delete(f"{ME}/apps/{grant}", headers=bearer(key)).status_code == 204
    keys = client.get(f"{ME}/keys", headers=bearer(key)).json["keys"]
    tablet = next(k["id"] for k in keys if k["label"] == "tablet")
    assert client.delete(f"{ME}/keys/{tablet}", headers=bearer(key)).status_code == 204
    wait_until(lambda: ended == set(asked))  # a bound for a broken run, not a timing
    still = client.get(f"{ME}/events", buffered=False, headers={**bearer(key), **streaming})
    assert still.status_code == 200, "the account's own key still streams"
    still.close()


def wait_until(check: Any, bound_s: float = 60) -> None:
    deadline = time.monotonic() + bound_s
    while not check():
        assert time.monotonic() < deadline, f"still not so after {bound_s} s"
        time.sleep(0.05)

"""Other apps in the browser: the consent page names the app and each scope in the
person's language, its Approve sends the browser to the app with a code, and the
settings page lists the app and revokes it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests

from ..api.test_oauth import pkce
from .conftest import DESKTOP, PHONE, choose_language, shoot
from .test_ratings import account


@pytest.mark.parametrize(("viewport", "language"), [(DESKTOP, "en"), (PHONE, "ro")],
                         ids=["desktop-en", "phone-ro"])  # fmt: skip
def test_the_consent_page_approves_and_the_settings_page_revokes(
    server, open_page, viewport, language
):
    page = open_page(f"{server.url}/play", viewport)
    choose_language(page, language)
    key = account(page, "Ada")
    verifier, code_challenge = pkce()
    back = f"{server.url}/play?from=app"  # an app's page (any loopback http address)
    asked = {"response_type": "code", "client_id": "Ada's score keeper", "redirect_uri": back,
             "code_challenge": code_challenge, "code_challenge_method": "S256",
             "scope": "play read", "state": "s-9"}  # fmt: skip
    page.goto(f"{server.url}/oauth/authorize?{urlencode(asked)}")
    page.wait_for_selector("[data-consent]")
    text = page.text_content("[data-consent]") or ""
    assert "Ada's score keeper" in text
    # A loopback address: the code stays on the person's machine, and the page says so.
    device = {"en": "stays on this device", "ro": "rămâne pe acest dispozitiv"}[language]
    assert device in page.text_content("[data-consent-where]")
    assert page.locator("[data-scope]").count() == 2
    assert all(len(item) > 12 for item in page.locator("[data-scope]").all_text_contents())
    shoot(page, f"consent-{language}")
    page.click("[data-approve]")
    page.wait_for_url("**code=*")
    told = parse_qs(urlsplit(page.url).query)
    assert told["state"] == ["s-9"]
    form = {
        "grant_type": "authorization_code",
        "code": told["code"][0],
        "code_verifier": verifier,
        "redirect_uri": back,
        "client_id": asked["client_id"],
    }
    token = requests.post(f"{server.url}/oauth/token", data=form, timeout=10).json()
    auth = {"Authorization": f"Bearer {token['access_token']}"}
    assert requests.get(f"{server.url}/api/v1/players/me", headers=auth, timeout=10).ok
    page.goto(f"{server.url}/play#notifications=1")
    page.wait_for_selector("[data-revoke-app]")
    assert "Ada's score keeper" in (page.text_content("[data-apps]") or "")
    shoot(page, f"connected-apps-{language}")
    page.click("[data-revoke-app]")
    page.wait_for_function("!document.querySelector('[data-revoke-app]')")
    gone = requests.get(f"{server.url}/api/v1/players/me", headers=auth, timeout=10)
    assert gone.status_code == 401
    assert key not in page.url
    # This test leaves three pages: each cancels what it still had in flight, no fault.
    faults = [p for p in open_page.problems if not p.endswith(" net::ERR_ABORTED")]
    assert faults == [], open_page.problems


def test_the_consent_page_asks_a_stranger_to_sign_in_first(server, open_page):
    asked = {"response_type": "code", "client_id": "https://app.example/",
             "redirect_uri": "https://app.example/back", "code_challenge": pkce()[1],
             "code_challenge_method": "S256", "scope": "read"}  # fmt: skip
    page = open_page(f"{server.url}/oauth/authorize?{urlencode(asked)}")
    page.wait_for_selector("[data-sign-in-first]")
    assert page.locator("[data-approve]").count() == 0
    assert "app.example" in (page.text_content("[data-consent]") or "")

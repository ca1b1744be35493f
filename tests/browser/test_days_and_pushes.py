"""Being told, in Chromium: the bell subscribes this browser through the real service
worker, the server's push reaches a push service that decrypts it, the service
worker shows it and a click on it opens the game; a second browser that closes
goes idle then offline at the table, and its game can be claimed; a days game
shows its pace and the turn list counts it in the title."""

from __future__ import annotations

import json
import time

import pytest
import requests

from stacks_api.testing import ServerProcess

from ..api.pushservice import PushService
from .conftest import PHONE, shoot
from .test_ratings import account

API = "/api/v1"
# Chromium reaches no push service on this closed network: the page's PushManager
# answers with the test's own push service (what a browser's would be), all else real.
FAKE_SUBSCRIBE = """
PushManager.prototype.subscribe = async function () {
  const sub = window.__push;
  return { endpoint: sub.endpoint, toJSON: () => ({ endpoint: sub.endpoint, keys: sub.keys }) };
};
"""
NOTIFICATIONS_SHOWN = """navigator.serviceWorker.ready
  .then(registration => registration.getNotifications())
  .then(shown => shown.map(n => [n.title, n.tag, n.data.url]))"""


def new_game(url: str) -> str:
    """A new two-person Sequence game's id."""
    body = {"variant": "sequence", "players": 2}
    return requests.post(f"{url}{API}/games", json=body, timeout=5).json()["game"]["id"]


@pytest.fixture
def presence_server():
    """A server whose presence runs in seconds (online 2 s, idle until 4 s, claimable
    after 3 s) and whose streams speak every second, so a test sees it change."""
    process = ServerProcess(
        {
            "REDIS_URL": "",
            "STACKS_PRESENCE_S": "2,4,3",
            "STACKS_SSE_KEEPALIVE_S": "1",
            "STACKS_WEBHOOK_ALLOW": "127.0.0.1",
        }
    )
    yield process
    process.stop()


def wait_for(check, timeout: float = 30) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"still not so after {timeout} s"
        time.sleep(0.1)


def polled(page, probe, tries: int = 300):  # type: ignore[no-untyped-def]
    """``probe()`` until it gives something true, at most ``tries`` times 0.1 s apart
    (a bound, not a timing), waiting in Playwright: CDP's events and a service
    worker's answers arrive while it waits, not while Python sleeps. Its last value."""
    for _ in range(tries - 1):
        if value := probe():
            return value
        page.wait_for_timeout(100)
    return probe()


def test_a_push_reaches_the_service_worker_and_its_click_opens_the_game(presence_server, browser):
    url = presence_server.url
    service = PushService(
        server_key=requests.get(f"{url}{API}/push/key", timeout=5).json()["public_key"]
    )
    endpoint = service.start()
    context = browser.new_context(bypass_csp=True)
    context.grant_permissions(["notifications"], origin=url)
    subscription = json.dumps({"endpoint": endpoint, "keys": service.keys})
    context.add_init_script(f"window.__push = {subscription};" + FAKE_SUBSCRIBE)
    try:
        page = context.new_page()
        page.goto(f"{url}/play")
        key = account(page, "Ada")
        page.click("[data-bell]")
        page.wait_for_selector("#message:has-text('will be told')")
        auth = {"Authorization": f"Bearer {key}"}
        subs = requests.get(f"{url}{API}/players/me/push", headers=auth, timeout=5).json()
        assert [s["endpoint"] for s in subs["subscriptions"]] == [endpoint]
        page.goto(f"{url}/play#notifications=1")  # away from any game: pushes are not held back
        page.wait_for_selector("[data-notifications]")
        shoot(page, "notification-settings")

        # Ada and a guest; once Ada is no longer at the table, the guest's move makes it
        # her turn, which is pushed (none while she is looking at that game).
        game_id = new_game(url)
        requests.post(f"{url}{API}/games/{game_id}/players", json={}, headers=auth, timeout=5)
        guest = requests.post(f"{url}{API}/games/{game_id}/players", json={"name": "Bo"},
                              timeout=5).json()  # fmt: skip
        seats = {
            guest["seat"]: {"Authorization": f"Bearer {guest['token']}"},
            1 - guest["seat"]: auth,
        }
        state = requests.get(f"{url}{API}/games/{game_id}", timeout=5).json()
        if state["to_move"] != [guest["seat"]]:  # Ada moves first, then the guest is to move
            mine = requests.get(f"{url}{API}/games/{game_id}", headers=auth, timeout=5).json()
            requests.post(f"{url}{API}/games/{game_id}/actions", headers=auth, timeout=5,
                          json=mine["you"]["legal_actions"][0])  # fmt: skip
        ada = 1 - guest["seat"]
        wait_for(lambda: requests.get(f"{url}{API}/games/{game_id}", timeout=5)
                 .json()["players"][ada]["presence"] != "online")  # fmt: skip
        theirs = requests.get(f"{url}{API}/games/{game_id}", headers=seats[guest["seat"]],
                              timeout=5).json()  # fmt: skip
        moved = requests.post(f"{url}{API}/games/{game_id}/actions", headers=seats[guest["seat"]],
                              json=theirs["you"]["legal_actions"][0], timeout=5)  # fmt: skip
        assert moved.status_code == 200, moved.text
        wait_for(lambda: service.accepted() or service.failures, timeout=60)
        assert not service.failures, service.failures
        push = next(r for r in service.accepted() if r.plaintext["game_id"] == game_id)

        # The push service hands the message to the browser's service worker.
        cdp = context.new_cdp_session(page)
        registrations: list[dict] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated",
               lambda e: registrations.extend(e["registrations"]))  # fmt: skip
        cdp.send("ServiceWorker.enable")
        polled(page, lambda: any(r["scopeURL"].endswith("/play") for r in registrations))
        registration = next(r for r in registrations if r["scopeURL"].endswith("/play"))
        # A push may be dropped until the worker has finished activating (`ready` comes
        # while it is still "activating"): wait until it is "activated".
        state = "navigator.serviceWorker.ready.then(r => r.active.state)"
        assert polled(page, lambda: page.evaluate(state) == "activated"), page.evaluate(state)
        # Three tries at most, 10 s each (a bound, not a timing): like a real push
        # service, which delivers again what was not taken, since DevTools' delivery
        # to a worker that is still starting can be lost on a loaded machine.
        shown: list[list[str]] = []
        for _ in range(3):
            cdp.send("ServiceWorker.deliverPushMessage", {
                "origin": url, "registrationId": registration["registrationId"],
                "data": json.dumps(push.plaintext)})  # fmt: skip
            shown = polled(page, lambda: page.evaluate(NOTIFICATIONS_SHOWN), tries=100)
            if shown:
                break
        assert [push.plaintext["title"], game_id, f"/play#game={game_id}"] in shown
        # A click on it, as the notification would send it: the game opens.
        worker = context.service_workers[0]
        # (A real click lets it open a window; one dispatched here may only steer a tab.)
        worker.evaluate("""async () => {
            const [notification] = await self.registration.getNotifications();
            self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
        }""")
        wanted = f"{url}/play#game={game_id}"
        opened = polled(page, lambda: [p for p in context.pages if p.url == wanted])
        assert opened, [p.url for p in context.pages]
        opened[0].wait_for_selector(".hand [data-card]")
        shoot(opened[0], "opened-from-a-push")
    finally:
        context.close()
        service.stop()


def test_a_push_service_that_never_answers_is_told_not_waited_on_for_ever(presence_server, browser):
    """A browser whose push service is out of reach leaves ``subscribe`` pending: the
    bell said nothing, for ever."""
    url = presence_server.url
    context = browser.new_context(bypass_csp=True)
    context.grant_permissions(["notifications"], origin=url)
    context.add_init_script("PushManager.prototype.subscribe = () => new Promise(() => {});")
    try:
        page = context.new_page()
        page.clock.install()
        page.goto(f"{url}/play")
        key = account(page, "Ada")
        page.click("[data-bell]")
        page.wait_for_selector("#message:has-text('push service')")
        assert "Asking" in page.text_content("#message")
        page.clock.fast_forward(25_000)
        page.wait_for_selector("#message:has-text('did not answer')")
        auth = {"Authorization": f"Bearer {key}"}
        subs = requests.get(f"{url}{API}/players/me/push", headers=auth, timeout=5).json()
        assert subs["subscriptions"] == []
        assert page.get_attribute("[data-bell]", "data-subscribed") == "no"
    finally:
        context.close()


def test_a_player_who_closes_the_page_fades_and_the_game_is_claimed(presence_server, open_page):
    url = presence_server.url
    ada_page, bo_page = open_page(f"{url}/play"), open_page(f"{url}/play", PHONE)
    ada_key, bo_key = account(ada_page, "Ada"), account(bo_page, "Bo")
    game_id = new_game(url)
    for key in (ada_key, bo_key):
        taken = requests.post(f"{url}{API}/games/{game_id}/players", json={},
                              headers={"Authorization": f"Bearer {key}"}, timeout=5)  # fmt: skip
        assert taken.status_code == 201, taken.text
    view = requests.get(f"{url}{API}/games/{game_id}", timeout=5).json()
    ada_seat = next(p["seat"] for p in view["players"] if p["name"] == "Ada")
    if view["to_move"] == [ada_seat]:  # Bo must be the one to move when he goes
        legal = requests.get(f"{url}{API}/games/{game_id}", timeout=5,
                             headers={"Authorization": f"Bearer {ada_key}"}).json()  # fmt: skip
        requests.post(f"{url}{API}/games/{game_id}/actions", json=legal["you"]["legal_actions"][0],
                      headers={"Authorization": f"Bearer {ada_key}"}, timeout=5)  # fmt: skip
    for page in (ada_page, bo_page):
        page.goto(f"{url}/play#game={game_id}")
        page.wait_for_selector(".hand [data-card]")
    bo_seat = 1 - ada_seat
    online = f"[data-seat='{bo_seat}'] [data-presence='online']"
    ada_page.wait_for_selector(online)
    assert ada_page.locator("[data-claim-win]").count() == 0, "Bo is here: nothing to claim"
    shoot(ada_page, "presence-both-here")

    bo_page.context.close()  # Bo closes his browser
    ada_page.wait_for_selector(f"[data-seat='{bo_seat}'] [data-presence='offline']", timeout=20_000)
    ada_page.wait_for_selector("[data-claim-win]")
    shoot(ada_page, "presence-gone-claim")
    ada_page.click("[data-claim-win]")
    ada_page.click("[data-confirm]")
    ada_page.wait_for_selector(".gameover")
    assert ada_page.text_content(".gameover h2") == "You won!"
    final = requests.get(f"{url}{API}/games/{game_id}", timeout=5).json()
    assert final["players"][bo_seat]["resigned"] is True


def test_a_days_game_shows_its_pace_and_the_turn_list_counts_it(presence_server, open_page):
    url = presence_server.url
    page = open_page(f"{url}/play")
    key = account(page, "Ada")
    page.goto(f"{url}/play")
    page.select_option("#days", "3")
    page.select_option("#seat-1", "random")
    page.click("form.create button[type=submit]")
    page.wait_for_selector(".hand [data-card]")
    game_id = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    view = requests.get(f"{url}{API}/games/{game_id}", timeout=5).json()
    assert view["pace"] == {"days": 3}
    page.wait_for_selector("[data-turns]")  # the bot moved: it waits for Ada
    assert page.get_attribute("[data-turns]", "data-turns") == "1"
    assert page.title().startswith("(1) ")
    # days and hours, not minutes (the clock shows at its first tick)
    wait_for(lambda: "d " in (page.text_content("[data-clock]") or ""))
    shoot(page, "days-game")
    auth = {"Authorization": f"Bearer {key}"}
    waiting = requests.get(f"{url}{API}/players/me/games?turn=mine", headers=auth, timeout=5).json()
    assert [g["id"] for g in waiting["games"]] == [game_id] and waiting["games"][0]["days"] == 3

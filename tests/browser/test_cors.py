"""A page on another origin plays a whole game against the API from a real browser."""

from __future__ import annotations

import pytest

from stacks_api.testing import ServerProcess

from .conftest import SHOTS

# The page creates a Stacks game against a bot, takes the free seat, follows the
# game with EventSource and plays the first legal action until the game ends.
PAGE = """<!doctype html><meta charset="utf-8"><title>elsewhere</title>
<link rel="icon" href="data:,"><pre id="log"></pre><p id="done"></p>
<script type="module">
const api = new URLSearchParams(location.search).get("api") + "/api/v1";
const log = (line) => document.getElementById("log").textContent += line + "\\n";
async function call(method, path, body, token, extra = {}) {
  const headers = {"Content-Type": "application/json", ...extra};
  if (token) headers.Authorization = "Bearer " + token;
  const answer = await fetch(api + path, {method, headers, body: body && JSON.stringify(body)});
  const json = await answer.json();
  if (!answer.ok) throw new Error(answer.status + " " + json.code);
  return [json, answer.headers];
}
const [created, createdHeaders] = await call("POST", "/games",
  {variant: "stacks", players: 2, seats: [{}, {bot: "greedy"}], seed: 3});
log("location " + createdHeaders.get("Location"));
const id = created.game.id;
const streamed = [];
const source = new EventSource(`${api}/games/${id}/events`);
source.onmessage = (message) => streamed.push(JSON.parse(message.data));
const [seat] = await call("POST", `/games/${id}/players`, {name: "Elsewhere"});
let [view, headers] = await call("GET", `/games/${id}`, null, seat.token, {Prefer: "wait=10"});
log("preference " + headers.get("Preference-Applied") + " etag " + headers.get("ETag"));
let moves = 0;
while (view.status === "active") {
  const [result] = await call("POST", `/games/${id}/actions`, view.you.legal_actions[0],
    seat.token, {Prefer: "wait=10", "If-Match": `"${view.version}"`,
                 "Idempotency-Key": "m" + moves});
  view = result.game;
  moves += 1;
}
const deadline = Date.now() + 5000;
while (!streamed.some((e) => e.type === "game_over") && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
source.close();
log(`moves ${moves} streamed ${streamed.length} status ${view.status}`);
document.getElementById("done").textContent = JSON.stringify(
  {status: view.status, moves, streamed: streamed.length, last: streamed.at(-1)?.type});
</script>"""


@pytest.fixture
def api_server():
    server = ServerProcess({"REDIS_URL": "", "STACKS_CORS_ORIGINS": "*"})
    yield server
    server.stop()


def closed_by_page(request) -> bool:
    """The page closes its EventSource itself at the end; if the server has not ended
    the stream first, Chromium reports that close as an aborted request, no fault."""
    return "/events" in request.url and request.failure == "net::ERR_ABORTED"


def test_a_page_on_another_origin_plays_a_game_with_fetch_and_eventsource(
    browser, static_site, api_server
):
    origin, folder = static_site
    (folder / "index.html").write_text(PAGE)
    page = browser.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("requestfailed", lambda request: closed_by_page(request) or problems.append(
        f"failed {request.url} {request.failure}"))  # fmt: skip
    page.goto(f"{origin}/index.html?api={api_server.url}")
    page.wait_for_function("document.getElementById('done').textContent", timeout=90_000)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "cors.png"))
    outcome = page.evaluate("JSON.parse(document.getElementById('done').textContent)")
    log = page.inner_text("#log")
    page.close()
    assert not problems, problems
    assert outcome["status"] == "finished" and outcome["moves"] > 0
    assert outcome["last"] == "game_over" and outcome["streamed"] > outcome["moves"]
    assert "location /api/v1/games/" in log, "Location is exposed to the page"
    assert "preference wait=10 etag" in log and 'etag "' in log

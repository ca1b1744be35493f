"""Cross-origin access: allowed origins get the CORS headers, others none."""

from .helpers import API, create

PREFLIGHT = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "prefer"}


def cors_headers(response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k.startswith("Access-Control")}


def test_any_origin_reads_answers_and_problems_with_the_exposed_headers(make_app):
    client = make_app(CORS_ORIGINS="*").test_client()
    answer = client.get(API, headers={"Origin": "https://elsewhere.example"})
    missing = client.get(f"{API}/nope", headers={"Origin": "https://elsewhere.example"})
    for response in (answer, missing):
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        assert "ETag" in response.headers["Access-Control-Expose-Headers"]
        assert "Location" in response.headers["Access-Control-Expose-Headers"]
    assert missing.status_code == 404
    assert not cors_headers(client.get(API)), "no Origin, no CORS headers"


def test_a_preflight_names_the_methods_headers_and_how_long_to_keep_it(make_app):
    client = make_app(CORS_ORIGINS="*").test_client()
    preflight = client.options(API, headers={"Origin": "https://elsewhere.example", **PREFLIGHT})
    assert preflight.status_code == 200
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    allowed = preflight.headers["Access-Control-Allow-Headers"]
    for header in ("Authorization", "If-Match", "Idempotency-Key", "Prefer", "Last-Event-ID"):
        assert header in allowed
    assert preflight.headers["Access-Control-Max-Age"] == "600"


def test_only_the_listed_origins_are_answered_and_caches_key_on_the_origin(make_app):
    client = make_app(CORS_ORIGINS="https://a.example, https://b.example").test_client()
    game_id = create(client, variant="sequence", players=2)["game"]["id"]
    listed = client.get(f"{API}/{game_id}", headers={"Origin": "https://b.example"})
    other = client.get(f"{API}/{game_id}", headers={"Origin": "https://c.example"})
    assert listed.headers["Access-Control-Allow-Origin"] == "https://b.example"
    assert not cors_headers(other)
    for response in (listed, other):
        vary = {v.strip() for v in response.headers["Vary"].split(",")}
        assert vary == {"Authorization", "Origin"}
    preflight = client.options(API, headers={"Origin": "https://c.example", **PREFLIGHT})
    assert not cors_headers(preflight)


def test_pages_outside_the_api_get_no_cors_headers(make_app):
    client = make_app(CORS_ORIGINS="*").test_client()
    assert not cors_headers(client.get("/play", headers={"Origin": "https://elsewhere.example"}))

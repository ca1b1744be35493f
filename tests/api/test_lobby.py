"""Creating, listing, joining and cancelling games, on both stores."""

from .helpers import API, bearer, create, join, problem, view


def test_create_returns_the_view_a_host_token_and_a_location(client):
    body = create(client, variant="sequence", players=2)
    game = body["game"]
    assert game["status"] == "waiting" and game["variant"] == "sequence"
    assert game["practice"] is False and game["to_move"] == []
    assert len(body["host_token"]) >= 32
    assert "you" not in game
    location = client.get(f"{API}/{game['id']}")
    assert location.status_code == 200 and location.json["id"] == game["id"]


def test_location_and_etag_headers(client):
    response = client.post(API, json={"variant": "stacks", "players": 3})
    game = response.json["game"]
    assert response.headers["Location"].endswith(f"/api/v1/games/{game['id']}")
    assert response.headers["ETag"] == f'"{game["version"]}"'


def test_seed_or_position_marks_practice(client):
    assert create(client, variant="stacks", players=2, seed=5)["game"]["practice"] is True
    position = {"piles": [[], [], [], []], "hands": [["B1"], ["R1"]], "turn": 1}
    game = create(client, variant="stacks", players=2, position=position)["game"]
    assert game["practice"] is True and game["players"][1]["hand_size"] == 1


def test_same_seed_deals_the_same_game(client):
    hands = []
    for _ in range(2):
        game = create(client, variant="sequence", players=2, seed=42)["game"]
        token = join(client, game["id"])["token"]
        join(client, game["id"], "Bo")
        hands.append(view(client, game["id"], token)["you"]["hand"])
    assert hands[0] == hands[1]


def test_invalid_games_are_refused_with_validation_errors(client):
    cases = [
        ({"variant": "chess", "players": 2}, "variant"),
        ({"variant": "sequence", "players": 5}, "players"),
        ({"variant": "sequence", "players": "2"}, "players"),
        ({"variant": "stacks", "players": 7}, "players"),
        ({"variant": "sequence", "players": 4, "options": {"teams": 3}}, "options"),
        ({"variant": "sequence", "players": 2, "seats": [{}]}, "seats"),
        ({"variant": "sequence", "players": 2, "seats": [{}, {"bot": "genius"}]}, "seats"),
        (
            {
                "variant": "stacks",
                "players": 2,
                "seats": [{}, {"bot": "mcts", "options": {"x": 1}}],
            },
            "seats",
        ),
        (
            {"variant": "stacks", "players": 2, "seats": [{"options": {"iterations": 5}}, {}]},
            "seats",
        ),
        ({"variant": "stacks", "players": 2, "position": {"piles": []}}, "position"),
        ({"variant": "sequence", "players": 2, "colour": "red"}, "colour"),
        ({"players": 2}, "variant"),
    ]
    for body, field in cases:
        found = problem(client.post(API, json=body), 422, "validation_error")
        assert field in found["errors"], (body, found)


def test_malformed_json_is_a_bad_request(client):
    response = client.post(API, data="{nope", content_type="application/json")
    problem(response, 400, "bad_request")


def test_join_fills_seats_in_order_and_the_last_one_starts_the_game(client):
    game = create(client, variant="sequence", players=4)["game"]
    seats = [join(client, game["id"], f"P{i}") for i in range(3)]
    assert [(s["seat"], s["team"]) for s in seats] == [(0, 0), (1, 1), (2, 0)]
    assert view(client, game["id"])["status"] == "waiting"
    last = join(client, game["id"], "P3")
    started = view(client, game["id"], last["token"])
    assert started["status"] == "active" and len(started["to_move"]) == 1
    assert [p["name"] for p in started["players"]] == ["P0", "P1", "P2", "P3"]
    problem(client.post(f"{API}/{game['id']}/players", json={"name": "late"}), 409, "game_full")


def test_join_a_chosen_seat_and_refuse_a_taken_or_bot_seat(client):
    game = create(client, variant="stacks", players=3, seats=[{}, {"bot": "random"}, {}])["game"]
    assert join(client, game["id"], seat=2)["seat"] == 2
    url = f"{API}/{game['id']}/players"
    problem(client.post(url, json={"name": "x", "seat": 2}), 409, "seat_taken")
    problem(client.post(url, json={"name": "x", "seat": 1}), 409, "seat_taken")
    problem(client.post(url, json={"name": "x", "seat": 3}), 422, "validation_error")
    problem(client.post(url, json={"name": ""}), 422, "validation_error")
    assert join(client, game["id"])["seat"] == 0


def test_list_open_games_with_filters_and_pages(client):
    ids = [create(client, variant="sequence", players=2)["game"]["id"] for _ in range(3)]
    stacks_id = create(client, variant="stacks", players=2)["game"]["id"]
    started = create(client, variant="sequence", players=2, seats=[{}, {"bot": "random"}])["game"]
    join(client, started["id"])
    listed = client.get(f"{API}?variant=sequence&page_size=2").json
    assert listed["total"] == 3 and listed["page"] == 1
    assert [g["id"] for g in listed["games"]] == ids[::-1][:2]
    second = client.get(f"{API}?variant=sequence&page_size=2&page=2").json["games"]
    assert [g["id"] for g in second] == ids[:1]
    everything = client.get(API).json
    assert {g["id"] for g in everything["games"]} == {*ids, stacks_id}
    assert everything["games"][0]["seats"][0]["free"] is True
    active = client.get(f"{API}?status=active").json["games"]
    assert [g["id"] for g in active] == [started["id"]]
    problem(client.get(f"{API}?page=0"), 422, "validation_error")
    problem(client.get(f"{API}?status=lost"), 422, "validation_error")


def test_cancel_needs_the_host_token(client):
    body = create(client, variant="sequence", players=2)
    game_id = body["game"]["id"]
    seat = join(client, game_id)
    problem(client.delete(f"{API}/{game_id}"), 401, "unauthorized")
    problem(client.delete(f"{API}/{game_id}", headers=bearer(seat["token"])), 401, "unauthorized")
    cancelled = client.delete(f"{API}/{game_id}", headers=bearer(body["host_token"]))
    assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"
    again = client.delete(f"{API}/{game_id}", headers=bearer(body["host_token"]))
    problem(again, 409, "game_not_active")
    # Who asks is checked before the game's state: a stranger hears only that.
    problem(client.delete(f"{API}/{game_id}", headers=bearer("x")), 401, "unauthorized")
    problem(client.post(f"{API}/{game_id}/players", json={"name": "x"}), 409, "game_not_active")
    assert client.get(f"{API}?status=cancelled").json["games"][0]["id"] == game_id


def test_unknown_games_are_not_found(client):
    for response in (
        client.get(f"{API}/nope"),
        client.delete(f"{API}/nope", headers=bearer("x")),
        client.post(f"{API}/nope/players", json={"name": "x"}),
        client.post(f"{API}/nope/actions", json={"type": "pass"}, headers=bearer("x")),
        client.get(f"{API}/nope/events"),
    ):
        problem(response, 404, "not_found")


def test_a_huge_player_count_is_refused_not_allocated(client):
    response = client.post(API, json={"variant": "sequence", "players": 10**18})
    problem(response, 422, "validation_error")


def test_a_bot_seat_with_options_plays(client):
    seats = [{"bot": "mcts", "options": {"iterations": 2}}, {"bot": "greedy"}]
    game = view(client, create(client, variant="stacks", players=2, seats=seats)["game"]["id"])
    assert game["status"] == "finished" and game["players"][0]["bot"] == "mcts"


def test_after_the_deal_a_host_cannot_cancel_but_every_person_together_can(client):
    body = create(client, variant="sequence", players=3, seats=[{}, {}, {"bot": "random"}])
    game_id = body["game"]["id"]
    tokens = [join(client, game_id, name)["token"] for name in ("Ada", "Bo")]
    problem(client.delete(f"{API}/{game_id}", headers=bearer(body["host_token"])), 409,
            "game_started")  # fmt: skip
    first = client.delete(f"{API}/{game_id}", headers=bearer(tokens[0]))
    assert first.status_code == 200 and first.json["status"] == "active"
    assert first.json["cancel_agreed"] == [0]
    again = client.delete(f"{API}/{game_id}", headers=bearer(tokens[0]))
    # Said twice: nothing more (the bot may have moved meanwhile; the events below
    # hold one agreement a seat).
    assert again.status_code == 200 and again.json["cancel_agreed"] == [0]
    done = client.delete(f"{API}/{game_id}", headers=bearer(tokens[1]))
    assert done.json["status"] == "cancelled" and done.json["cancel_agreed"] == [0, 1]
    kinds = [e["type"] for e in client.get(f"{API}/{game_id}/events").json["events"]]
    # The bot may move between the agreements; only the order of the cancel events counts.
    cancelling = [k for k in kinds if k.startswith("cancel")]
    assert (
        cancelling == ["cancel_agreed", "cancel_agreed", "cancelled"] and kinds[-1] == "cancelled"
    )


def test_deep_lobby_pages_are_read_by_cursor_and_cover_every_game_once(client):
    ids = {create(client, variant="sequence", players=2)["game"]["id"] for _ in range(23)}
    seen, cursor, pages = [], None, 0
    while True:
        query = "status=waiting&page_size=5" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(f"{API}?{query}").json
        seen += [g["id"] for g in page["games"]]
        pages += 1
        cursor = page["next"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) and set(seen) >= ids and pages >= 5
    first = client.get(f"{API}?status=waiting&page_size=5").json["games"]
    assert [g["id"] for g in first] == seen[:5]
    problem(client.get(f"{API}?page=21"), 422, "validation_error")
    problem(client.get(f"{API}?cursor=nonsense"), 422, "validation_error")

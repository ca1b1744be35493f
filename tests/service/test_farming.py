"""A rating cannot be bought: a person who farms a bot account of their own (rated
challenges, a few moves each, the bot resigns) gains three games' worth a day, and
never reaches the leaderboard (one opponent is not five)."""

from __future__ import annotations

from stacks_api.service import GameService
from stacks_api.service.rated_pairs import MOST_A_DAY, WINDOW_S

from .conftest import Clock, account

ENTROPY = "ab12"


def farmed_game(service: GameService, person: tuple[str, str], bot: tuple[str, str],
                own_moves: int) -> str:  # fmt: skip
    """A rated challenge to the bot, accepted; each side makes ``own_moves`` moves,
    then the bot resigns. The game's id."""
    (ada, ada_key), (farm, farm_key) = person, bot
    made, _ = service.challenges.challenge(ada, farm, {"variant": "sequence", "rated": True,
                                                       "entropy": ENTROPY})  # fmt: skip
    game_id = service.challenges.answer(farm, made["id"], "accept", ENTROPY)["challenge"]["game_id"]
    keys = {0: ada_key, 1: farm_key}
    moved = {0: 0, 1: 0}
    while min(moved.values()) < own_moves:
        seat = service.store.load(game_id).to_move[0]
        view = service.play.view(game_id, keys[seat])
        service.play.act(game_id, keys[seat], view["you"]["legal_actions"][0])
        moved[seat] += 1
    service.concede.resign(game_id, farm_key)
    return game_id


def archive_all(service: GameService, clock: Clock) -> None:
    assert service.archiving is not None
    while service.archiving.drain(clock.now):
        pass


def test_farming_ones_own_bot_gains_three_games_worth_a_day_and_no_leaderboard_entry(
    service: GameService, clock: Clock
):
    person, bot = account(service, "Ada"), account(service, "Farm")
    service.players.become_bot(bot[0])
    # Two moves each and a resignation: the pattern of the report rates nobody.
    for _ in range(5):
        farmed_game(service, person, bot, own_moves=2)
        clock.now += 60
    archive_all(service, clock)
    assert service.ratings.of(person[0]) == {}
    # Five moves each clears that rule: only three games a day rate.
    games = []
    for _ in range(100):
        games.append(farmed_game(service, person, bot, own_moves=5))
        clock.now += 60
    archive_all(service, clock)
    mine = service.ratings.of(person[0])["sequence"]
    assert mine["games"] == MOST_A_DAY
    rated_first = [service.ratings.game(g)["state"] for g in games[:MOST_A_DAY]]
    assert rated_first == ["rated"] * MOST_A_DAY
    later = service.play.view(games[MOST_A_DAY], None)
    assert later["rated"] is False and later["unrated"] == "pair_limit"
    # A challenge made now says so before it is accepted.
    shown, _ = service.challenges.challenge(person[0], bot[0], {"variant": "sequence",
                                            "rated": True, "entropy": ENTROPY})  # fmt: skip
    assert shown["unrated"] == "pair_limit"
    service.challenges.answer(person[0], shown["id"], "cancel", None)
    assert service.ratings.leaderboard("sequence", 10)["players"] == []
    # A day later, three more: never more than three games' worth a day.
    clock.now += WINDOW_S
    for _ in range(5):
        farmed_game(service, person, bot, own_moves=5)
        clock.now += 60
    archive_all(service, clock)
    assert service.ratings.of(person[0])["sequence"]["games"] == 2 * MOST_A_DAY
    assert service.ratings.leaderboard("sequence", 10)["players"] == []

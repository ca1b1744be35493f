"""Bots choose legal actions from their own seat's view, and nothing else."""

import random
from collections import Counter

import pytest

from stacks_api import bots, cli, variants
from stacks_api.bots import rollout
from stacks_api.bots.determinize import sample_world
from stacks_api.competition import bot_matches as tournament
from stacks_api.competition.bot_matches import Standing, play_one
from stacks_api.engine import create_game
from stacks_api.variants.sequence import bot as sequence_greedy
from stacks_api.variants.sequence.board import LAYOUT
from stacks_api.variants.sequence.setup import DECK
from stacks_api.variants.stacks import bot as stacks_greedy
from stacks_api.variants.stacks.cards import deck_for

from ..engine.helpers import deck_without

BOT_NAMES = sorted(bots.BOTS)
# Small and bound by iterations, never by the clock, so choices are reproducible.
# The search bounded by iterations only, so that its choice never depends on the clock.
OPTIONS = {"strong": {"iterations": 6, "seconds": 60}}


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize(("variant", "players"), [("sequence", 2), ("sequence", 6), ("stacks", 3)])
def test_every_choice_is_legal_until_the_game_ends(name, variant, players):
    game = create_game(variant, players=players, seed=5)
    rng = random.Random(1)
    for _ in range(400 if name != "strong" else 12):
        if game.result is not None:
            break
        for seat in game.to_move[:1]:
            action = bots.choose(name, game.view(seat), rng, OPTIONS.get(name))
            assert action in game.legal_actions(seat)
            game.apply(seat, action)


def twin_sequence_games():
    """Two games, same for seat 0's eyes, differing in seat 1's hand and the draw pile."""
    hands = [["7H", "2S", "JD", "QS", "KC", "5D", "9C"], None]
    rest = deck_without(DECK, *hands[0])
    twins = []
    for order in (rest, rest[::-1]):
        hands[1] = order[:7]
        pos = {"board": ["X........X"] + [".........."] * 8 + ["X........X"],
               "hands": [hands[0], hands[1]], "draw_pile": order[7:], "turn": 0}  # fmt: skip
        twins.append(create_game("sequence", players=2, seed=3, position=pos))
    return twins


def twin_stacks_games():
    """Late in the game (few cards left to draw)."""
    hands = [["B1", "B2", "R4", "SKIP", "BW"], None]
    rest = deck_without(deck_for(2), *hands[0], "B1", "B2", "RW")
    public, hidden = rest[:-15], rest[-15:]
    twins = []
    for order in (hidden, hidden[::-1]):
        pos = {"piles": [["B1", "B2"], [], ["RW"], []], "hands": [hands[0], order[:5]],
               "discards": [public[:45], public[45:]], "draw_pile": order[5:],
               "turn": 0}  # fmt: skip
        twins.append(create_game("stacks", players=2, seed=3, position=pos))
    return twins


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("twins", [twin_sequence_games, twin_stacks_games])
def test_a_choice_depends_only_on_the_seats_view(name, twins):
    first, second = twins()
    assert first.to_dict() != second.to_dict()  # the hidden cards differ
    assert first.view(0) == second.view(0)  # what seat 0 sees does not
    for seed in range(3):
        a = bots.choose(name, first.view(0), random.Random(seed), OPTIONS.get(name))
        b = bots.choose(name, second.view(0), random.Random(seed), OPTIONS.get(name))
        assert a == b


# Seat 1 completes pile 0 with its B5; seat 0, holding a Block, is asked.
WINDOW_AHEAD = {
    "piles": [["B1", "B2", "B3", "B4"], [], [], []],
    "hands": [["BLOCK", "R2", "R3", "SKIP", "R1"], ["B5", "R4", "R5", "B2", "R1"]],
    "turn": 1,
}


def test_in_a_block_window_the_tree_search_answers_as_its_policy():
    """A position cannot hold an open window, so no world is sampled there."""
    game = create_game("stacks", players=2, seed=1, position=WINDOW_AHEAD)
    game.apply(1, {"type": "play", "card": "B5", "pile": 0})
    view = game.view(0)
    assert view["block_window"] and len(view["you"]["legal_actions"]) == 2
    assert bots.choose("strong", view, random.Random(0)) == rollout.policy(view, random.Random(0))


def test_the_levels_and_their_old_names():
    assert list(bots.BOTS) == ["random", "beginner", "easy", "medium", "strong"]
    assert bots.LADDER == ("beginner", "easy", "medium", "strong")
    assert {name: bots.canonical(name) for name in ("greedy", "pimc", "mcts")} == {
        "greedy": "medium",
        "pimc": "strong",
        "mcts": "strong",
    }
    assert set(bots.NAMES) == {*bots.BOTS, "greedy", "pimc", "mcts"}


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_a_sloppy_bot_plays_greedys_move_or_a_plausible_lesser_one(variant):
    game = create_game(variant, players=2, seed=11)
    rng = random.Random(4)
    for _ in range(60):
        if game.result is not None:
            break
        seat = game.to_move[0]
        view = game.view(seat)
        best = bots.choose("medium", view, random.Random(0))
        ranked = sorted(view["you"]["legal_actions"], key=variants.get(variant).bots.rank(view),
                        reverse=True)  # fmt: skip
        never = bots.sloppy.sloppy_bot(view, random.Random(0), mistakes=0.0)
        always = bots.sloppy.sloppy_bot(view, rng, mistakes=1.0)
        assert never == best
        if len(ranked) > 1:
            assert always in ranked[1 : 1 + bots.sloppy.PLAUSIBLE]
        game.apply(seat, best)


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_greedy_beats_random_most_of_the_time(variant):
    standings = {"greedy": Standing("greedy"), "random": Standing("random")}
    wins = [
        play_one(variant, ["greedy", "random"] if n % 2 else ["random", "greedy"], n, standings)
        for n in range(30)
    ]
    assert wins.count("greedy") >= 24


@pytest.mark.parametrize(
    ("options", "problem"),
    [({"depth": 3}, "takes no option"), ({"iterations": 0}, "from 1"),
     ({"iterations": 2.5}, "whole number"), ({"seconds": "1"}, "a number"), ({}, None)],
)  # fmt: skip
def test_bot_options_are_checked(options, problem):
    found = bots.check_options("mcts", options)
    assert (found is None) if problem is None else (problem in found)


def test_stacks_greedy_finishes_piles_from_its_own_discard_pile():
    # B3 lies on B4 in the discard pile (top last): playing the 3 uncovers the 4.
    assert stacks_greedy.finishable(2, "B", Counter({"B5": 1}), ["B4", "B3"])
    assert not stacks_greedy.finishable(2, "B", Counter({"B5": 1}), ["B3", "B4"])
    assert stacks_greedy.finishable(3, "R", Counter({"RW": 1}), ["R5"])
    assert not stacks_greedy.finishable(3, "R", Counter({"RW": 1}), [])


def test_stacks_greedy_feeds_wilds_only_when_nothing_is_left_to_draw():
    hand = ["BW", "B2", "REVERSE", "REVERSE", "REVERSE"]
    rest = deck_without(deck_for(3), *hand, "B1")
    for to_draw, fed in ((10, "B2"), (0, "BW")):
        pos = {"piles": [["B1"], [], [], []], "hands": [hand, rest[:5], rest[5:10]],
               "discards": [[], [], rest[10 + to_draw:]], "draw_pile": rest[10:10 + to_draw],
               "turn": 0}  # fmt: skip
        view = create_game("stacks", players=3, seed=1, position=pos).view(0)
        action = bots.choose("greedy", view, random.Random(0))
        assert action["card"] == fed and "pile" in action


def test_the_search_bot_feeds_its_low_cards_where_greedy_hoards_them():
    hand = ["B1", "B2", "R3", "R5", "BLOCK"]
    rest = deck_without(deck_for(2), *hand, "B1", "R1", "R2")
    pos = {"piles": [[], ["B1"], ["R1", "R2"], []], "hands": [hand, rest[:5]],
           "discards": [[], []], "draw_pile": rest[5:], "turn": 0}  # fmt: skip
    view = create_game("stacks", players=2, seed=1, position=pos).view(0)
    assert view["draw_pile_count"] > 90  # early: greedy feeds nothing yet
    greedy = stacks_greedy.choose(view, random.Random(0))
    assert greedy == {"type": "discard", "card": "B1"}
    feeding = stacks_greedy.FEEDING
    moves = {(a["card"], a.get("pile")): stacks_greedy.score(view, a, feeding)
             for a in view["you"]["legal_actions"] if a["type"] == "play"}  # fmt: skip
    # Piles of up to two cards: a 1 starts an empty pile, a 2 goes on the 1; the 3
    # would leave three cards, two short of a chip for the next player.
    assert moves[("B1", 0)] > moves[("B2", 1)] > 0 > moves[("R3", 2)]
    assert rollout.policy(view, random.Random(0))["card"] == "B1"


@pytest.mark.parametrize(("their_top", "steals"), [("B3", True), ("R3", False), ("SKIP", False)])
def test_the_search_bot_steals_a_card_that_lets_it_finish_a_pile(their_top, steals):
    # Pile 0 holds B1, B2; the hand has B4 and B5 but no B3: the opponent's B3 is the
    # missing card, a red 3 or an action card is not.
    hand = ["STEAL_CARD", "B4", "B5", "R1", "R2"]
    rest = deck_without(deck_for(2), *hand, "B1", "B2", their_top)
    pos = {"piles": [["B1", "B2"], [], [], []], "hands": [hand, rest[:5]],
           "discards": [[], [their_top]], "draw_pile": rest[5:], "turn": 0}  # fmt: skip
    view = create_game("stacks", players=2, seed=1, position=pos).view(0)
    steal = {"type": "play", "card": "STEAL_CARD", "target": 1}
    assert stacks_greedy.steal_finishes(view, steal) == steals
    chosen = rollout.policy(view, random.Random(0))
    assert (chosen == steal) == steals
    assert stacks_greedy.choose(view, random.Random(0)) != steal  # greedy takes only W, 5, Block


@pytest.mark.parametrize(
    ("top", "discarded"), [("B5", "B4"), ("R5", "STEAL_CARD"), (None, "STEAL_CARD")]
)
def test_the_search_bot_stores_cards_in_playing_order_on_its_discard_pile(top, discarded):
    hand = ["B4", "STEAL_CARD", "R5", "BW", "RW"]
    mine = [top] if top else []
    rest = deck_without(deck_for(2), *hand, *mine)
    pos = {"piles": [[], [], [], []], "hands": [hand, rest[:5]], "discards": [mine, []],
           "draw_pile": rest[5:], "turn": 0}  # fmt: skip
    view = create_game("stacks", players=2, seed=1, position=pos).view(0)
    action = stacks_greedy.choose(view, random.Random(0), stacks_greedy.FEEDING)
    assert action == {"type": "discard", "card": discarded}
    assert stacks_greedy.continues_chain(mine, "B4") == (top == "B5")


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_a_sampled_world_shows_the_seat_exactly_its_view(variant):
    game = create_game(variant, players=3, seed=2)
    rng = random.Random(0)
    for _ in range(60):
        seat = game.to_move[0]
        game.apply(seat, bots.choose("greedy", game.view(seat), rng))
    seat = game.to_move[0]
    view = game.view(seat)
    worlds = [sample_world(view, random.Random(n)) for n in range(4)]

    def in_play(view):  # a world starts mid-game: it has no dealer and no history
        return {k: v for k, v in view.items() if k not in ("dealer", "log")}

    for world in worlds:
        assert in_play(world.view(seat)) == in_play(view)
    others = [[h for s, h in enumerate(w.hands) if s != seat] for w in worlds]
    assert len({repr(o) for o in others}) > 1  # the hidden hands are dealt anew


def test_stacks_worlds_keep_the_public_set_aside_heap():
    game = create_game("stacks", players=2, seed=3)
    rng = random.Random(0)
    while game.result is None and not game.view()["set_aside"]:
        seat = game.to_move[0]
        game.apply(seat, bots.choose("greedy", game.view(seat), rng))
    seat = game.to_move[0]
    view = game.view(seat)
    assert view["set_aside"] and len(view["set_aside"]) == view["set_aside_count"]
    world = stacks_greedy.Playout(sample_world(view, random.Random(1)))
    for n in range(5):
        world.redeal(seat, random.Random(n))  # the hidden cards dealt anew, the heap kept
        assert world.game.view(seat)["set_aside"] == view["set_aside"]
        assert world.game.view(seat)["you"]["hand"] == view["you"]["hand"]
        g = world.game
        zones = [*g.hands, *g.piles, *g.discards, g.draw, g.set_aside, g.special]
        assert Counter(c for zone in zones for c in zone) == Counter(deck_for(2))


def test_a_sequence_playout_moves_as_greedy_would_on_the_views():
    removals = sequences = 0
    for players, seed in ((2, 5), (3, 6), (2, 7)):
        game = create_game("sequence", players=players, seed=seed)
        twin = sequence_greedy.Playout(game.copy())
        moves = 0
        while game.result is None and moves < 300:
            seat = game.to_move[0]
            action = bots.choose("greedy", game.view(seat), random.Random(moves))
            game.apply(seat, action)
            twin.move(random.Random(moves))
            removals += action.get("card") in sequence_greedy.ONE_EYED_JACKS
            # The board kept up to date move after move is the board built afresh.
            board, fresh = twin.board, sequence_greedy.Board.of_view(twin.game.view(None))
            assert (board.cells, board.holders) == (fresh.cells, fresh.holders)
            assert (board.owned, board.fours) == (fresh.owned, fresh.fours)
            assert board.reused == fresh.reused
            moves += 1
        assert twin.game.to_dict() == game.to_dict()
        sequences += len(game.sequences)
    assert sequences > 0 and removals > 0


@pytest.mark.parametrize("players", [2, 3])
def test_a_stacks_playout_moves_as_the_policy_would_on_the_views(players):
    # Its glance at a seat's view must lead the policy to the move the view would.
    game = create_game("stacks", players=players, seed=11)
    twin = stacks_greedy.Playout(game.copy())
    moves = 0
    while game.result is None and moves < 2_000:
        seat = game.to_move[0]
        game.apply(seat, stacks_greedy.policy(game.view(seat), random.Random(moves)))
        twin.move(random.Random(moves))
        assert twin.game.to_dict() == game.to_dict()
        moves += 1
    assert game.result is not None and twin.estimate() == stacks_greedy.estimate(
        game.view(None)["chips"]
    )


def test_sequence_greedy_skips_only_jack_plays_that_cannot_be_best():
    # best() scores a jack only at a cell of some team's four while a plain play is
    # legal; its choice must still score as high as every legal action scored.
    with_jacks = 0
    for seed in range(6):
        game, rng = create_game("sequence", players=3, seed=seed), random.Random(seed)
        while game.result is None:
            seat = game.to_move[0]
            view = game.view(seat)
            legal, team = view["you"]["legal_actions"], view["you"]["team"]
            board = sequence_greedy.Board.of_view(view)
            chosen = sequence_greedy.best(board, legal, team, rng)
            top = max(sequence_greedy.score(board, action, team) for action in legal)
            assert sequence_greedy.score(board, chosen, team) == top
            with_jacks += any(a.get("card") in sequence_greedy.JACKS for a in legal)
            game.apply(seat, chosen)
    assert with_jacks > 100


def _blue_four() -> sequence_greedy.Board:
    """Blue (team 0) holds four of row 1, cells 11-14; cells 10 and 15 would complete it."""
    board = sequence_greedy.Board([-1] * 100, [])
    for cell in (0, 9, 90, 99):
        board.set(cell, sequence_greedy.CORNER)
    for cell in (11, 12, 13, 14):
        board.set(cell, 0)
    return board


def _blue_four_and_a_sequence() -> sequence_greedy.Board:
    """``_blue_four``, and Blue's sequence fills row 2 (cells 20-24)."""
    board = _blue_four()
    for cell in range(20, 25):
        board.set(cell, 0)
    board.add_sequence(0, set(range(20, 25)))
    return board


def _named(board, hands, to_move, needed=2):
    per_team = sequence_greedy.features(board, hands, 2, to_move, needed)
    return [dict(zip(sequence_greedy.FEATURES, team, strict=True)) for team in per_team]


def test_the_sequence_estimate_counts_fours_jacks_and_the_cards_that_fill_a_four():
    board, fill = _blue_four(), LAYOUT[15]
    blue, green = _named(board, [[fill, "JD"], ["JS", LAYOUT[10]]], to_move=1)
    assert blue["windows_4"] == 2 and blue["open_fours"] == 2
    assert blue["two_eyed_jacks"] == 1 and blue["fills_four"] == 1 and blue["to_move"] == 0
    assert blue["can_complete"] == 1 and blue["can_win"] == 0, "one sequence of two"
    assert green["windows_4"] == 0 and green["one_eyed_jacks"] == 1
    assert green["blocks"] == 1 and green["to_move_blocks"] == 1 and green["to_move"] == 1

    def blue_chance(hands: list[list[str]], to_move: int = 1) -> float:
        return sequence_greedy.estimate(board, hands, 2, to_move)[0]

    # The card that fills the four, and a wild jack, are each worth something to Blue;
    # Green's jack that removes a chip is worth something to Green.
    assert blue_chance([[fill], ["2S"]]) > blue_chance([["2S"], ["2S"]]) > 0.5
    assert blue_chance([["JD"], ["2S"]]) > blue_chance([["2S"], ["2S"]])
    assert blue_chance([["2S"], ["JS"]]) < blue_chance([["2S"], ["2S"]])
    # Completing is worth more to the side that can do it now.
    assert blue_chance([[fill], ["2S"]], to_move=0) > blue_chance([[fill], ["2S"]], to_move=1)


def test_a_window_its_own_sequence_has_spent_counts_for_nothing():
    # Blue's sequence fills row 2 (cells 20-24). The window 21-25 then holds four Blue
    # chips, but it shares four spaces with that sequence and can never become a
    # second one: only row 1's two fours count.
    board = _blue_four_and_a_sequence()
    assert board.holders[sequence_greedy.WINDOWS.index((21, 22, 23, 24, 25))] == (0, 4)
    blue = _named(board, [["2S"], ["2S"]], to_move=0)[0]
    assert blue["sequences"] == 1 and blue["windows_4"] == 2 and blue["open_fours"] == 2


def test_the_side_to_move_can_win_where_it_lacks_one_sequence_and_holds_the_card():
    board, fill = _blue_four_and_a_sequence(), LAYOUT[15]
    for card in (fill, "JD"):
        blue = _named(board, [[card], ["2S"]], to_move=0)[0]
        assert blue["can_win"] == 1 and blue["to_move_can_win"] == 1
    assert _named(board, [[fill], ["2S"]], to_move=0, needed=3)[0]["can_win"] == 0
    assert _named(board, [["2S"], ["2S"]], to_move=0)[0]["can_complete"] == 0
    # In teams only the team's next seat to move counts, not its partner.
    partner = _named(board, [["2S"], ["2S"], [fill], ["2S"]], to_move=0)[0]
    assert partner["can_complete"] == 0 and partner["fills_four"] == 1
    nearly_won = sequence_greedy.estimate(board, [[fill], ["2S"]], 2, 0)[0]
    assert nearly_won > 0.9


@pytest.mark.parametrize(
    ("argument", "problem"),
    [("{bad", "not JSON"), ('{"mcts": {"iteration": 5}}', "takes no option 'iteration'"),
     ('{"nobot": {}}', "'nobot'"), ('{"mcts": {"iterations": 0}}', "from 1")],
)  # fmt: skip
def test_the_tournament_refuses_bad_bot_options(argument, problem, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["tournament", "--bots", "mcts", "random", "--games", "1", "--options", argument])
    assert exit_.value.code == 2 and problem in capsys.readouterr().err


def test_a_tournament_in_two_processes_plays_the_same_games():
    def wins(report):
        return [line.split("   decision")[0].split(" played ")[0] for line in report.splitlines()]

    alone = tournament.run("sequence", "easy", "random", games=4, first_seed=7)
    shared = tournament.run("sequence", "easy", "random", games=4, first_seed=7, jobs=2)
    assert wins(alone) == wins(shared) and "(2 processes)" in shared


def test_a_bot_alone_takes_one_seat_that_moves_round():
    line_ups = [tournament.line_up("strong", "easy", 4, seed, alone=True) for seed in range(4)]
    assert [names.index("strong") for names in line_ups] == [0, 1, 2, 3]
    assert all(names.count("strong") == 1 for names in line_ups)


def test_a_bot_alone_wins_with_its_team_whoever_of_it_moved_last():
    names = ["easy", "strong", "easy", "easy"]  # 2 teams: seats 0 and 2, seats 1 and 3
    assert tournament._winner(names, [0.0, 1.0, 0.0, 1.0]) == "strong"
    assert tournament._winner(names, [1.0, 0.0, 1.0, 0.0]) == "easy"
    assert tournament._winner(names, [0.5, 0.5, 0.5, 0.5]) is None


def test_a_tournament_with_a_bot_alone_reports_its_fair_share():
    report = tournament.run("stacks", "easy", "random", games=3, players=3, alone=True)
    assert "easy in one seat" in report and "fair share of easy's seat: 33.3%" in report

"""Each Sequence Stacks rule of docs/rules.md, shown on hand-built positions."""

from collections import Counter

import pytest

from stacks_api.engine import SetupError, create_game, load_game
from stacks_api.variants.stacks.cards import deck_for

from .helpers import assert_refused, assert_round_trip, cards_in_play, deck_without

EMPTY_PILES = [[], [], [], []]


def game_at(hands, piles=None, options=None, seed=1, **extra):
    pos = {"piles": piles or EMPTY_PILES, "hands": hands, "turn": 0, **extra}
    return create_game("stacks", players=len(hands), seed=seed, options=options, position=pos)


def plays_of(g, seat, card):
    return [a for a in g.legal_actions(seat) if a["type"] == "play" and a["card"] == card]


def play(g, seat, card, **fields):
    return g.apply(seat, {"type": "play", "card": card, **fields})


def types(events):
    return [e["type"] for e in events]


# -- setup ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_five_each_and_the_seat_left_of_the_dealer_starts(players):
    g = create_game("stacks", players=players, seed=players)
    view = g.view()
    deck = 112 if players == 2 else 120
    assert [p["hand_size"] for p in view["players"]] == [5] * players
    assert view["draw_pile_count"] == deck - 5 * players
    assert view["to_move"] == [(view["dealer"] + 1) % players]
    assert sum(cards_in_play(g).values()) == deck


def test_the_two_player_deck_drops_eight_action_cards():
    full, two = Counter(deck_for(3)), Counter(deck_for(2))
    assert len(deck_for(3)) == 120 and len(deck_for(2)) == 112
    assert full - two == Counter(REVERSE=3, BLOCK=1, STEAL_CHIP=2, STEAL_CARD=1, SKIP=1)
    assert full["BW"] == full["RW"] == 7 and full["B3"] == full["R5"] == 9


@pytest.mark.parametrize("players", [1, 7, 0, "3"])
def test_player_counts_outside_two_to_six_are_refused(players):
    with pytest.raises(SetupError):
        create_game("stacks", players=players, seed=1)


@pytest.mark.parametrize(
    "options",
    [{"block_window": "some"}, {"response_timeout_s": 0}, {"response_timeout_s": True},
     {"response_timeout_s": "5"}, {"teams": 2}],
)  # fmt: skip
def test_bad_options_are_refused(options):
    with pytest.raises(SetupError):
        create_game("stacks", players=3, seed=1, options=options)


# -- piles ----------------------------------------------------------------------


def test_a_wild_starts_a_pile_and_numbers_follow_in_order():
    g = game_at([["BW", "B2", "B3", "R1"], []])
    legal = g.legal_actions(0)
    assert {"type": "play", "card": "BW", "pile": 0} in legal
    assert {"type": "play", "card": "B2", "pile": 0} not in legal
    play(g, 0, "BW", pile=0)
    play(g, 0, "B2", pile=0)
    assert_refused(g, 0, {"type": "play", "card": "R1", "pile": 0}, "illegal_action",
                   "R1 does not follow B2 on pile 0")  # fmt: skip
    assert_refused(g, 0, {"type": "play", "card": "B3", "pile": 1}, "illegal_action",
                   "B3 cannot start blue pile 1")  # fmt: skip
    assert g.view()["piles"][0] == ["BW", "B2"]


def test_no_third_pile_of_one_colour():
    g = game_at([["B1"], []], piles=[["B1"], ["B1", "B2"], [], []])
    assert_refused(g, 0, {"type": "play", "card": "B1", "pile": 2}, "illegal_action")
    assert [a for a in g.legal_actions(0) if a["type"] == "play"] == []


def test_a_wild_as_the_five_completes_and_awards_the_pile_colour():
    g = game_at([["RW", "B1"], ["R2"]], piles=[[], [], ["R1", "R2", "R3", "R4"], []],
                options={"block_window": "holders"})  # fmt: skip
    events = play(g, 0, "RW", pile=2)
    assert types(events) == ["play", "complete", "chip"]
    view = g.view()
    assert view["chips"][0] == {"blue": 0, "red": 1} and view["supply"] == {"blue": 20, "red": 19}
    assert view["piles"][2] == [] and view["set_aside_count"] == 5
    assert g.to_move == [0]  # the turn continues


def test_no_chip_when_the_colour_has_run_out():
    chips = [{"blue": 3, "red": 0}, {"blue": 17, "red": 1}]
    g = game_at([["B5", "R1"], []], piles=[["B1", "B2", "B3", "B4"], [], [], []], chips=chips,
                options={"block_window": "holders"})  # fmt: skip
    events = play(g, 0, "B5", pile=0)
    assert "chip" not in types(events) and g.view()["chips"] == chips


def test_a_win_needs_five_chips_with_two_of_each_colour():
    chips = [{"blue": 2, "red": 2}, {"blue": 0, "red": 0}]
    g = game_at([["B5", "R1"], []], piles=[["B1", "B2", "B3", "B4"], [], [], []], chips=chips,
                options={"block_window": "holders"})  # fmt: skip
    events = play(g, 0, "B5", pile=0)
    assert g.result == {"winner_seat": 0} and events[-1]["type"] == "game_over"
    assert_refused(g, 1, {"type": "pass"}, "game_over")
    g = game_at([["B5", "R1"], []], piles=[["B1", "B2", "B3", "B4"], [], [], []],
                chips=[{"blue": 4, "red": 1}, {"blue": 0, "red": 0}],
                options={"block_window": "holders"})  # fmt: skip
    play(g, 0, "B5", pile=0)
    assert g.status == "active"  # six chips, but only one red


# -- the turn -------------------------------------------------------------------


def test_discard_ends_the_turn_and_the_next_player_refills_to_five():
    g = game_at([["B2", "R3"], ["SKIP"], ["R1"]])
    assert_refused(g, 0, {"type": "pass"}, "illegal_action", "empty hand")
    events = g.apply(0, {"type": "discard", "card": "R3"})
    assert types(events) == ["discard", "turn", "draw"]
    assert g.to_move == [1] and g.view(1)["you"]["hand"][0] == "SKIP"
    assert len(g.view(1)["you"]["hand"]) == 5 and g.view()["discards"][0] == ["R3"]


def test_playing_the_top_of_the_own_discard_pile():
    g = game_at([["B1", "R4"], []], discards=[["R5", "B2"], ["B3"]])
    legal = g.legal_actions(0)
    assert {"type": "play", "card": "B2", "pile": 0, "from": "discard"} not in legal
    play(g, 0, "B1", pile=0)
    assert {"type": "play", "card": "B2", "pile": 0, "from": "discard"} in g.legal_actions(0)
    play(g, 0, "B2", pile=0, **{"from": "discard"})
    assert g.view()["discards"][0] == ["R5"] and g.view()["piles"][0] == ["B1", "B2"]
    assert_refused(g, 0, {"type": "play", "card": "B3", "pile": 0, "from": "discard"},
                   "illegal_action", "top of your discard pile is R5")  # fmt: skip


def test_the_discard_top_is_listed_even_when_the_hand_has_the_same_card():
    g = game_at([["B1"], []], discards=[["B1"], []])
    plays = [a for a in g.legal_actions(0) if a["type"] == "play"]
    assert plays == [
        {"type": "play", "card": "B1", "pile": 0}, {"type": "play", "card": "B1", "pile": 1},
        {"type": "play", "card": "B1", "pile": 0, "from": "discard"},
        {"type": "play", "card": "B1", "pile": 1, "from": "discard"},
    ]  # fmt: skip


def test_playing_the_whole_hand_draws_five_more():
    g = game_at([["B1", "B2"], []])
    play(g, 0, "B1", pile=0)
    events = play(g, 0, "B2", pile=0)
    assert events[-1] == {"type": "draw", "seat": 0, "count": 5}
    assert g.view()["players"][0]["hand_size"] == 5 and g.to_move == [0]


def test_empty_hand_with_nothing_to_draw_passes():
    deck = deck_without(deck_for(2), "B1")
    g = game_at([["B1"], []], discards=[deck, []], draw_pile=[])
    play(g, 0, "B1", pile=0)
    assert g.view(0)["you"]["hand"] == []
    assert {"type": "pass"} in g.legal_actions(0)
    events = g.apply(0, {"type": "pass"})
    assert events[0] == {"type": "pass", "seat": 0} and g.to_move == [1]


def test_the_set_aside_heap_is_reshuffled_when_the_draw_pile_runs_out():
    aside = ["B1", "B2", "B3", "B4", "B5"]
    deck = deck_without(deck_for(2), *aside, "R1", "R2")
    g = game_at([["R1"], ["R2"]], discards=[deck, []], set_aside=aside, draw_pile=[])
    events = g.apply(0, {"type": "discard", "card": "R1"})
    assert {"type": "reshuffle", "cards": 5} in events
    assert g.view(1)["you"]["hand"][0] == "R2" and len(g.view(1)["you"]["hand"]) == 5
    assert g.view()["set_aside_count"] == 0 and g.view()["discards"][0][-1] == "R1"


# -- action cards -----------------------------------------------------------------


def test_skip_in_a_two_player_game_gives_a_whole_new_turn():
    g = game_at([["SKIP", "B1", "R1"], ["R2"]])
    events = play(g, 0, "SKIP")
    assert events[0]["skipped"] == 1 and g.view()["players"][1]["skips"] == 1
    events = g.apply(0, {"type": "discard", "card": "R1"})
    assert types(events) == ["discard", "skipped", "turn", "draw"]
    assert g.to_move == [0] and len(g.view(0)["you"]["hand"]) == 5
    assert g.view()["players"][1]["skips"] == 0 and g.view()["special_discard"] == ["SKIP"]


def test_two_skips_in_one_turn_skip_the_next_player_twice():
    g = game_at([["SKIP", "SKIP", "R1"], ["R2"], ["R3"]])
    play(g, 0, "SKIP")
    play(g, 0, "SKIP")
    assert g.view()["players"][1]["skips"] == 2
    g.apply(0, {"type": "discard", "card": "R1"})
    assert g.to_move == [2]
    g.apply(2, {"type": "discard", "card": "R3"})
    assert g.to_move == [0] and g.view()["players"][1]["skips"] == 1
    g.apply(0, {"type": "discard", "card": g.view(0)["you"]["hand"][0]})
    assert g.to_move == [2]  # seat 1 loses its second turn too
    assert g.view()["players"][1]["skips"] == 0


def test_reverse_then_skip_skips_the_player_on_the_other_side():
    g = game_at([["REVERSE", "SKIP", "R1"], ["R2"], ["R3"], ["R4"]])
    events = play(g, 0, "REVERSE")
    assert events[0]["direction"] == -1 and g.view()["direction"] == -1
    events = play(g, 0, "SKIP")
    assert events[0]["skipped"] == 3
    g.apply(0, {"type": "discard", "card": "R1"})
    assert g.to_move == [2]


def test_a_skip_marker_stays_on_its_seat_when_the_direction_changes():
    g = game_at([["SKIP", "REVERSE", "R1"], ["R2"], ["R3"]])
    play(g, 0, "SKIP")  # marker on seat 1
    play(g, 0, "REVERSE")
    g.apply(0, {"type": "discard", "card": "R1"})
    assert g.to_move == [2]
    g.apply(2, {"type": "discard", "card": "R3"})
    assert g.to_move == [0]  # seat 1 is skipped going the other way round


def test_steal_a_card_takes_an_opponents_discard_top():
    g = game_at([["STEAL_CARD", "R1"], [], ["R3"]], discards=[[], ["B4", "B5"], []])
    assert plays_of(g, 0, "STEAL_CARD") == [{"type": "play", "card": "STEAL_CARD", "target": 1}]
    assert_refused(g, 0, {"type": "play", "card": "STEAL_CARD", "target": 2}, "illegal_action",
                   "seat 2's discard pile is empty")  # fmt: skip
    events = play(g, 0, "STEAL_CARD", target=1)
    assert events[0]["stolen"] == "B5"
    assert g.view(0)["you"]["hand"] == ["R1", "B5"] and g.view()["discards"][1] == ["B4"]


def test_steal_a_card_is_refused_when_every_opponent_discard_pile_is_empty():
    g = game_at([["STEAL_CARD", "R1"], [], []], discards=[["B1"], [], []])
    assert not plays_of(g, 0, "STEAL_CARD")
    assert_refused(g, 0, {"type": "play", "card": "STEAL_CARD", "target": 1}, "illegal_action")
    assert_refused(g, 0, {"type": "play", "card": "STEAL_CARD", "target": 0}, "illegal_action")


def test_steal_a_chip_moves_the_chosen_colour_from_the_chosen_opponent():
    chips = [{"blue": 1, "red": 0}, {"blue": 2, "red": 1}, {"blue": 0, "red": 0}]
    g = game_at([["STEAL_CHIP", "R1"], [], []], chips=chips)
    steals = [(a["target"], a["color"]) for a in plays_of(g, 0, "STEAL_CHIP")]
    assert steals == [(1, "blue"), (1, "red")]
    play(g, 0, "STEAL_CHIP", target=1, color="red")
    assert g.view()["chips"][:2] == [{"blue": 1, "red": 1}, {"blue": 2, "red": 0}]


def test_steal_a_chip_refused_when_it_would_win_or_nobody_has_a_chip():
    chips = [{"blue": 2, "red": 2}, {"blue": 1, "red": 1}]
    g = game_at([["STEAL_CHIP", "R1"], []], chips=chips)
    assert not plays_of(g, 0, "STEAL_CHIP")
    assert_refused(g, 0, {"type": "play", "card": "STEAL_CHIP", "target": 1, "color": "red"},
                   "illegal_action", "cannot be used to win")  # fmt: skip
    g = game_at([["STEAL_CHIP", "R1"], []])
    assert_refused(g, 0, {"type": "play", "card": "STEAL_CHIP", "target": 1, "color": "red"},
                   "illegal_action", "no opponent has a chip to steal")  # fmt: skip


def test_block_is_only_for_a_block_window():
    g = game_at([["BLOCK", "R1"], []])
    assert not plays_of(g, 0, "BLOCK")
    assert_refused(g, 0, {"type": "play", "card": "BLOCK"}, "illegal_action", "completes a pile")


# -- block windows ----------------------------------------------------------------


def completing(hands, options=None, **extra):
    """Seat 0 holds B5 for pile 0, which holds B1..B4."""
    piles = [["B1", "B2", "B3", "B4"], [], [], []]
    return game_at([["B5", "R1"], *hands], piles=piles, options=options, **extra)


def test_every_opponent_is_asked_and_must_answer_before_the_turn_continues():
    g = completing([["R2"], ["R3"]])
    events = play(g, 0, "B5", pile=0)
    assert types(events) == ["play", "complete", "block_window"]
    assert g.to_move == [1, 2] and g.view()["block_window"]["waiting"] == [1, 2]
    assert g.legal_actions(0) == [] and g.legal_actions(1) == [{"type": "pass"}]
    assert_refused(g, 0, {"type": "discard", "card": "R1"}, "not_your_turn")
    assert_refused(g, 1, {"type": "discard", "card": "R2"}, "illegal_action", "only play BLOCK")
    assert g.view()["piles"][0] == ["B1", "B2", "B3", "B4", "B5"]
    assert_round_trip(g)
    g.apply(2, {"type": "pass"})
    assert g.to_move == [1]
    events = g.apply(1, {"type": "pass"})
    assert types(events) == ["answer", "chip"] and g.to_move == [0]
    assert g.view()["chips"][0] == {"blue": 1, "red": 0} and g.view()["piles"][0] == []


def test_a_block_by_the_second_opponent_when_the_first_passes():
    g = completing([["R2"], ["BLOCK"]])
    play(g, 0, "B5", pile=0)
    g.apply(1, {"type": "pass"})
    events = g.apply(2, {"type": "play", "card": "BLOCK"})
    assert types(events) == ["answer", "block"] and events[1]["seat"] == 2
    view = g.view()
    assert view["chips"][0] == {"blue": 0, "red": 0} and view["special_discard"] == ["BLOCK"]
    assert view["set_aside_count"] == 5 and view["piles"][0] == [] and g.to_move == [0]


def test_when_two_block_the_first_in_turn_order_wins_and_the_other_keeps_its_card():
    g = completing([["R2"], ["BLOCK"], ["BLOCK"]], discards=[[], ["BLOCK"], [], []])
    play(g, 0, "B5", pile=0)
    assert g.legal_actions(1) == [
        {"type": "play", "card": "BLOCK", "from": "discard"},
        {"type": "pass"},
    ]
    answer = g.apply(3, {"type": "play", "card": "BLOCK"})
    assert answer == [{"type": "answer", "seat": 3}]  # hidden until the window closes
    g.apply(2, {"type": "play", "card": "BLOCK"})
    events = g.apply(1, {"type": "play", "card": "BLOCK", "from": "discard"})
    assert events[-1] == {"type": "block", "seat": 1, "pile": 0}
    assert g.view()["discards"][1] == [] and g.view(2)["you"]["hand"] == ["BLOCK"]
    assert g.view(3)["you"]["hand"] == ["BLOCK"] and g.view()["special_discard"] == ["BLOCK"]


def test_holders_mode_asks_only_opponents_holding_a_block():
    g = completing([["R2"], ["BLOCK"], ["R4"]], options={"block_window": "holders"},
                   discards=[[], [], [], ["BLOCK"]])  # fmt: skip
    play(g, 0, "B5", pile=0)
    assert g.to_move == [2, 3]


def test_holders_mode_with_no_holder_awards_at_once():
    g = completing([["R2"]], options={"block_window": "holders"})
    events = play(g, 0, "B5", pile=0)
    assert types(events) == ["play", "complete", "chip"] and g.to_move == [0]


def test_an_expired_window_counts_silence_as_pass_and_keeps_blocks_given():
    g = completing([["R2"], ["BLOCK"]], options={"response_timeout_s": 30})
    g.apply(0, {"type": "play", "card": "B5", "pile": 0}, now=1000.0)
    assert g.view()["block_window"]["deadline"] == 1030.0
    g.apply(2, {"type": "play", "card": "BLOCK"})
    assert g.expire(1029.9) == [] and g.to_move == [1]
    events = g.expire(1030.0)
    assert types(events) == ["window_expired", "block"] and g.to_move == [0]
    assert g.expire(2000.0) == []


def test_an_expired_window_with_no_block_awards_the_chip():
    g = completing([["R2"]], options={"response_timeout_s": 5})
    g.apply(0, {"type": "play", "card": "B5", "pile": 0}, now=10.0)
    assert types(g.expire(15.5)) == ["window_expired", "chip"]


def test_completing_with_the_last_card_draws_five_after_the_window():
    piles = [["B1", "B2", "B3", "B4"], [], [], []]
    g = game_at([["B5"], ["R2"]], piles=piles)
    play(g, 0, "B5", pile=0)
    assert g.view(0)["you"]["hand"] == []
    events = g.apply(1, {"type": "pass"})
    assert types(events) == ["answer", "chip", "draw"] and len(g.view(0)["you"]["hand"]) == 5


# -- the ends ---------------------------------------------------------------------


def test_a_full_round_with_nothing_to_draw_and_no_pile_play_is_a_draw():
    deck = deck_without(deck_for(2), "R1", "R2", "R3", "R4")
    g = game_at([["R1", "R2"], ["R3", "R4"]], discards=[deck, []], draw_pile=[])
    g.apply(0, {"type": "discard", "card": "R1"})
    assert g.status == "active"
    events = g.apply(1, {"type": "discard", "card": "R3"})
    assert g.result == {"draw": True} and events[-1]["type"] == "game_over"


def test_a_pile_play_resets_the_stalled_count():
    deck = deck_without(deck_for(2), "R2", "B2", "R1", "R4")
    g = game_at([["R2", "B2"], ["R1", "R4"]], discards=[deck, []], draw_pile=[])
    g.apply(0, {"type": "discard", "card": "R2"})
    play(g, 1, "R1", pile=2)
    g.apply(1, {"type": "discard", "card": "R4"})
    assert g.status == "active"  # seat 1 played onto a pile
    g.apply(0, {"type": "discard", "card": "B2"})
    assert g.status == "active"
    g.apply(1, {"type": "pass"})
    assert g.result == {"draw": True}


def test_the_game_is_drawn_when_both_chip_supplies_are_empty():
    chips = [{"blue": 1, "red": 18}, {"blue": 19, "red": 1}]
    g = game_at([["R5", "B1"], []], piles=[[], [], ["R1", "R2", "R3", "R4"], []], chips=chips,
                options={"block_window": "holders"})  # fmt: skip
    play(g, 0, "R5", pile=2)
    assert g.result == {"draw": True}


def test_the_game_is_drawn_after_a_thousand_turns():
    g = game_at([["R1", "R2"], ["R3", "R4"]])
    data = g.to_dict()
    data["turns"] = 999
    g = load_game(data)
    g.apply(0, {"type": "discard", "card": "R1"})
    assert g.result == {"draw": True}


# -- the play cap (docs/rules.md) ---------------------------------------------


def test_after_the_hundredth_play_of_a_turn_only_discard_is_legal():
    g = game_at([["B1", "B2", "R3"], ["R1"]], plays=99)
    assert plays_of(g, 0, "B1")
    play(g, 0, "B1", pile=0)
    assert g.view()["plays"] == 100
    assert {a["type"] for a in g.legal_actions(0)} == {"discard"}
    assert_refused(g, 0, {"type": "play", "card": "B2", "pile": 0}, "illegal_action",
                   "at most 100 plays")  # fmt: skip
    g.apply(0, {"type": "discard", "card": "R3"})
    assert g.view()["plays"] == 0 and g.to_dict()["position"]["plays"] == 0


def test_the_play_count_of_a_turn_round_trips():
    g = game_at([["B1", "B2", "R3"], ["R1"]], plays=7)
    play(g, 0, "B1", pile=0)
    assert load_game(g.to_dict()).view()["plays"] == 8

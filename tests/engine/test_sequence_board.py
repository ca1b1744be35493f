import random
from collections import Counter

from stacks_api.variants.sequence.board import (
    CARD_CELLS,
    CORNERS,
    JACKS,
    LAYOUT,
    RAYS,
    SPOTS,
    is_straight_line,
    line_patterns,
)


def test_each_non_jack_card_is_printed_exactly_twice():
    counts = Counter(code for code in LAYOUT if code != "XX")
    assert len(counts) == 48
    assert set(counts.values()) == {2}
    assert not JACKS & set(counts)


def test_corners_are_the_four_free_spaces():
    assert {0, 9, 90, 99} == CORNERS
    assert [LAYOUT[c] for c in sorted(CORNERS)] == ["XX"] * 4


def test_layout_matches_the_printed_board():
    # Spot checks against the table in docs/rules.md, row by row ends.
    rows = [LAYOUT[r * 10 : r * 10 + 10] for r in range(10)]
    assert rows[0][1:9] == ("2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S")
    assert rows[1][0] == "6C" and rows[1][9] == "TS"
    assert rows[5][4:6] == ("2H", "3H")
    assert rows[9][1:9] == ("AD", "KD", "QD", "TD", "9D", "8D", "7D", "6D")
    assert CARD_CELLS["2S"] == (1, 86)


# The printed board as docs/rules.md lists it, transcribed independently of the JSON.
PRINTED = """
XX 2S 3S 4S 5S 6S 7S 8S 9S XX
6C 5C 4C 3C 2C AH KH QH TH TS
7C AS 2D 3D 4D 5D 6D 7D 9H QS
8C KS 6C 5C 4C 3C 2C 8D 8H KS
9C QS 7C 6H 5H 4H AH 9D 7H AS
TC TS 8C 7H 2H 3H KH TD 6H 2D
QC 9S 9C 8H 9H TH QH QD 5H 3D
KC 8S TC QC KC AC AD KD 4H 4D
AC 7S 6S 5S 4S 3S 2S 2H 3H 5D
XX AD KD QD TD 9D 8D 7D 6D XX
"""


def test_packaged_layout_is_the_printed_board():
    assert tuple(PRINTED.split()) == LAYOUT


def test_straight_lines():
    assert is_straight_line([0, 1, 2, 3, 4])
    assert is_straight_line([4, 13, 22, 31, 40])  # down-left diagonal
    assert not is_straight_line([8, 9, 10, 11, 12])  # wraps around the edge
    assert not is_straight_line([0, 1, 2, 3, 5])


def test_line_patterns_tell_the_runs_a_walk_along_the_board_finds():
    # The five-in-a-row tables against a plain walk outward from the cell, on random
    # sets of held spaces (corners always held).
    rng = random.Random(7)
    for _ in range(3000):
        held = {c for c in range(100) if rng.random() < 0.55} | CORNERS
        cell = rng.randrange(100)
        held.add(cell)
        patterns = line_patterns(held)
        for (line, _, five, runs), (behind, ahead) in zip(SPOTS[cell], RAYS[cell], strict=True):
            back = next((k for k, c in enumerate(behind) if c not in held), len(behind))
            fwd = next((k for k, c in enumerate(ahead) if c not in held), len(ahead))
            expected = (back, fwd) if back + fwd >= 4 else None
            assert runs[patterns[line]] == expected
            assert five[patterns[line]] == (expected is not None)

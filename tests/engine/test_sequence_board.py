import json
from collections import Counter
from pathlib import Path

from stacks_api.engine.sequence.board import (
    CARD_CELLS,
    CORNERS,
    JACKS,
    LAYOUT,
    is_straight_line,
)

SHARED = Path(__file__).resolve().parents[3] / "shared" / "board-layout.json"


def test_each_non_jack_card_is_printed_exactly_twice():
    counts = Counter(code for code in LAYOUT if code != "XX")
    assert len(counts) == 48
    assert set(counts.values()) == {2}
    assert not JACKS & set(counts)


def test_corners_are_the_four_free_spaces():
    assert {0, 9, 90, 99} == CORNERS
    assert [LAYOUT[c] for c in sorted(CORNERS)] == ["XX"] * 4


def test_layout_matches_the_printed_board():
    # Spot checks against the table in RULES.md 1.1, row by row ends.
    rows = [LAYOUT[r * 10 : r * 10 + 10] for r in range(10)]
    assert rows[0][1:9] == ("2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S")
    assert rows[1][0] == "6C" and rows[1][9] == "TS"
    assert rows[5][4:6] == ("2H", "3H")
    assert rows[9][1:9] == ("AD", "KD", "QD", "TD", "9D", "8D", "7D", "6D")
    assert CARD_CELLS["2S"] == (1, 86)


def test_packaged_layout_is_the_shared_one():
    packaged = Path(__file__).resolve().parents[2] / "stacks_api/engine/sequence/board-layout.json"
    assert json.loads(packaged.read_text()) == json.loads(SHARED.read_text())


def test_straight_lines():
    assert is_straight_line([0, 1, 2, 3, 4])
    assert is_straight_line([4, 13, 22, 31, 40])  # down-left diagonal
    assert not is_straight_line([8, 9, 10, 11, 12])  # wraps around the edge
    assert not is_straight_line([0, 1, 2, 3, 5])

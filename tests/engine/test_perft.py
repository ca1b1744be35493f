"""The engine still offers exactly the recorded legal actions along every scripted line."""

import json

import pytest

from .perft import CASES, DATA, line

RECORDED = json.loads(DATA.read_text())


@pytest.mark.parametrize(
    "case", RECORDED, ids=lambda c: f"{c['variant']}-{c['players']}p-{c['seed']}"
)
def test_legal_action_counts_along_a_scripted_line(case):
    assert line(case) == case["counts"]


def test_the_data_covers_every_case():
    assert [{k: v for k, v in c.items() if k != "counts"} for c in RECORDED] == CASES

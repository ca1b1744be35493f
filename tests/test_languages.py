"""The web client's six tables of words: each has every key of the English one, and
words for every refusal code the server can send (the client shows its own words,
never the server's English ``detail``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stacks_api.model.codes import CODES

LANG = Path(__file__).resolve().parents[1] / "stacks_api" / "web" / "static" / "lang"
LANGUAGES = ["en", "pl", "fi", "cs", "pt", "ro"]


def keys(code: str) -> set[str]:
    text = (LANG / f"{code}.js").read_text(encoding="utf-8")
    return set(re.findall(r"^  (\w+): ", text, flags=re.MULTILINE))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_code_has_words_in_each_language(language):
    missing = sorted(code for code in CODES if f"problem_{code}" not in keys(language))
    assert not missing, f"{language}.js has no words for {missing}"
    assert {"problem_offline", "problem_unknown"} <= keys(language)


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_each_language_has_every_english_key(language):
    assert sorted(keys("en") - keys(language)) == []

"""What a player's name may hold: it is shown to everyone, in every view."""

from __future__ import annotations

import unicodedata

from marshmallow import ValidationError

# Control, format (zero-width spaces and joiners; the bidirectional embeddings,
# overrides and isolates that could reverse the words after a name), surrogate,
# private-use and unassigned code points, and line or paragraph separators.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


# The zero-width joiner and non-joiner: invisible, but needed between two visible
# characters (emoji sequences such as a woman at a computer, Persian words).
JOINERS = frozenset("\u200d\u200c")


def _seen(char: str) -> bool:
    return unicodedata.category(char)[0] in "LMNPS"


def shown_name(name: str) -> None:
    """A player's name is shown to everyone: refuse control characters (NUL, ESC,
    line breaks), invisible ones (zero-width spaces and joiners, bidirectional
    controls, private-use and unassigned code points), unpaired surrogates, and
    names with nothing visible."""
    shown_text(name, "a name")
    if name != name.strip():
        raise ValidationError("a name cannot begin or end with a space")


def shown_text(name: str, what: str = "a line of chat") -> None:
    """Text shown to everyone (``what`` it is): visible characters only, as a name."""
    for at, char in enumerate(name):
        kind = unicodedata.category(char)
        if (
            char in JOINERS
            and 0 < at < len(name) - 1
            and _seen(name[at - 1])
            and _seen(name[at + 1])
        ):
            continue  # joins the characters around it (an emoji sequence, Persian script)
        if kind in HIDDEN_CATEGORIES:
            raise ValidationError(
                f"{what} cannot hold the invisible or control character U+{ord(char):04X}; "
                "use letters, digits, spaces and punctuation"
            )
    if not any(unicodedata.category(char)[0] in "LNPS" for char in name):
        raise ValidationError(f"{what} needs at least one visible character")

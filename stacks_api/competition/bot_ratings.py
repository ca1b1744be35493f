"""Where the bot levels' ratings start on a new server: where the measured ladder
puts them, not all at 1500 (a new player losing to ``beginner`` would lose as much
as to ``strong``).

Each variant lists its levels' starting ratings (``Variant.level_ratings``),
worked out from the ladder's head-to-head results (docs/bots.md): two ratings
``d`` apart give the stronger side a win rate of ``1 / (1 + exp(-d / c))`` in the
rating model, with ``c`` about 410 for two such ratings, so each measured rate
``p`` sets a gap of ``c * ln(p / (1 - p))``, with ``easy`` at 1500 (where a
newcomer who knows the rules starts; ``random`` starts there too, unmeasured). They
start with an uncertainty of ``LEVEL_SIGMA`` (not provisional), and then move with
their games like anyone's.
"""

from __future__ import annotations

from .. import variants
from ..bots import canonical
from .ratings import Rating, bot_subject

LEVEL_SIGMA = 150.0


def start(subject: str, variant: str) -> Rating:
    """The rating ``subject`` starts with in ``variant``."""
    known = variants.get(variant)
    prefix = bot_subject("")
    if known is None or not subject.startswith(prefix):
        return Rating()
    mu = known.level_ratings.get(canonical(subject.removeprefix(prefix)))
    return Rating() if mu is None else Rating(mu, LEVEL_SIGMA)

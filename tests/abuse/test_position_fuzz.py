"""Mutated positions are refused with a reason, or load and play to the end: never a crash.

Valid positions come from seeded random games at random moments; each is
mutated once (a leaf replaced by a value of another type or out of range, a key
dropped or added, a list grown or shrunk) and given to ``create_game``.
"""

import copy
import random

import pytest

from stacks_api.engine import SetupError, create_game

MUTANTS_PER_VARIANT = 3000
ODD_VALUES = [
    -1, 0, 1, 2, 3, 7, 11, 99, 100, 101, 1000, 10**6, -(10**9), 2**63, 1.0, -1.0, 0.5,
    True, False, None, "", "X", "B1", "7H", "JD", [], [[]], {}, {"a": 1}, [1, 2], "1",
]  # fmt: skip
CARDS = ["2S", "7H", "JD", "JH", "AC", "QS", "B1", "B5", "BW", "R3", "RW", "SKIP", "BLOCK",
         "STEAL_CHIP"]  # fmt: skip
SETUPS = {"sequence": [(2, None), (3, None), (4, {"teams": 2})], "stacks": [(2, None), (3, None)]}


def random_position(variant: str, rng: random.Random) -> tuple[int, dict | None, dict]:
    players, options = rng.choice(SETUPS[variant])
    game = create_game(variant, players=players, seed=rng.randrange(10**6), options=options)
    for _ in range(rng.randrange(60)):
        if game.result is not None:
            break
        seat = game.to_move[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)), now=0.0)
    if game.result is not None or len(game.to_move) != 1:
        return random_position(variant, rng)  # a position is a fresh turn of a live game
    return players, options, game.to_dict()["position"]


def leaves(node: object, path: tuple = ()) -> list[tuple]:
    """Paths to every value inside ``node`` (containers included)."""
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += leaves(value, (*path, i))
    return found


def mutate(position: dict, rng: random.Random) -> dict:
    mutant = copy.deepcopy(position)
    if rng.random() < 0.8:
        del mutant["draw_pile"]  # the rest is shuffled in: card mutations can still load
    key = rng.choice(list(mutant))  # every part of the position, whatever its size
    path = rng.choice(leaves(mutant[key], (key,)))
    parent = mutant
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    kind = rng.randrange(7)
    if kind == 0 and isinstance(parent, dict):
        del parent[last]
    elif kind == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "skips", "plays", "direction", "turn", "sequences"])] = (
            rng.choice(ODD_VALUES)
        )
    elif kind == 2 and isinstance(parent[last], list):
        items = parent[last]
        if items and rng.random() < 0.5:
            items.pop(rng.randrange(len(items)))
        else:
            items.append(
                rng.choice(items) if items and rng.random() < 0.7 else rng.choice(ODD_VALUES)
            )
    elif kind == 3 and isinstance(parent[last], int) and not isinstance(parent[last], bool):
        parent[last] += rng.choice([-1, 1])  # just off a valid value
    elif kind == 4 and isinstance(parent[last], str) and len(parent[last]) <= 8:
        parent[last] = rng.choice(CARDS)  # another real card code
    else:
        parent[last] = rng.choice(ODD_VALUES)
    return mutant


def play_out(game, rng: random.Random) -> None:
    for _ in range(5000):
        if game.result is not None:
            return
        for seat in range(game.players):
            game.view(seat)
            game.legal_actions(seat)
        seat = game.to_move[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)), now=0.0)
    raise AssertionError("a game from a mutated position did not end")


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_every_mutated_position_is_refused_with_a_reason_or_plays_to_the_end(variant):
    rng = random.Random(f"fuzz-{variant}")
    refused = loaded = 0
    for n in range(MUTANTS_PER_VARIANT):
        if n % 50 == 0:
            players, options, position = random_position(variant, rng)
        mutant = mutate(position, rng)
        try:
            game = create_game(variant, players=players, seed=n, options=options, position=mutant)
        except SetupError as err:
            assert err.field == "position" and str(err).startswith("position: "), str(err)
            refused += 1
            continue
        loaded += 1
        game.view(None)
        play_out(game, random.Random(n))
    assert refused and loaded, (refused, loaded)  # the mutations reach both outcomes

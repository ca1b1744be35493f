"""Duplicate challenges: two people, each playing the same deal from the same seat
against the same bot, at the same time, and the match between them.

An accepted duplicate challenge makes its two games at once, named from the match
(``model.challenges.match_games``): the challenger's and the challenged
player's, each person in seat 0 and the bot in seat 1. Both are dealt from the
challenge's committed seed and the two people's entropy mixed into one, at each
seat of both games, so both deals are the same; both share one bot seed (the
bot draws alike in alike positions). Each game is closed to all but its own
person until both have ended (``service.seals``); then ``match`` compares the two
results as a duplicate event does (``competition.duplicate``).
"""

from __future__ import annotations

import hashlib

from ..competition.duplicate import Held
from ..engine import create_game, restore_game
from ..model.challenges import Challenge, match_games
from ..model.fairness import SCHEME, mixed_entropy
from ..model.record import JSON, Fairness, GameRecord, Seat
from ..model.refusals import Refusal
from ..model.tokens import new_token, token_hash
from .duplicate import table_detail
from .lobby import START_RATING, Lobby
from .table import Table
from .tournament_games import found_game, game_events
from .views import render


class DuplicateGames:
    def __init__(self, table: Table, lobby: Lobby) -> None:
        self.table = table
        self.lobby = lobby

    def open(self, challenge: Challenge) -> JSON:
        """Both games of the accepted challenge (each made unless it exists); the
        challenged player's, as they see it."""
        assert challenge.bot is not None
        entropy = mixed_entropy([challenge.challenger_entropy, challenge.challenged_entropy])
        fair = Fairness(SCHEME, challenge.commitment, challenge.server_seed, (entropy, entropy))
        bot_seed = _bot_seed(challenge.server_seed)
        games = match_games(challenge.id)
        group = {"match": challenge.id, "games": list(games)}
        people = [
            (challenge.challenger, challenge.challenger_name, challenge.challenger_token),
            (challenge.challenged, challenge.challenged_name, challenge.challenged_token),
        ]
        options = {"turn_seconds": challenge.turn_seconds} if challenge.turn_seconds else None
        record = None
        for game_id, (player, name, token) in zip(games, people, strict=True):
            game = create_game(challenge.variant, 2, 0, options)  # dealt when it starts
            seats = (Seat("human", name=name, token=token, player_id=player,
                          rating=self.table.ratings_of(player).get(challenge.variant,
                                                                   START_RATING)),
                     Seat.for_bot(challenge.bot, {}))  # fmt: skip
            made, events = self.lobby.opened(
                game_id, game, seats, token_hash(new_token()), fair, unlisted=True,
                days=challenge.days, duplicate=group, bot_seed=bot_seed,
            )  # fmt: skip
            created = self.table.create(made, events)
            if created is not None:
                self.table.schedule(created)
                self.table.store.index_player_game(player, game_id, self.table.clock())
            record = created or self.table.load(game_id)
        assert record is not None
        return render(record, self.table.game(record), 0)

    def match(self, match_id: str) -> JSON:
        """The match: both games, and once both have ended each person's result and
        the winner (the better result on the same deal; null on a tie)."""
        found = [found_game(self.table, game_id) for game_id in match_games(match_id)]
        if all(record is None for record in found):
            raise Refusal("not_found", f"no duplicate match with id {match_id!r}")
        over = all(record is not None and record.ended for record in found)
        games, held = [], []
        for number, (game_id, record) in enumerate(zip(match_games(match_id), found, strict=True)):
            person = None if record is None else record.seats[0]
            shown: JSON = {
                "game_id": game_id, "status": _status(record, over),
                "player_id": None if person is None else person.player_id,
                "name": None if person is None else person.name,
                "score": None, "turns": None, "progress": None,
            }  # fmt: skip
            if over and record is not None:
                detail = table_detail(restore_game(record.game), game_events(self.table, record))
                score = 0.0 if record.result is None else record.result.scores[0]
                shown.update(score=score, turns=detail["turns"], progress=detail["progress"][0])
                held.append(Held(game_id, number, 0, score, detail["turns"],
                                 detail["progress"][0]))  # fmt: skip
            games.append(shown)
        winner = None
        if over and held[0].strength() != held[1].strength():
            best = 0 if held[0].strength() > held[1].strength() else 1
            winner = games[best]["player_id"]
        made = next(r for r in found if r is not None)
        commitment = None if made.fairness is None else made.fairness.commitment
        return {"id": match_id, "variant": made.variant, "bot": made.seats[1].bot,
                "commitment": commitment,
                "status": "over" if over else "playing", "games": games,
                "winner": winner, "draw": over and winner is None}  # fmt: skip


def _status(record: GameRecord | None, over: bool) -> str:
    """A game's status as the match shows it: one that ended before the other is
    still "active", since whether a board is over tells the other player something
    of it (a short game, a resignation)."""
    if record is None:
        return "waiting"
    return "active" if record.ended and not over else record.status


def _bot_seed(server_seed: str) -> int:
    """The bot seed both games share, drawn from the deal's secret server seed."""
    digest = hashlib.sha256(b"stacks-duplicate-bot" + bytes.fromhex(server_seed)).digest()
    return int.from_bytes(digest[:8], "big") & (2**63 - 1)

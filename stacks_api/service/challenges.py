"""Challenges: one player asks another, by name, for a game.

A challenge waits ``EXPIRES_S`` for its answer; a challenger has at most
``MOST_PENDING`` waiting at once, and one at a time to the same player. A player
may take challenges from nobody (a setting of their account); nobody challenges
themself.

The deal is committed when the challenge is made (its commitment is shown to
both), the challenger's entropy comes with the challenge and the challenged
one's with the acceptance, after the commitment was shown: the server cannot
steer a deal it committed to before one of the players chose their part. The
acceptance settles the challenge (a compare-and-set: a challenge is accepted,
declined, cancelled or expired once) and then makes the game, both seated:
each side's seat token comes with its own answer (the challenger's with the
challenge). A process that dies between the two leaves an accepted challenge
whose game does not exist yet: the next read of it (after ``RECOVER_AFTER_S``,
and within ``RECOVER_WITHIN_S``) makes the game, the same one (a duplicate
challenge's two games, whichever is missing).
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from .. import bots
from ..engine import SetupError, create_game
from ..model.challenges import Answer, Challenge, match_games
from ..model.fairness import SCHEME, commitment, server_seed
from ..model.pace import DAY_S
from ..model.record import JSON, Fairness, Seat
from ..model.refusals import Refusal, validation_error
from ..model.tokens import new_token, token_hash
from ..store import ChallengeBoard
from .cursors import cursor, read_cursor
from .duplicate_games import DuplicateGames
from .lobby import START_RATING, Lobby
from .pairing import RATED_CLOCK_S, RECOVER_AFTER_S
from .rated_pairs import PAIR_LIMIT, at_limit
from .table import Table
from .views import render

EXPIRES_S = 600.0
DAYS_EXPIRES_S = 3 * DAY_S  # a days game's players need not be online together
MOST_PENDING = 5
# A lost game is made again only this soon after the answer: an ended game stays
# in the live store a day (``store.TTL_SECONDS``), so one that was made is still
# found then, and a game archived and gone from it is never made twice.
RECOVER_WITHIN_S = 3600.0
ANSWERS = {"accept": "accepted", "decline": "declined", "cancel": "cancelled"}


class Challenges:
    def __init__(self, table: Table, lobby: Lobby) -> None:
        self.table = table
        self.lobby = lobby
        self.duplicates = DuplicateGames(table, lobby)

    @property
    def board(self) -> ChallengeBoard:
        return self.table.store.challenges

    def challenge(self, player_id: str, target: str, body: JSON) -> tuple[JSON, str]:
        """Challenge ``target``; the challenge and the challenger's seat token."""
        archive = self.table.archive_for("accounts")
        if target == player_id:
            raise validation_error("player", "you cannot challenge yourself")
        them = archive.accounts.player(target)
        if them is None or them["deleted"] or them["closed"]:
            raise Refusal("not_found", f"no player with id {target!r} to challenge")
        if not them["accepts_challenges"]:
            raise Refusal("forbidden", f"{them['name']} takes no challenges")
        me = archive.accounts.player(player_id)
        assert me is not None  # the caller's key was found
        players, rated, days = body.get("players", 2), bool(body.get("rated")), body.get("days")
        if days is not None and body.get("clock"):
            raise validation_error("days", "a challenge has days a turn or a clock, not both")
        duplicate = body.get("deals") == "duplicate"
        # A rated game, or a duplicate match (whose result waits on both games), is
        # never unclocked: an abandoned game must end by itself.
        clocked = rated or duplicate
        seconds = None if days else body.get("clock") or (RATED_CLOCK_S if clocked else None)
        options = {"turn_seconds": seconds} if seconds else None
        try:  # the variant checks the player count and the clock
            create_game(body["variant"], players, 0, options)
        except SetupError as err:
            raise validation_error(err.field, err.message) from None
        if rated and body.get("entropy") is None:
            raise validation_error("entropy", "a rated game is dealt with every person's "
                                              "entropy: send some")  # fmt: skip
        if duplicate:
            _check_duplicate(players, rated, body.get("bot"))
        elif body.get("bot") is not None:
            raise validation_error("bot", "a bot is played in a duplicate challenge only")
        token, seed, now = new_token(), server_seed(), self.table.clock()
        made = Challenge(
            id=secrets.token_hex(8), challenger=player_id, challenger_name=me["name"],
            challenged=target, challenged_name=them["name"], variant=body["variant"],
            players=players, rated=rated, turn_seconds=seconds, days=days,
            unlisted=bool(body.get("unlisted")), server_seed=seed,
            commitment=commitment(seed, None), challenger_entropy=_entropy(body.get("entropy")),
            challenger_token=token_hash(token), created_at=now,
            expires_at=now + (EXPIRES_S if days is None else DAYS_EXPIRES_S),
            deals="duplicate" if duplicate else "standard",
            bot=body.get("bot") if duplicate else None,
        )  # fmt: skip
        refused = self.board.add(made, MOST_PENDING)
        if refused == "pending":
            raise Refusal("challenge_pending", f"your challenge to {them['name']} waits "
                                               "for an answer already")  # fmt: skip
        if refused == "limit":
            raise Refusal("rate_limited", f"at most {MOST_PENDING} of your challenges may wait "
                                          "at once", retry_after=60)  # fmt: skip
        return self._shown(made), token

    def _shown(self, challenge: Challenge) -> JSON:
        """A challenge as its players see it: a rated one between two accounts that
        began three rated games together lately says it would be played unrated."""
        limited = (challenge.rated and challenge.pending
                   and at_limit(self.table.store, challenge.challenger, challenge.challenged,
                                self.table.clock()))  # fmt: skip
        return {**challenge.shown(), "unrated": PAIR_LIMIT if limited else None}

    def settings(self, player_id: str, accepts: bool | None = None) -> JSON:
        """The player's settings, changed first if ``accepts`` is given."""
        archive = self.table.archive_for("accounts")
        if accepts is not None:
            archive.accounts.set_challenges(player_id, accepts)
        player = archive.accounts.player(player_id)
        assert player is not None  # the caller's key was found
        return {"accepts_challenges": player["accepts_challenges"]}

    def of(
        self, player_id: str, after: str | None = None, limit: int = 20
    ) -> tuple[list[JSON], str | None]:
        """A page of the player's challenges, sent and received, newest first, and the
        cursor of the next page (None: this was the last)."""
        every = self.board.of(player_id)  # newest first: (created_at, id) descending
        if after is not None:
            at, last_id = read_cursor(after)
            every = [c for c in every if (c.created_at, c.id) < (at, last_id)]
        page = [self._shown(self._current(c)) for c in every[:limit]]
        more = len(every) > limit
        return page, cursor(page[-1]["created_at"], page[-1]["id"]) if more else None

    def get(self, player_id: str, challenge_id: str) -> JSON:
        return self._shown(self._own(player_id, challenge_id))

    def answer(self, player_id: str, challenge_id: str, how: str, entropy: str | None) -> JSON:
        """Accept, decline or cancel a pending challenge; an acceptance answers the game
        as the accepter's seat sees it and that seat's token."""
        challenge = self._own(player_id, challenge_id)
        allowed = challenge.challenger if how == "cancel" else challenge.challenged
        if player_id != allowed:
            who = "its challenger" if how == "cancel" else "the challenged player"
            raise Refusal("forbidden", f"only {who} may {how} a challenge")
        if not challenge.pending:
            raise Refusal("challenge_closed", f"the challenge is {challenge.status}")
        answer = Answer(answered_at=self.table.clock())
        token = None
        if how == "accept" and self._gone(challenge.challenger):
            self.board.settle(challenge_id, "cancelled", answer)
            raise Refusal("challenge_closed", "the challenger's account was closed")
        if how == "accept":
            if challenge.rated and entropy is None:
                raise validation_error("entropy", "a rated game is dealt with every person's "
                                                  "entropy: send some")  # fmt: skip
            token = new_token()
            game_id = match_games(challenge.id)[0] if challenge.duplicate else None
            answer = replace(answer, game_id=game_id or secrets.token_hex(8),
                             challenged_token=token_hash(token),
                             challenged_entropy=_entropy(entropy))  # fmt: skip
        settled = self.board.settle(challenge_id, ANSWERS[how], answer)
        # Ours only if it took our answer (a racing acceptance made another game id).
        if settled is None:
            raise Refusal("not_found", f"you have no challenge with id {challenge_id!r}")
        if settled.status != ANSWERS[how] or settled.game_id != answer.game_id:
            raise Refusal("challenge_closed", f"the challenge is {settled.status}")
        if token is None:
            return {"challenge": self._shown(settled)}
        game = self._open(settled)
        seat = game["you"]["seat"]
        return {"challenge": self._shown(settled), "game": game, "seat": seat, "token": token}

    def _gone(self, player_id: str) -> bool:
        """Whether the account was closed or deleted (its challenges die with it)."""
        try:
            self.table.refuse_closed(player_id)
        except Refusal:
            return True
        return False

    def _own(self, player_id: str, challenge_id: str) -> Challenge:
        found = self.board.get(challenge_id)
        if found is None or player_id not in (found.challenger, found.challenged):
            raise Refusal("not_found", f"you have no challenge with id {challenge_id!r}")
        return self._current(found)

    def _current(self, challenge: Challenge) -> Challenge:
        """The challenge now: expired once its time is up, and an accepted one's game
        made if its process died before making it."""
        now = self.table.clock()
        if challenge.pending and now >= challenge.expires_at:
            return self.board.settle(challenge.id, "expired", Answer()) or challenge
        answered = challenge.answered_at or now
        lost = (
            challenge.status == "accepted"
            and challenge.game_id is not None
            and answered + RECOVER_AFTER_S <= now < answered + RECOVER_WITHIN_S
            and any(self.table.store.load(game_id) is None for game_id in _games(challenge))
        )
        if lost:
            self._open(challenge)
        return challenge

    def _open(self, challenge: Challenge) -> JSON:
        """The accepted challenge's game (made unless it exists), as its accepter sees it:
        the challenger in seat 0, the accepter in seat 1, any other seat open (a
        duplicate challenge's two games: ``duplicate_games``)."""
        assert challenge.game_id is not None  # accepted
        if challenge.duplicate:
            return self.duplicates.open(challenge)
        players, seconds = challenge.players, challenge.turn_seconds
        game = create_game(challenge.variant, players, secrets.randbits(63),
                           {"turn_seconds": seconds} if seconds else None)  # fmt: skip
        taken = [
            (challenge.challenger, challenge.challenger_name, challenge.challenger_token),
            (challenge.challenged, challenge.challenged_name, challenge.challenged_token),
        ]
        seats = tuple(
            Seat("human", name=name, token=token, player_id=player,
                 rating=self.table.ratings_of(player).get(challenge.variant, START_RATING))
            for player, name, token in taken
        ) + tuple(Seat("free") for _ in range(players - 2))  # fmt: skip
        entropy = (challenge.challenger_entropy, challenge.challenged_entropy)
        fair = Fairness(SCHEME, challenge.commitment, challenge.server_seed,
                        entropy + (None,) * (players - 2))  # fmt: skip
        record, events = self.lobby.opened(
            challenge.game_id, game, seats, token_hash(new_token()), fair,
            unlisted=challenge.unlisted, rated=challenge.rated, days=challenge.days,
        )  # fmt: skip
        made = self.table.create(record, events)
        if made is not None:
            record = made
            self.table.schedule(record)
            for player, _, _ in taken:
                self.table.store.index_player_game(player, record.id, self.table.clock())
        else:
            record = self.table.load(record.id)
        return render(record, self.table.game(record), 1)


def _games(challenge: Challenge) -> tuple[str, ...]:
    """The games an accepted challenge makes: its game, or a duplicate match's two."""
    assert challenge.game_id is not None
    return match_games(challenge.id) if challenge.duplicate else (challenge.game_id,)


def _entropy(given: Any) -> str | None:
    return None if given is None else str(given).lower()


def _check_duplicate(players: int, rated: bool, bot: str | None) -> None:
    """A duplicate challenge: two people, each against the same bot, unrated."""
    if players != 2:
        raise validation_error("players", "a duplicate challenge is two people, each "
                                          "playing the bot")  # fmt: skip
    if rated:
        raise validation_error("rated", "a duplicate challenge is played against a bot: "
                                        "it is not rated")  # fmt: skip
    if bot not in bots.NAMES:
        raise validation_error("bot", f"choose the bot both of you play: one of "
                                      f"{', '.join(bots.BOTS)}")  # fmt: skip

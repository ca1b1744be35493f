"""The Sequence Stacks rules (docs/rules.md) behind the engine façade; the block
window's are in window.py."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from ...rules.base import Action, Event, is_int
from ...rules.errors import bad_action, illegal
from .actions import (
    DISCARD,
    ON_PILE,
    PASS,
    PLAY_FIELDS,
    SIMPLE,
    SOURCES,
    STEAL_CARD_PLAYS,
    STEAL_CHIP_PLAYS,
    BuiltAction,
)
from .cards import (
    BLOCK,
    CARD_SET,
    COLOR_OF,
    COLORS,
    HAND_SIZE,
    MAX_PLAYS_PER_TURN,
    MAX_TURNS,
    PILE_COLORS,
    PILE_FIT,
    PILE_LENGTH,
    PILES,
    REVERSE,
    SKIP,
    STEAL_CARD,
    STEAL_CHIP,
    fits_pile,
    winning,
)
from .state import StacksState
from .window import BlockWindowRules


def _on_piles(source: str, card: str) -> tuple[int, int, tuple[bool, ...], Action, Action] | None:
    """PILE_FIT of a coloured card and its plays from ``source`` onto its two piles."""
    if card not in PILE_FIT:
        return None  # an action card
    first, second, fits = PILE_FIT[card]
    return first, second, fits, ON_PILE[source][card][first], ON_PILE[source][card][second]


_ON_PILES = {source: {card: _on_piles(source, card) for card in CARD_SET} for source in SOURCES}


class StacksGame(BlockWindowRules, StacksState):
    """One game of Sequence Stacks: four shared piles, action cards, chips of two colours."""

    variant: ClassVar[str] = "stacks"
    action_keys: ClassVar[dict[str, frozenset[str]]] = {
        "play": frozenset({"type", "card", "from", "pile", "target", "color"}),
        "discard": frozenset({"type", "card"}),
        "pass": frozenset({"type"}),
    }
    card_codes: ClassVar[frozenset[str]] = CARD_SET
    card_example: ClassVar[str] = "'B3' or 'SKIP'"

    # -- who acts, and how --------------------------------------------------

    @property
    def to_move(self) -> list[int]:
        if self.result is not None:
            return []
        if self.window is not None:
            return self.window.waiting()
        return [self.turn]

    def _may_act(self, seat: int) -> bool:
        return seat == self.turn if self.window is None else seat in self.window.waiting()

    def _prebuilt(self, action: object) -> bool:
        if type(action) is BuiltAction:
            return True
        if type(action) is not dict:
            return False
        kind, card = action.get("type"), action.get("card")
        if type(card) is not str:
            return action == PASS
        if kind == "discard":
            return DISCARD.get(card) == action
        # The usual play: a coloured card onto a pile, from the hand or the discard top.
        source, pile = action.get("from", "hand"), action.get("pile")
        moves = _ON_PILES.get(source) if type(source) is str else None
        fit = moves.get(card) if moves is not None else None  # None too for an action card
        if fit is None or type(pile) is not int:
            return False
        return (pile == fit[0] and fit[3] == action) or (pile == fit[1] and fit[4] == action)

    def legal_actions(self, seat: int) -> list[Action]:
        if self.result is not None or not self._may_act(seat):
            return []
        if self.window is not None:
            return self._block_answers(seat)
        hand = self.hands[seat]
        distinct = dict.fromkeys(hand)
        actions: list[Action] = []
        if self.plays < MAX_PLAYS_PER_TURN:
            lengths = list(map(len, self.piles))
            self._plays_of(seat, "hand", distinct, lengths, actions)
            if self.discards[seat]:
                self._plays_of(seat, "discard", self.discards[seat][-1:], lengths, actions)
        actions += map(DISCARD.__getitem__, distinct)
        if not hand:
            actions.append(PASS)
        return actions

    def _plays_of(
        self, seat: int, source: str, cards: Iterable[str], lengths: list[int], out: list[Action]
    ) -> None:
        """Append every legal play of ``cards`` from ``source`` outside a block window
        (``lengths``: the piles' lengths)."""
        on_piles, append = _ON_PILES[source], out.append
        for card in cards:
            fit = on_piles[card]
            if fit is None:
                self._action_card_plays(seat, source, card, out)
                continue
            first, second, fits, on_first, on_second = fit
            if fits[lengths[first]]:
                append(on_first)
            if fits[lengths[second]]:
                append(on_second)

    def _action_card_plays(self, seat: int, source: str, card: str, out: list[Action]) -> None:
        """Append every legal play of an action card from ``source``."""
        if card in (SKIP, REVERSE):
            out.append(SIMPLE[source][card])
        elif card == STEAL_CARD:
            out += [STEAL_CARD_PLAYS[source][t] for t in self._opponents(seat) if self.discards[t]]
        elif card == STEAL_CHIP:
            out += [
                STEAL_CHIP_PLAYS[source][t][color]
                for t in self._opponents(seat)
                for color in COLORS
                if self._steal_chip_problem(seat, t, color) is None
            ]

    def _opponents(self, seat: int) -> list[int]:
        """The other seats in turn order from ``seat`` (current direction)."""
        n, d = self.players, self.direction
        return [(seat + k * d) % n for k in range(1, n)]

    def _steal_chip_problem(self, seat: int, target: int, color: str) -> str | None:
        if not self.chips[target][color]:
            return f"seat {target} has no {color} chip to steal"
        mine = self.chips[seat]
        blue, red = mine["blue"] + (color == "blue"), mine["red"] + (color == "red")
        if winning(blue, red):
            return "Steal a Chip cannot be used to win"
        return None

    def _check_shape(self, seat: object, action: object) -> None:
        super()._check_shape(seat, action)
        assert isinstance(action, dict)
        if action["type"] in ("pass", "discard"):
            return
        card = action["card"]
        if action.get("from", "hand") not in SOURCES:
            raise bad_action("from must be 'hand' or 'discard'")
        needed = PLAY_FIELDS[card]
        for key in ("pile", "target", "color"):
            if (key in action) != (key in needed):
                verb = "needs" if key in needed else "takes no"
                raise bad_action(f"playing {card} {verb} {key!r}")
        if "pile" in needed and not (is_int(action["pile"]) and 0 <= action["pile"] < PILES):
            raise bad_action(f"pile must be a whole number from 0 to {PILES - 1}")
        if "target" in needed and not (
            is_int(action["target"]) and 0 <= action["target"] < self.players
        ):
            raise bad_action(f"target must be a seat from 0 to {self.players - 1}")
        if "color" in needed and action["color"] not in COLORS:
            raise bad_action("color must be 'blue' or 'red'")

    # -- applying -----------------------------------------------------------

    def _apply(self, seat: int, action: Action, now: float | None) -> list[Event]:
        if self.window is not None:
            return self._answer_window(seat, action)
        kind = action["type"]
        if kind == "discard":
            return self._discard(seat, action["card"])
        if kind == "pass":
            if self.hands[seat]:
                raise illegal(
                    "you may pass only with an empty hand; discard a card to end your turn"
                )
            return self._end_turn(seat, [{"type": "pass", "seat": seat}])
        if self.plays >= MAX_PLAYS_PER_TURN:
            raise illegal(f"a turn holds at most {MAX_PLAYS_PER_TURN} plays; discard to end it")
        events = self._play_card(seat, action, now)
        self.plays += 1
        return events

    def _take(self, seat: int, card: str, source: str) -> None:
        """Check that ``seat`` can play ``card`` from ``source``; remove it from there."""
        if source == "hand":
            if card not in self.hands[seat]:
                raise illegal(f"you do not hold {card}")
        elif not self.discards[seat]:
            raise illegal("your discard pile is empty")
        elif self.discards[seat][-1] != card:
            raise illegal(f"the top of your discard pile is {self.discards[seat][-1]}, not {card}")

    def _remove(self, seat: int, card: str, source: str) -> None:
        if source == "hand":
            self.hands[seat].remove(card)
        else:
            self.discards[seat].pop()

    def _play_card(self, seat: int, action: Action, now: float | None) -> list[Event]:
        card: str = action["card"]
        source: str = action.get("from", "hand")
        self._take(seat, card, source)
        event: Event = {"type": "play", "seat": seat, "card": card}
        if source == "discard":
            event["from"] = "discard"
        events = [event]
        if card in COLOR_OF:
            pile = action["pile"]
            self._check_pile(card, pile)
            self._remove(seat, card, source)
            self.piles[pile].append(card)
            self.pile_play = True
            event["pile"] = pile
            if len(self.piles[pile]) == PILE_LENGTH:
                emptied = source == "hand" and not self.hands[seat]
                self._complete(seat, pile, emptied, now, events)
                return events
        else:
            self._action_card(seat, card, action, event)
            self._remove(seat, card, source)
            self.special.append(card)
            if card == STEAL_CARD:
                self.hands[seat].append(self.discards[action["target"]].pop())
        if source == "hand" and not self.hands[seat]:
            self._draw_cards(seat, HAND_SIZE, events)
        return events

    def _check_pile(self, card: str, pile: int) -> None:
        if fits_pile(card, pile, self.piles[pile]):
            return
        color = PILE_COLORS[pile]
        cards = self.piles[pile]
        if not cards:
            first = f"{color[0].upper()}1 or {color[0].upper()}W"
            raise illegal(f"{card} cannot start {color} pile {pile}; start it with {first}")
        raise illegal(f"{card} does not follow {cards[-1]} on pile {pile}")

    def _action_card(self, seat: int, card: str, action: Action, event: Event) -> None:
        """Check an action card's conditions and apply its effect (not the card's move)."""
        if card == BLOCK:
            raise illegal("Block can only be played when an opponent completes a pile")
        if card == SKIP:
            skipped = (seat + self.direction) % self.players
            self.skips[skipped] += 1
            event["skipped"] = skipped
        elif card == REVERSE:
            self.direction = -self.direction
            event["direction"] = self.direction
        elif card == STEAL_CARD:
            target = action["target"]
            if target == seat:
                raise illegal("Steal a Card takes from an opponent's discard pile, not your own")
            if not self.discards[target]:
                raise illegal(f"seat {target}'s discard pile is empty")
            event.update(target=target, stolen=self.discards[target][-1])
        else:  # STEAL_CHIP
            target, color = action["target"], action["color"]
            if target == seat:
                raise illegal("Steal a Chip takes from an opponent, not from you")
            if not any(
                self.chips[t]["blue"] or self.chips[t]["red"] for t in self._opponents(seat)
            ):
                raise illegal("no opponent has a chip to steal")
            problem = self._steal_chip_problem(seat, target, color)
            if problem:
                raise illegal(problem)
            self.chips[target][color] -= 1
            self.chips[seat][color] += 1
            event.update(target=target, color=color)

    def _discard(self, seat: int, card: str) -> list[Event]:
        if card not in self.hands[seat]:
            raise illegal(f"you do not hold {card}")
        self.hands[seat].remove(card)
        self.discards[seat].append(card)
        return self._end_turn(seat, [{"type": "discard", "seat": seat, "card": card}])

    # -- turns, drawing, the end ---------------------------------------------

    def _end_turn(self, seat: int, events: list[Event]) -> list[Event]:
        self.turns += 1
        nothing_to_draw = not self.draw and not self.set_aside
        self.stalled = self.stalled + 1 if nothing_to_draw and not self.pile_play else 0
        if self.stalled >= self.players or self.turns >= MAX_TURNS:
            self._finish({"draw": True}, events)
            return events
        nxt = (seat + self.direction) % self.players
        while self.skips[nxt]:
            self.skips[nxt] -= 1
            events.append({"type": "skipped", "seat": nxt})
            nxt = (nxt + self.direction) % self.players
        self.turn = nxt
        self.pile_play = False
        self.plays = 0
        events.append({"type": "turn", "seat": nxt})
        hand = self.hands[nxt]
        missing = HAND_SIZE - len(hand)
        if missing == 1 and self.draw:  # the usual case of _draw_cards, inlined
            hand.append(self.draw.pop())
            events.append({"type": "draw", "seat": nxt, "count": 1})
        elif missing > 0:
            self._draw_cards(nxt, missing, events)
        return events

    def _draw_cards(self, seat: int, count: int, events: list[Event]) -> None:
        hand, drawn = self.hands[seat], 0
        for _ in range(count):
            if not self.draw:
                if not self.set_aside:
                    break
                self.draw, self.set_aside = self.set_aside, []
                self.rng.shuffle(self.draw)
                events.append({"type": "reshuffle", "cards": len(self.draw)})
            hand.append(self.draw.pop())
            drawn += 1
        if drawn:
            events.append({"type": "draw", "seat": seat, "count": drawn})

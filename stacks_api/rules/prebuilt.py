"""Read-only actions and events, built once and shared by every game.

A variant builds each of its actions once and hands out the same objects on every
call, to every game: building fresh dicts was a good part of a move's cost. Events
``apply`` returns may be shared in the same way. Anything shared like that must not
change, so these types refuse every change in place (a copy, ``dict(action)``, is an
ordinary dict). A ``Prebuilt`` action also carries ``move``, what the action means
to its variant's rules, so ``apply`` need not read and check the fields of an action
it built itself. It also carries ``key``, a hashable tuple that tells it from every
other action (a dict cannot be a dict key or a set member; searches need one).
"""

from __future__ import annotations

from typing import Any, NoReturn


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(
        f"this {type(self).__name__} is shared by every game and read-only; change a copy"
    )


class ReadOnlyList(list[Any]):
    """A list field of a prebuilt action or event (a cell), or another list that games
    share (a Sequence game's ``to_move``)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[type, tuple[list[Any]]]:
        return list, (list(self),)  # copies and pickles are plain lists


def key_of(fields: dict[str, Any]) -> tuple[Any, ...]:
    """A hashable key of an action or event, equal for equal ones: its field names, then
    their values, lists as tuples (an engine writes an action's fields in one order).
    One flat tuple, no pairs: it is built for every legal action inside a search."""
    return (*fields, *[tuple(v) if isinstance(v, list) else v for v in fields.values()])


class Prebuilt(dict[str, Any]):
    """An action or event built once by a variant; ``move`` is an action's reading by
    its variant's rules, ``key`` its ``key_of``, worked out once."""

    __slots__ = ("key", "move")
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __init__(self, fields: dict[str, Any], move: Any = None) -> None:
        super().__init__(
            {k: ReadOnlyList(v) if isinstance(v, list) else v for k, v in fields.items()}
        )
        self.move = move
        self.key = key_of(fields)

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        return dict, ({k: list(v) if isinstance(v, list) else v for k, v in self.items()},)

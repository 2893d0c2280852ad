"""Read-only containers for the parts of a room that several rooms share (a clone shares every part with the
room it was copied from, and caches keyed by identity assume an unchanged part is the same object): a part is
replaced, never changed in place, and an attempt to change one in place raises instead of going unnoticed.

Not compiled with mypyc (setup.py): a native dict subclass would let compiled code write into it directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn


class FrozenDict(dict[str, Any]):
    """A dict that refuses every change after it was built. It is still a dict, so msgpack and json pack it
    as a map without help, and reading it costs what reading a dict costs."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a part of a room is replaced, never changed in place")

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse


EMPTY: Mapping[str, Any] = FrozenDict()


def freeze(x: Any) -> Any:
    """`x` with every dict made a FrozenDict and every list a tuple, all the way down (msgpack and json write
    a tuple as the same array as a list)."""
    t = type(x)
    if t is dict or t is FrozenDict:
        return FrozenDict({k: v if type(v) in _LEAVES else freeze(v) for k, v in x.items()})
    if t is list or t is tuple:
        return tuple([v if type(v) in _LEAVES else freeze(v) for v in x])
    if isinstance(x, dict):
        return FrozenDict({k: freeze(v) for k, v in x.items()})
    if isinstance(x, list | tuple):
        return tuple(freeze(v) for v in x)
    return x


_LEAVES = frozenset((str, int, float, bool, type(None), bytes))


def freeze_seats(seats: Any) -> tuple[FrozenDict, ...]:
    """A room's seats (flat records of strings and flags), read-only."""
    return tuple([FrozenDict(s) for s in seats])


def freeze_seen(seen: Any) -> FrozenDict:
    """Seat id -> the ids of its last decisions, read-only."""
    return FrozenDict({k: tuple(v) for k, v in seen.items()})

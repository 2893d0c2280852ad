"""Decisions: the only input the engine takes. Plain, hashable, and the same on the wire.

| kind       | args                 | when                                                        |
|------------|----------------------|-------------------------------------------------------------|
| die        | (die,)               | take a die from the middle                                  |
| karma      | (die,)               | spend karma: roll the elephant's die and this middle die    |
| reroll     | ()                   | spend one more karma to roll the same two dice again        |
| keep       | (die,)               | keep one of the two dice just rolled with karma             |
| pass       | ()                   | take no die (only when none is usable)                      |
| goods      | (tea, silk, spices)  | goods to circle                                             |
| goods_die  | (die,)               | which purple die's goods to take                            |
| sell       | (tea, silk, spices)  | goods to sell                                               |
| road       | (space, arms)        | a complete road on an empty space                           |
| half_road  | (space, arm)         | one half-road added to a drawn space                        |
| river      | (space,)             | the river space to sail to                                  |
| palace     | (character,)         | the palace character to cross out and carry out             |
| upgrade    | (building,)          | the building type to upgrade                                |
| use        | ()                   | use a bonus that needs no further choice                    |

`bonus` is the index in the pending bonuses of the bonus this decision uses (-1: the action itself).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .errors import MalformedDecision

ARITY = {
    "die": 1,
    "karma": 1,
    "reroll": 0,
    "keep": 1,
    "pass": 0,
    "goods": 3,
    "goods_die": 1,
    "sell": 3,
    "road": 2,
    "half_road": 2,
    "river": 1,
    "palace": 1,
    "upgrade": 1,
    "use": 0,
}


class Decision(NamedTuple):
    kind: str
    args: tuple[int, ...] = ()
    bonus: int = -1

    def to_wire(self) -> list[Any]:
        return [self.kind, list(self.args), self.bonus]

    @classmethod
    def from_wire(cls, data: Any) -> Decision:
        """Parses [kind, [args...], bonus]; anything else is a malformed decision."""
        if isinstance(data, dict):
            data = [data.get("kind"), data.get("args", []), data.get("bonus", -1)]
        if not isinstance(data, list | tuple) or not 1 <= len(data) <= 3:
            raise MalformedDecision("a decision is [kind, [args...], bonus]")
        kind = data[0]
        args = data[1] if len(data) > 1 else []
        bonus = data[2] if len(data) > 2 else -1
        if type(kind) is not str:  # (a list or a map would not even be hashable)
            raise MalformedDecision("a decision's kind is a string")
        if kind not in ARITY:
            raise MalformedDecision(f"unknown decision kind {kind[:32]!r}")
        if not isinstance(args, list | tuple) or len(args) != ARITY[kind]:
            raise MalformedDecision(f"{kind} takes {ARITY[kind]} arguments")
        if not all(type(a) is int for a in args) or type(bonus) is not int:
            raise MalformedDecision("decision arguments are integers")
        key = (kind, tuple(args), bonus)
        # The engine's own object when it has listed this decision before (no new tuple, and `in` the legal
        # list finds it by identity); a new one otherwise, not kept (a client may send any integers).
        return _made.get(key) or cls(*key)


_made: dict[tuple[str, tuple[int, ...], int], Decision] = {}


def decision(kind: str, args: tuple[int, ...] = (), bonus: int = -1) -> Decision:
    """The Decision for these values, made once: there are few distinct ones and the engine lists them often."""
    key = (kind, args, bonus)
    d = _made.get(key)
    if d is None:
        d = _made[key] = Decision(kind, args, bonus)
    return d

"""Decisions: the only input the engine takes. Plain, hashable, and the same on the wire ([kind, [args...]]).

| kind      | args                           | when                                                        |
|-----------|--------------------------------|-------------------------------------------------------------|
| dice      | (card,)                        | action A: an offer card into the hand as a die              |
| building  | (card, jokers, *dice)          | action B: a building card, paid with dice (sorted) + jokers |
| ship      | (card, die)                    | action C: a ship, paid with one die (-1: a manager's joker) |
| goods     | (card,)                        | action D: a goods card, free                                |
| palace    | (card, die)                    | action E: a palace action, paid with one die (-1: joker)    |
| draw      | ()                             | a manager for two dice from the draw pile                   |
| extra     | ()                             | at the end of the turn, a manager for one more turn         |
| end       | ()                             | end the turn (offered only to a player holding a manager)   |
| pass      | ()                             | no action is possible at all                                |
| discard   | (card, ...)                    | hand cards to discard before new dice come in (hand limit)  |
| take      | (card,)                        | the offer card a reward lets the player take                |
| choose    | (option,)                      | a reward's alternative, or a set of three-of-a-kind effects |
| copy      | (seat,)                        | palace 5: whose row's last ship's reward to take            |
| place     | (reward,)                      | planned-track variant: the next score-track card, left first |

Karma is never named: a payment uses exactly the karma it needs (docs/card-game/rules-decisions.md).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .errors import MalformedDecision

# Each kind's number of arguments; None: any number (discard's cards, a building's dice).
ARITY: dict[str, tuple[int, int]] = {
    "dice": (1, 1),
    "building": (2, 10),
    "ship": (2, 2),
    "goods": (1, 1),
    "palace": (2, 2),
    "draw": (0, 0),
    "extra": (0, 0),
    "end": (0, 0),
    "pass": (0, 0),
    "discard": (1, 8),
    "take": (1, 1),
    "choose": (1, 1),
    "copy": (1, 1),
    "place": (1, 1),
}
ACTIONS = ("dice", "building", "ship", "goods", "palace")  # the rulebook's five actions, A-E


class Decision(NamedTuple):
    kind: str
    args: tuple[int, ...] = ()

    def to_wire(self) -> list[Any]:
        return [self.kind, list(self.args)]

    @classmethod
    def from_wire(cls, data: Any) -> Decision:
        """Parses [kind, [args...]]; anything else raises MalformedDecision."""
        if not isinstance(data, list | tuple) or not 1 <= len(data) <= 2:
            raise MalformedDecision("a decision is [kind, [args...]]")
        kind = data[0]
        args = data[1] if len(data) > 1 else []
        if type(kind) is not str:
            raise MalformedDecision("a decision's kind is a string")
        if kind not in ARITY:
            raise MalformedDecision(f"unknown decision kind {kind[:32]!r}")
        low, high = ARITY[kind]
        if not isinstance(args, list | tuple) or not low <= len(args) <= high:
            raise MalformedDecision(f"{kind} takes {low}-{high} arguments")
        if not all(type(a) is int for a in args):
            raise MalformedDecision("decision arguments are integers")
        return cls(kind, tuple(args))

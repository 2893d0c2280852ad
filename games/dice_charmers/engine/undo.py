"""Undo within the turn: a player takes back decisions of their own turn until the turn passes or new
information appears (Board Game Arena's rule; docs/rules-decisions.md).

New information is anything drawn from the dice generator: a karma reroll's dice, or any decision whose
resolution rolled. The generator's counter is in the state, so a decision revealed something exactly when
the state after it holds another generator state than the state before it.

What can be taken back is kept as the turn's history: the state at the last barrier (the start of the turn,
or the state right after the dice were rolled) and the decisions made since. Taking back the last decision
replays the others from that state: the engine is deterministic, so this is the state before the last
decision, and the history stays a few decisions long (never more than MAX_TURN_DECISIONS).

Pure: no I/O, no clock; states are never changed, only read and replayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from .decisions import Decision
from .errors import NothingToUndo, NotYourTurn, UndoAfterRoll
from .game import apply
from .state import PHASE_REROLL, GameState
from .tracks import Event

# A turn has a handful of decisions (a die, its action, the bonuses it released); a turn with more than this
# many keeps only the last MAX_TURN_DECISIONS takeable: the history of a room never grows past it.
MAX_TURN_DECISIONS: Final = 32


class TurnHistory(NamedTuple):
    """What can be taken back this turn: the state at the last barrier and the decisions made since."""

    base: GameState
    decisions: tuple[Decision, ...]

    @property
    def seat(self) -> int:
        """The seat whose turn this is."""
        return self.base.current


def sets_barrier(before: GameState, after: GameState) -> bool:
    """Whether the decision that took `before` to `after` can never be taken back: the turn passed (another
    turn, another round, or the game ended), or the dice generator was drawn from (new information)."""
    return (
        after.is_over
        or after.rng != before.rng
        or after.round != before.round
        or after.turn != before.turn
        or after.current != before.current
    )


def record(
    history: TurnHistory | None,
    before: GameState,
    decision: Decision,
    after: GameState,
    takeable: bool = True,
    cap: int = MAX_TURN_DECISIONS,
) -> TurnHistory | None:
    """The history after `decision` took `before` to `after`. None: nothing can be taken back now.
    `takeable` False: the decision is never taken back (a bot's, or undo is switched off in the room)."""
    if not takeable or sets_barrier(before, after):
        return None
    if history is None or history.seat != before.current or history.base.step + len(history.decisions) != before.step:
        # The first decision since a barrier: `before` is the barrier state.
        return TurnHistory(before, (decision,))
    decisions = (*history.decisions, decision)
    if len(decisions) > cap:
        # Too many to keep: the oldest becomes fixed (the barrier moves one decision on).
        base, _ = apply(history.base, decisions[0])
        return TurnHistory(base, decisions[1:])
    return TurnHistory(history.base, decisions)


def can_take_back(history: TurnHistory | None, state: GameState) -> int:
    """How many decisions the seat to move can take back now in `state` (0: none)."""
    if history is None or state.is_over or history.seat != state.current:
        return 0
    if history.base.step + len(history.decisions) != state.step:
        return 0  # (a history left from another state: never replayed onto this one)
    return len(history.decisions)


def replay(base: GameState, decisions: Sequence[Decision]) -> GameState:
    """`base` after `decisions` (each legal there: they were when first made, and the engine is deterministic)."""
    state = base
    for d in decisions:
        state, _ = apply(state, d)
    return state


def take_back(
    history: TurnHistory | None, state: GameState, seat: int
) -> tuple[GameState, TurnHistory | None, list[Event]]:
    """Takes back `seat`'s last decision of this turn in `state`: the state before it, the history after it,
    and the event saying so. Raises NotYourTurn, UndoAfterRoll or NothingToUndo and changes nothing."""
    if state.is_over or seat != state.current:
        raise NotYourTurn("only the player whose turn it is can take back a decision of that turn")
    if history is None or can_take_back(history, state) == 0:
        if state.phase == PHASE_REROLL:
            raise UndoAfterRoll("the dice were rolled since: the decisions before are fixed")
        raise NothingToUndo("no decision of this turn is left to take back")
    last = history.decisions[-1]
    earlier = history.decisions[:-1]
    back = replay(history.base, earlier)
    event: Event = {"type": "took_back", "player": seat, "decision": last.to_wire(), "left": len(earlier)}
    return back, (TurnHistory(history.base, earlier) if earlier else None), [event]


__all__ = [
    "MAX_TURN_DECISIONS",
    "NothingToUndo",
    "TurnHistory",
    "UndoAfterRoll",
    "can_take_back",
    "record",
    "replay",
    "sets_barrier",
    "take_back",
]

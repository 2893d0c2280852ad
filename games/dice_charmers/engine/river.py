"""The river: which space a die, a palace character or a bonus sails to, and marking it."""

from __future__ import annotations

from .state import GameState
from .tracks import Event, sourced

SYMBOL_LIMIT = 3  # "When you have marked the third space of one symbol, dice with this symbol are of no more use."


def symbol_target(g: GameState, symbol: int) -> int:
    """The next unmarked space with this symbol ahead of the current position, or -1."""
    p = g.players[g.current]
    marks = g.sheet.river_symbol
    used = 0
    river = p.river
    for i, s in enumerate(marks):
        if s == symbol and river >> i & 1:
            used += 1
    if used >= SYMBOL_LIMIT:
        return -1
    for i in range(p.river_position + 1, len(marks)):
        if marks[i] == symbol:
            return i
    return -1


def ahead(g: GameState, steps: int) -> list[int]:
    """Spaces 1..steps ahead of the current position (the river ends at its last space)."""
    pos = g.players[g.current].river_position
    return [i for i in range(pos + 1, min(pos + 1 + steps, len(g.sheet.river_symbol)))]


def behind_unmarked(g: GameState) -> list[int]:
    """Unmarked spaces left of the current position, nearest first."""
    p = g.players[g.current]
    return [i for i in range(p.river_position - 1, -1, -1) if not p.river >> i & 1]


def mark(g: GameState, space: int, events: list[Event]) -> None:
    """Marks one space and takes all its earnings, at once: they are pushed to be carried out next."""
    p = g.players[g.current]
    p.river |= 1 << space
    events.append({"type": "river_marked", "player": g.current, "space": space})
    g.stack = g.stack + tuple([sourced(eff, "river") for eff in reversed(g.sheet.river_reward[space])])

"""What a room keeps of the turn so far for undo (server/undo.py): the engine's TurnHistory and its barrier
state as plain data for the room's record. Apart from server/undo.py so that the room can hold one without
importing the changes that make it."""

from __future__ import annotations

from typing import Any

from rajas.engine import Decision, GameState
from rajas.engine.sheet import Sheet
from rajas.engine.undo import TurnHistory


class TurnUndo:
    """A room's TurnHistory with its barrier state as plain data, made once per barrier (not per decision):
    the record of every commit of the turn carries it. Never changed once made, but for `packed_base`, the
    base packed once when first stored (server/encoding.py) and handed on to the next decision's TurnUndo."""

    __slots__ = ("base", "history", "packed_base")

    def __init__(self, history: TurnHistory, base: dict[str, Any], packed_base: bytes | None = None) -> None:
        self.history = history
        self.base = base
        self.packed_base = packed_base

    def to_record(self) -> dict[str, Any]:
        return {"base": self.base, "decisions": [d.to_wire() for d in self.history.decisions]}

    @classmethod
    def from_record(cls, d: Any, sheet: Sheet) -> TurnUndo | None:
        if not d:
            return None
        base = GameState.from_dict(d["base"], sheet)
        return cls(TurnHistory(base, tuple(Decision.from_wire(w) for w in d["decisions"])), d["base"])

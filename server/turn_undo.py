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
    base packed once when first stored (server/encoding.py) and handed on to the next decision's TurnUndo.
    `undos`: decisions taken back since the barrier (their history may then be empty), kept against
    server/undo.py's UNDOS_PER_TURN."""

    __slots__ = ("base", "history", "packed_base", "undos")

    def __init__(
        self, history: TurnHistory, base: dict[str, Any], packed_base: bytes | None = None, undos: int = 0
    ) -> None:
        self.history = history
        self.base = base
        self.packed_base = packed_base
        self.undos = undos

    def to_record(self) -> dict[str, Any]:
        return {"base": self.base, "decisions": [d.to_wire() for d in self.history.decisions], "undos": self.undos}

    @classmethod
    def from_record(cls, d: Any, sheet: Sheet) -> TurnUndo | None:
        if not d:
            return None
        base = GameState.from_dict(d["base"], sheet)
        history = TurnHistory(base, tuple(Decision.from_wire(w) for w in d["decisions"]))
        return cls(history, d["base"], None, int(d.get("undos", 0)))

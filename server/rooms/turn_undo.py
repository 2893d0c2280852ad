"""What a room keeps of the turn so far for undo (server/undo.py): the engine's TurnHistory and its barrier
state as plain data for the room's record. Apart from server/undo.py so that the room can hold one without
importing the changes that make it."""

from __future__ import annotations

from typing import Any

from rajas.games.dice_charmers.engine import Decision, GameState
from rajas.games.dice_charmers.engine.sheet import Sheet
from rajas.games.dice_charmers.engine.undo import TurnHistory
from rajas.protocol import pack


class Barrier:
    """The state at the turn's last barrier (its start, or right after a roll), with its plain and packed forms
    made when the room's record is first packed (never, mostly, in the in-process store) and then kept: every
    commit of the turn shares them."""

    __slots__ = ("_packed", "_plain", "state")

    def __init__(self, state: GameState, plain: dict[str, Any] | None = None) -> None:
        self.state = state
        self._plain = plain
        self._packed: bytes | None = None

    def plain(self) -> dict[str, Any]:
        """The barrier state as plain data, with only the player whose turn it is: within a turn the others are
        the very same as in the room's state, which the record holds already (`from_record` takes them there)."""
        if self._plain is None:
            lone = self.state.copy()
            lone.players = (lone.players[lone.current],)
            self._plain = lone.to_dict()
        return self._plain

    def packed(self) -> bytes:
        if self._packed is None:
            self._packed = pack(self.plain())
        return self._packed


class TurnUndo:
    """A room's TurnHistory (its barrier state and the decisions since) and `undos`, the decisions taken back
    since the barrier (the history may then be empty), kept against server/undo.py's UNDOS_PER_TURN. Never
    changed once made."""

    __slots__ = ("barrier", "history", "undos")

    def __init__(self, history: TurnHistory, barrier: Barrier | None = None, undos: int = 0) -> None:
        self.history = history
        self.barrier = barrier if barrier is not None and barrier.state is history.base else Barrier(history.base)
        self.undos = undos

    def to_record(self) -> dict[str, Any]:
        decisions = [d.to_wire() for d in self.history.decisions]
        return {"base": self.barrier.plain(), "decisions": decisions, "undos": self.undos}

    @classmethod
    def from_record(cls, d: Any, sheet: Sheet, state: GameState | None) -> TurnUndo | None:
        """The record's turn history; `state` is the room's state, which holds the players not deciding."""
        if not d or state is None:
            return None
        plain = dict(d["base"])
        seat = plain["order"][plain["turn"]]
        players = [p.to_dict() for p in state.players]
        players[seat] = plain["players"][0]
        base = GameState.from_dict(plain | {"players": players}, sheet)
        history = TurnHistory(base, tuple(Decision.from_wire(w) for w in d["decisions"]))
        return cls(history, Barrier(base, d["base"]), int(d.get("undos", 0)))

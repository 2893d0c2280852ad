"""Undo within the turn, on the server: what a room keeps of the turn so far, how a decision adds to it, and
the change a player's `undo` message makes (docs/protocol.md, "Undo within the turn").

The engine decides what may be taken back (engine/undo.py); a room keeps the engine's TurnHistory (the state
at the turn's last barrier and the decisions since, at most engine.undo.MAX_TURN_DECISIONS) as a TurnUndo
(server/turn_undo.py) and stores it in its record, so every node can take back a decision committed on
another. A taken-back decision is a change
like any other: a new version, an update for everyone, and an entry in the game log, `[seat, "undo",
"player", []]`, which `rajas verify` replays (server/fairness.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rajas.games.dice_charmers.engine import Decision, GameState, RulesError
from rajas.games.dice_charmers.engine.undo import TurnHistory, can_take_back, record
from rajas.games.dice_charmers.engine.undo import take_back as engine_take_back
from rajas.protocol.errors import ProtocolError
from rajas.server.rooms.errors import from_rules
from rajas.server.rooms.room import Event, Room
from rajas.server.rooms.turn_undo import TurnUndo

UNDO = "undo"  # the decision field of an undo's game log entry
# Undos a player may make between two barriers of a turn (its start, a roll). Without a limit a player could
# take a die and take it back for ever, and the game log (one entry per undo) would grow without end; with it
# a game's log is bounded like its decisions. Far more than a person undoes in a turn.
UNDOS_PER_TURN = 20


@dataclass(frozen=True)
class TakeBack:
    """A player takes back their last decision of this turn (message id `mid`, made seeing version `at`)."""

    token: str | None
    mid: str | int
    at: int | None
    now: float


def enabled(r: Room) -> bool:
    return bool(r.settings.get("undo", True))


def track(r: Room, before: GameState, decision: Decision, after: GameState, by: str) -> TurnUndo | None:
    """The room's turn history after `decision` took `before` to `after`. Only a player's own decisions can
    be taken back: a bot's (an away seat, a turn clock run out) sets a barrier, as does undo switched off."""
    old = r.undo
    history = record(old.history if old else None, before, decision, after, by == "player" and enabled(r))
    if history is None:
        return None
    if old is not None and old.history.base is history.base:
        return TurnUndo(history, old.barrier, old.undos)  # (the same barrier: its packed form is shared)
    return TurnUndo(history)


def available(r: Room) -> int:
    """How many decisions the seat to move can take back now (0: none, or undo is off in this room)."""
    if r.undo is None or r.state is None or not enabled(r) or r.undo.undos >= UNDOS_PER_TURN:
        return 0
    return can_take_back(r.undo.history, r.state)


def take_back(r: Room, seat: int, now: float) -> tuple[list[Event], list[Any]]:
    """Takes back `seat`'s last decision of this turn on `r` (a clone). Returns the events and the game log
    entry. Refusals: undo_off, wrong_phase, game_over, too_many_undos, not_your_turn, undo_after_roll,
    nothing_to_undo."""
    if not enabled(r):
        raise ProtocolError("undo_off", "the host switched undo off in this room")
    if r.state is None:
        raise ProtocolError("wrong_phase", "the game has not started")
    if r.state.is_over:
        raise ProtocolError("game_over", "the game is over")
    if r.undo is not None and r.undo.undos >= UNDOS_PER_TURN and seat == r.state.current:
        raise ProtocolError("too_many_undos", f"at most {UNDOS_PER_TURN} decisions are taken back in one turn")
    try:
        state, history, events = engine_take_back(r.undo.history if r.undo else None, r.state, seat)
    except RulesError as e:
        raise from_rules(e) from None
    old = r.undo
    assert old is not None  # (the engine refuses when there is no history)
    r.state = state
    # (all taken back: an empty history from the same barrier state, which keeps the count of undos)
    kept = history if history is not None else TurnHistory(old.history.base, ())
    r.undo = TurnUndo(kept, old.barrier, old.undos + 1)
    r.updated = now
    return events, [seat, UNDO, "player", []]

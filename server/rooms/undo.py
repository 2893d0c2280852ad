"""Undo within the turn: a player takes back decisions of their own turn until the turn passes or something new
is drawn or shown (Board Game Arena's rule; docs/rules-decisions.md, "Undo"), for any game.

The game says where a barrier stands (`Game.barrier`: the turn passed, dice were rolled, a card was drawn); a
room keeps the state at the turn's last barrier and the decisions since (its `TurnUndo`, server/rooms/room.py,
stored in its record, so every node can take back a decision committed on another). Taking back the last
decision replays the others from the barrier state: games are deterministic, so this is the state before it. A
taken-back decision is a change like any other: a new version, an update for everyone, and an entry in the game
log, `[seat, "undo", "player", []]`, which `rajas verify` replays (server/fairness.py).

Pure: no I/O, no clock (the time comes in); states are never changed, only read and replayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rajas.games.interface import Game, RulesError
from rajas.protocol.errors import ProtocolError
from rajas.server.rooms.room import Event, Room, TurnUndo

UNDO = "undo"  # the decision field of an undo's game log entry
# Undos a player may make between two barriers of a turn. Without a limit a player could take a die and take it
# back for ever, and the game log (one entry per undo) would grow without end; with it a game's log is bounded
# like its decisions. Far more than a person undoes in a turn.
UNDOS_PER_TURN = 20
# A turn has a handful of decisions; one with more keeps only the last MAX_TURN_DECISIONS takeable, so a room's
# history never grows past it (the barrier moves on).
MAX_TURN_DECISIONS = 32


@dataclass(frozen=True)
class TakeBack:
    """A player takes back their last decision of this turn (message id `mid`, made seeing version `at`)."""

    token: str | None
    mid: str | int
    at: int | None
    now: float


def enabled(r: Room) -> bool:
    return bool(r.settings.get("undo", True))


def track(r: Room, before: Any, decision: Any, after: Any, by: str) -> TurnUndo | None:
    """The room's turn history after `decision` took `before` to `after` (committed as version r.v + 1). Only a
    player's own decisions can be taken back: a bot's (an away seat, a turn clock run out) sets a barrier, as does
    undo switched off."""
    game, old, shown = r.game, r.undo, r.v + 1
    refusal = game.barrier(before, after)
    if refusal is not None or by != "player" or not enabled(r):
        return TurnUndo(None, (), None, shown, refusal or "nothing_to_undo") if refusal is not None else None
    seat = game.to_move(before)
    if old is None or old.shown != r.shown or old.seat != seat or old.base is None:
        # The first decision since a barrier: `before` is the barrier state.
        return TurnUndo(before, (decision,), seat, shown, old.refusal if old is not None else "nothing_to_undo")
    decisions = (*old.decisions, decision)
    if len(decisions) > MAX_TURN_DECISIONS:
        base, _ = game.apply(old.base, decisions[0])  # too many to keep: the oldest becomes fixed
        return TurnUndo(base, decisions[1:], seat, shown, old.refusal, old.undos)
    made = TurnUndo(old.base, decisions, seat, shown, old.refusal, old.undos)
    made._record = old._record  # (the same barrier: its plain form is shared)
    return made


def available(r: Room) -> int:
    """How many decisions the seat to move can take back now (0: none, or undo is off in this room)."""
    u = r.undo
    if u is None or u.base is None or r.state is None or not enabled(r) or u.undos >= UNDOS_PER_TURN:
        return 0
    if u.shown != r.shown or r.game.is_over(r.state) or r.game.to_move(r.state) != u.seat:
        return 0
    return len(u.decisions)


def replay(game: Game, base: Any, decisions: Sequence[Any]) -> Any:
    """`base` after `decisions` (each legal there: they were when first made, and the game is deterministic)."""
    state = base
    for d in decisions:
        state, _ = game.apply(state, d)
    return state


def take_back(r: Room, seat: int, now: float) -> tuple[list[Event], list[Any]]:
    """Takes back `seat`'s last decision of this turn on `r` (a clone). Returns the events and the game log
    entry. Refusals: undo_off, wrong_phase, game_over, too_many_undos, not_your_turn, and the barrier's own
    (nothing_to_undo, undo_after_roll)."""
    if not enabled(r):
        raise ProtocolError("undo_off", "the host switched undo off in this room")
    if r.state is None:
        raise ProtocolError("wrong_phase", "the game has not started")
    game = r.game
    if game.is_over(r.state):
        raise ProtocolError("game_over", "the game is over")
    if game.to_move(r.state) != seat:
        raise ProtocolError("not_your_turn", "only the player whose turn it is can take back a decision of that turn")
    u = r.undo
    if u is not None and u.undos >= UNDOS_PER_TURN:
        raise ProtocolError("too_many_undos", f"at most {UNDOS_PER_TURN} decisions are taken back in one turn")
    if u is None or available(r) == 0:
        refusal = u.refusal if u is not None and u.shown == r.shown else "nothing_to_undo"
        if refusal == "undo_after_roll":
            raise ProtocolError("undo_after_roll", "something new was drawn since: the decisions before are fixed")
        raise ProtocolError("nothing_to_undo", "no decision of this turn is left to take back")
    last, earlier = u.decisions[-1], u.decisions[:-1]
    try:
        r.state = replay(game, u.base, earlier)
    except RulesError as e:  # (cannot happen with a deterministic game; refused rather than half done)
        raise ProtocolError("internal", str(e)) from None
    made = TurnUndo(u.base, earlier, u.seat, r.v + 1, u.refusal, u.undos + 1)
    made._record = u._record
    r.undo = made
    r.updated = now
    event: Event = {"type": "took_back", "player": seat, "decision": game.wire(last), "left": len(earlier)}
    return [event], [seat, UNDO, "player", []]

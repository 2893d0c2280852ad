"""The game as clients see it: the engine's state and sheets, without the dice generator (which would tell the
future), with what clients see besides (how far a sheet's track entries have passed each other)."""

from __future__ import annotations

from typing import Any

from rajas.games.dice_charmers.engine import GameState, pending
from rajas.games.dice_charmers.engine.state import PlayerState
from rajas.games.dice_charmers.engine.tracks import overlap_float
from rajas.server.rooms.room import Room
from rajas.server.rooms.undo import available as undo_available


def player_view(state: GameState, p: PlayerState) -> dict[str, Any]:
    """A player's sheet as clients see it: the engine's form, and how far the two track entries have passed
    each other (negative: apart)."""
    d = p.to_dict()
    d["overlap"] = overlap_float(state.sheet, p.fame, p.money)
    return d


def public_state(state: GameState) -> dict[str, Any]:
    """The game state as clients see it: everything but the dice generator, which would tell the future."""
    d = state.to_dict()
    del d["rng"]
    d["players"] = [player_view(state, p) for p in state.players]
    return d


def state_head(state: GameState) -> dict[str, Any]:
    """`state.to_dict()` but the players and the dice generator, with the state's own tuples and lists (msgpack
    packs a tuple as the same array as a list, json writes both alike), neither copied nor converted: it is
    packed or written at once."""
    return {
        "sheet": state.sheet.name,
        "sheet_digest": state.sheet.digest,
        "round": state.round,
        "start_player": state.start_player,
        "order": state.order,
        "turn": state.turn,
        "phase": state.phase,
        "faces": state.faces,
        "where": state.where,
        "reroll": state.reroll or None,
        "stack": state.stack,
        "pool": state.pool,
        "end_after": state.end_after,
        "result": state.result,
        "step": state.step,
    }


def game_view(room: Room) -> dict[str, Any] | None:
    if room.state is None:
        return None
    return {"state": public_state(room.state), "pending": pending(room.state), "undo": undo_available(room)}

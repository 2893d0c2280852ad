"""The server raises ProtocolError (from rajas.protocol) for every refused message; engine errors map 1:1."""

from __future__ import annotations

from rajas.games.dice_charmers.engine import RulesError, SheetError
from rajas.protocol.errors import ErrorCode, ProtocolError

ENGINE_CODES: dict[str, ErrorCode] = {
    "not_your_turn": "not_your_turn",
    "illegal_decision": "illegal_decision",
    "malformed_decision": "malformed_decision",
    "game_over": "game_over",
    "nothing_to_undo": "nothing_to_undo",  # (games/dice_charmers/engine/undo.py)
    "undo_after_roll": "undo_after_roll",
}


def from_rules(err: RulesError) -> ProtocolError:
    return ProtocolError(ENGINE_CODES.get(err.code, "illegal_decision"), err.message)


def from_sheet(err: SheetError) -> ProtocolError:
    return ProtocolError("bad_settings", f"custom sheet: {err}")


class Conflict(Exception):
    """The store holds a newer version than the one a commit was based on (another node was faster)."""

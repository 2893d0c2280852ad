"""A game's refusal as the protocol's: a game's RulesError carries one of the protocol's game codes."""

from __future__ import annotations

from typing import cast

from rajas.games.interface import RulesError
from rajas.protocol.errors import ErrorCode, ProtocolError

GAME_CODES = frozenset(("not_your_turn", "illegal_decision", "malformed_decision", "game_over"))


def from_rules(err: RulesError) -> ProtocolError:
    code = err.code if err.code in GAME_CODES else "illegal_decision"
    return ProtocolError(cast(ErrorCode, code), str(err))

"""Typed errors of the card game's rules engine; each carries the stable code the protocol reuses."""

from __future__ import annotations


class RulesError(Exception):
    """A decision the rules refuse. The state it was applied to is unchanged."""

    code = "illegal_decision"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotYourTurn(RulesError):
    code = "not_your_turn"


class IllegalDecision(RulesError):
    code = "illegal_decision"


class MalformedDecision(RulesError):
    code = "malformed_decision"


class GameOver(RulesError):
    code = "game_over"


ERROR_CODES = tuple(c.code for c in (NotYourTurn, IllegalDecision, MalformedDecision, GameOver))

"""Typed errors of the rules engine. Each carries a stable code that the protocol reuses."""

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


class NothingToUndo(RulesError):
    """No decision of this turn is left to take back (none made yet, or the turn passed): engine/undo.py."""

    code = "nothing_to_undo"


class UndoAfterRoll(RulesError):
    """The dice were rolled since the last decision (a karma reroll): what was decided before is fixed."""

    code = "undo_after_roll"


class SheetError(ValueError):
    """A sheet file that does not describe a playable sheet; the message names the field."""

    code = "bad_sheet"


ERROR_CODES = tuple(c.code for c in (NotYourTurn, IllegalDecision, MalformedDecision, GameOver, SheetError))

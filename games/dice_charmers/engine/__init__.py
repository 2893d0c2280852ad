"""The Dice Charmers rules engine: pure, synchronous, deterministic given a seed."""

from .decisions import Decision
from .errors import GameOver, IllegalDecision, MalformedDecision, NotYourTurn, RulesError, SheetError
from .game import apply, legal_decisions, new_game, pending, to_move
from .sheet import BUILTIN_SHEETS, Sheet, load_sheet, parse_sheet
from .state import GameState, PlayerState
from .tracks import overlap, standings

__all__ = [
    "BUILTIN_SHEETS",
    "Decision",
    "GameOver",
    "GameState",
    "IllegalDecision",
    "MalformedDecision",
    "NotYourTurn",
    "PlayerState",
    "RulesError",
    "Sheet",
    "SheetError",
    "apply",
    "legal_decisions",
    "load_sheet",
    "new_game",
    "overlap",
    "parse_sheet",
    "pending",
    "standings",
    "to_move",
]

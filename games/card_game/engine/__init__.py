"""The card game's rules engine: pure, synchronous, deterministic given a seed and the players' contributions."""

from .bots import BOTS
from .cards import Catalogue, card_data, catalogue
from .decisions import Decision
from .errors import GameOver, IllegalDecision, MalformedDecision, NotYourTurn, RulesError
from .game import Options, apply, legal_decisions, new_game, to_move
from .invariants import InvariantBroken, check_state
from .scoring import breakdown, standings
from .state import PlayerState, Standing, State
from .views import events_for, pending, reveals, view


def to_dict(g: State) -> dict[str, object]:
    """The whole state as plain data, secrets included: for the server's store, never for a player."""
    return g.to_dict()


def from_dict(data: dict[str, object]) -> State:
    return State.from_dict(data)


__all__ = [
    "BOTS",
    "Catalogue",
    "Decision",
    "GameOver",
    "IllegalDecision",
    "InvariantBroken",
    "MalformedDecision",
    "NotYourTurn",
    "Options",
    "PlayerState",
    "RulesError",
    "Standing",
    "State",
    "apply",
    "breakdown",
    "card_data",
    "catalogue",
    "check_state",
    "events_for",
    "from_dict",
    "legal_decisions",
    "new_game",
    "pending",
    "reveals",
    "standings",
    "to_dict",
    "to_move",
    "view",
]

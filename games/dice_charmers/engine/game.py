"""The engine's public face: start a game, list legal decisions, apply one, describe what is pending.

Pure and synchronous: state in, decision in, new state and events out. The state passed in is never
changed; a refused decision raises a RulesError and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rajas.games.rng import roll, seed_to_state

from .decisions import Decision
from .errors import GameOver, IllegalDecision, NotYourTurn
from .sheet import Sheet, load_sheet
from .state import PHASE_OVER, PHASE_PICK, PHASE_REROLL, GameState, PlayerState
from .tracks import Event
from .turns import advance, apply_decision, legal, start_round

MIN_PLAYERS, MAX_PLAYERS = 2, 5


def new_game(
    players: int,
    seed: int | str | bytes,
    sheet: Sheet | str = "sun",
    start_player: int | None = None,
    contributions: Sequence[str] = (),
) -> tuple[GameState, list[Event]]:
    """A new game: every player gets a sheet, the start player is drawn (unless given) and rolls. The dice
    come from the seed and the players' `contributions` together (docs/fairness.md)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"the game is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {players}")
    if isinstance(sheet, str):
        sheet = load_sheet(sheet)
    g = GameState()
    g.sheet = sheet
    g.n = players
    g.rng = seed_to_state(seed, contributions)
    if start_player is None:
        g.rng, start_player = roll(g.rng, players)
    elif not 0 <= start_player < players:
        raise ValueError("start_player is not a seat")
    g.round = 0
    g.players = tuple([PlayerState.new(sheet) for _ in range(players)])
    g.end_after = -1
    g.result = None
    g.step = 0
    g.stack = ()
    g.pool = ()
    g.reroll = None
    g._legal = None
    events: list[Event] = [
        {"type": "game_started", "players": players, "start_player": start_player, "sheet": sheet.name}
    ]
    start_round(g, start_player, events)
    advance(g, events)
    return g, events


def legal_decisions(g: GameState) -> list[Decision]:
    """Every decision the player who must decide now may take (empty once the game is over)."""
    return list(legal(g))


def to_move(g: GameState) -> int | None:
    """The seat that must decide now, or None once the game is over."""
    return None if g.phase == PHASE_OVER else g.current


def apply(g: GameState, decision: Decision, player: int | None = None) -> tuple[GameState, list[Event]]:
    """Applies one decision for `player` (default: whoever must decide). Returns the new state and the
    events it caused; raises NotYourTurn, GameOver or IllegalDecision and leaves `g` as it was."""
    if g.phase == PHASE_OVER:
        raise GameOver("the game is over")
    if player is not None and player != g.current:
        raise NotYourTurn(f"it is seat {g.current}'s decision, not seat {player}'s")
    known = g._legal if g._legal is not None else legal(g)
    if decision not in known:
        raise IllegalDecision(f"{decision.kind} {list(decision.args)} is not legal now")
    new = g.copy()
    new.step = g.step + 1
    events: list[Event] = []
    apply_decision(new, decision, events)
    advance(new, events)
    return new, events


def pending(g: GameState) -> dict[str, Any]:
    """What must be decided now: who, in which phase, for which effect, with which options. The effect, the
    pool's bonuses and the options are the engine's own tuples (a Decision is a named tuple); json and msgpack
    write each as the array its `to_wire` would give."""
    if g.phase == PHASE_OVER:
        return {"player": None, "phase": g.phase, "effect": None, "pool": [], "options": []}
    if g.phase in (PHASE_PICK, PHASE_REROLL):
        effect: tuple[Any, ...] | None = None
    else:
        effect = g.stack[-1] if g.stack else ("bonus",)
    return {
        "player": g.current,
        "phase": g.phase,
        "effect": effect,
        "pool": tuple(g.pool),
        "reroll": g.reroll if g.phase == PHASE_REROLL and g.reroll else None,
        "options": legal(g),
    }


__all__ = [
    "PHASE_PICK",
    "PHASE_REROLL",
    "Decision",
    "GameState",
    "apply",
    "legal_decisions",
    "new_game",
    "pending",
    "to_move",
]

"""Builders for rule tests: put a game into an exact situation, then play decisions on it.

A state built here has its fields replaced before any decision is applied, which is the only time
tests may touch a state's fields: the engine itself never changes a state it has returned, and its
sequences are tuples, so they are replaced (`replaced`), never changed in place.
"""

from __future__ import annotations

from typing import Any

from rajas.games.dice_charmers.engine import Decision, GameState, apply, legal_decisions, load_sheet, new_game
from rajas.games.dice_charmers.engine.effects import CHARACTERS, GOODS
from rajas.games.dice_charmers.engine.state import ELEPHANT, MIDDLE, PHASE_PICK, PHASE_RESOLVE, replaced
from rajas.games.dice_charmers.engine.turns import advance, turn_order

TEA, SILK, SPICES = range(3)
GREAT_MOGUL, MAHARANI, TRADER, RAJA_MAN_SINGH, MASTER_BUILDER, PORTUGUESE = range(6)
N, E, S, W = 1, 2, 4, 8
# Sun sheet dice: 0 purple (pairs of one good), 1 purple (two different goods), 2-3 green, 4-5 blue, 6-7 orange.
PURPLE_SAME, PURPLE_MIXED, GREEN_A, GREEN_B, BLUE_A, BLUE_B, ORANGE_A, ORANGE_B = range(8)


def cell(row: int, col: int, cols: int = 5) -> int:
    return row * cols + col


def game(players: int = 3, seed: int = 1, sheet: str = "sun", start: int = 0) -> GameState:
    g, _ = new_game(players, seed, load_sheet(sheet), start_player=start)
    return g


def face_index(g: GameState, die: int, face: Any) -> int:
    """The index of a face given as the sheet writes it ("flag", "bend", ["tea", "tea"], "trader")."""
    return g.sheet.spec.dice[die].faces.index(face)


def set_dice(g: GameState, faces: dict[int, Any] | None = None, where: dict[int, int] | None = None) -> None:
    for die, face in (faces or {}).items():
        g.faces = replaced(g.faces, die, face if isinstance(face, int) else face_index(g, die, face))
    for die, loc in (where or {}).items():
        g.where = replaced(g.where, die, loc)
    g._legal = None


def turn_of(g: GameState, seat: int, turn: int | None = None) -> None:
    """Makes it `seat`'s turn to take a die (its first turn of the round unless `turn` is given)."""
    g.order = turn_order(g.n, g.start_player)
    g.turn = g.order.index(seat) if turn is None else turn
    g.current = g.order[g.turn]
    assert g.current == seat
    g.phase = PHASE_PICK
    g.stack, g.pool, g.reroll = (), (), None
    g._legal = None


def resolving(g: GameState, seat: int, *effects: tuple[Any, ...], pool: list[tuple[Any, ...]] | None = None) -> None:
    """Puts `seat` in the middle of its turn, carrying out `effects` (the first listed is done first)."""
    turn_of(g, seat)
    g.phase = PHASE_RESOLVE
    g.stack = tuple(reversed(effects))
    g.pool = tuple(pool or [])
    g._legal = None
    advance(g, [])  # carry out whatever needs no decision, as the engine would have


def settle(g: GameState) -> list[dict[str, Any]]:
    """Runs what needs no decision after the state was arranged by hand; returns the events."""
    events: list[dict[str, Any]] = []
    g._legal = None
    advance(g, events)
    return events


def sheet_of(g: GameState, seat: int, **marks: Any) -> None:
    """Sets marks on a player's sheet: fame, money, karma_gained, karma_used, circled/sold as
    {"tea": n}, palace as {"trader": n}, levels as {"tower": n}, river as [spaces], roads as {cell: arms}."""
    p = g.players[seat]
    for key, value in marks.items():
        if key in ("circled", "sold"):
            for good, n in value.items():
                setattr(p, key, replaced(getattr(p, key), GOODS.index(good), n))
        elif key == "palace":
            for ch, n in value.items():
                p.palace = replaced(p.palace, CHARACTERS.index(ch), n)
        elif key == "levels":
            for b, n in value.items():
                p.levels = replaced(p.levels, g.sheet.buildings.index(b), n)
        elif key == "river":
            p.river = sum(1 << i for i in value)
        elif key == "roads":
            for c, arms in value.items():
                p.roads = replaced(p.roads, c, arms)
        else:
            setattr(p, key, value)
    p._frontier = None  # the engine's cache of where roads may go next
    g._legal = None


def options(g: GameState, kind: str | None = None) -> list[Decision]:
    return [d for d in legal_decisions(g) if kind is None or d.kind == kind]


def play(g: GameState, *decisions: Decision) -> tuple[GameState, list[dict[str, Any]]]:
    """Applies decisions in order; returns the final state and all events."""
    events: list[dict[str, Any]] = []
    for d in decisions:
        g, ev = apply(g, d)
        events.extend(ev)
    return g, events


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def decide(kind: str, *args: int, bonus: int = -1) -> Decision:
    return Decision(kind, tuple(args), bonus)


def bonus_index(g: GameState, effect: tuple[Any, ...]) -> int:
    return g.pool.index(effect)


__all__ = ["ELEPHANT", "MIDDLE"]


def carry_out(
    g: GameState, seat: int, *effects: tuple[Any, ...], pool: list[tuple[Any, ...]] | None = None
) -> list[dict[str, Any]]:
    """Like `resolving`, but returns the events of what was carried out without a decision."""
    turn_of(g, seat)
    g.phase = PHASE_RESOLVE
    g.stack = tuple(reversed(effects))
    g.pool = tuple(pool or [])
    return settle(g)

"""The palace (six characters, crossed out left to right) and the building upgrade table."""

from __future__ import annotations

from .effects import (
    GREAT_MOGUL,
    MAHARANI,
    MASTER_BUILDER,
    PORTUGUESE,
    RAJA_MAN_SINGH,
    TRADER,
    Effect,
)
from .state import GameState, replaced
from .tracks import Event, release

# What each character does once crossed out (pushed so the first listed is carried out first).
CHARACTER_ACTIONS: dict[int, tuple[Effect, ...]] = {
    GREAT_MOGUL: (("great_mogul",),),
    MAHARANI: (("maharani",),),
    TRADER: (("trader",),),
    RAJA_MAN_SINGH: (("money", 1, "palace"), ("upgrade",)),
    MASTER_BUILDER: (("half_roads", 2),),
    PORTUGUESE: (("portuguese",),),
}


def has_space(g: GameState, character: int) -> bool:
    return g.players[g.current].palace[character] < g.sheet.palace_uses


def completes_column(g: GameState, character: int, palace: tuple[int, ...] | None = None) -> bool:
    """Whether crossing the character out now would complete a column of its palace area (`palace`: the player's
    crossings to judge by, when another crossing comes first, as the Great Mogul's does)."""
    crossed = g.players[g.current].palace if palace is None else palace
    members = g.sheet.areas[g.sheet.character_area[character]][0]
    if crossed[character] >= g.sheet.palace_uses:
        return False
    return all(crossed[c] > crossed[character] for c in members if c != character)


def cross_out(g: GameState, character: int, events: list[Event]) -> None:
    """Crosses the character's leftmost free space; a completed column of its area releases a bonus."""
    p = g.players[g.current]
    area = g.sheet.character_area[character]
    members, column_bonuses = g.sheet.areas[area]
    before = min([p.palace[c] for c in members])
    p.palace = replaced(p.palace, character, p.palace[character] + 1)
    after = min([p.palace[c] for c in members])
    events.append({"type": "palace_crossed", "player": g.current, "character": character, "uses": p.palace[character]})
    if after > before:
        release(g, column_bonuses[after - 1], f"palace area {area} column {after}", "column_bonus", events)
    g.stack = g.stack + tuple(reversed(CHARACTER_ACTIONS[character]))


def upgrade_options(g: GameState) -> list[int]:
    levels = g.players[g.current].levels
    return [b for b, lv in enumerate(levels) if lv < g.sheet.max_level]


def upgrade(g: GameState, building: int, events: list[Event]) -> None:
    """Marks the next value of one building type; upgrading every type once (twice) releases a bonus."""
    p = g.players[g.current]
    before = min(p.levels)
    p.levels = replaced(p.levels, building, p.levels[building] + 1)
    after = min(p.levels)
    events.append({"type": "upgraded", "player": g.current, "building": building, "level": p.levels[building]})
    if after > before:
        release(g, g.sheet.upgrade_bonuses[after - 2], f"upgrade column {after - 1}", "upgrade_bonus", events)

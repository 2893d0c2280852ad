"""Roads in the province: where a road or half-road may go, and what drawing it activates."""

from __future__ import annotations

from collections.abc import Iterator

from .effects import DIRECTION_BITS, masks_for, shape_name
from .state import GameState, pushed, replaced
from .tracks import Event, gain_fame, release

_MASKS: dict[int, tuple[int, ...]] = {}


def _masks(shapes: int) -> tuple[int, ...]:
    m = _MASKS.get(shapes)
    if m is None:
        m = _MASKS[shapes] = masks_for(shapes)
    return m


def frontier(g: GameState) -> dict[int, int]:
    """Empty spaces that a drawn road runs up to, with the directions it arrives from."""
    p = g.players[g.current]
    if p._frontier is not None:
        return p._frontier
    roads = p.roads
    links = g.sheet.links
    out: dict[int, int] = {}
    for cell, arms in enumerate(roads):
        if arms:
            for bit, nb, back in links[cell]:
                if arms & bit and not roads[nb]:
                    out[nb] = out.get(nb, 0) | back
    p._frontier = out
    return out


def iter_road_options(g: GameState, shapes: int) -> Iterator[tuple[int, int]]:
    """(space, arms) for every new road of these shapes: on an empty space, joined to the network,
    and leaving the province only onto an edge bonus."""
    allowed = g.sheet.allowed
    masks = _masks(shapes)
    for cell, inc in sorted(frontier(g).items()):
        ok = allowed[cell]
        for m in masks:
            if m & inc and not m & ~ok:
                yield (cell, m)


def road_options(g: GameState, shapes: int) -> list[tuple[int, int]]:
    return list(iter_road_options(g, shapes))


def any_road(g: GameState, shapes: int) -> bool:
    return next(iter_road_options(g, shapes), None) is not None


def any_half_road(g: GameState) -> bool:
    allowed = g.sheet.allowed
    residence = g.sheet.residence
    for cell, arms in enumerate(g.players[g.current].roads):
        if arms and cell != residence and allowed[cell] & ~arms:
            return True
    return False


def half_road_options(g: GameState) -> list[tuple[int, int]]:
    """(space, arm) for one half-road added to a road the player drew (making a fork or intersection).
    The residence's roads are printed, not drawn: "if you would be allowed to connect a half-road but
    haven't yet drawn any roads", the half-road goes to waste."""
    roads = g.players[g.current].roads
    allowed = g.sheet.allowed
    residence = g.sheet.residence
    out = []
    for cell, arms in enumerate(roads):
        if not arms or cell == residence:
            continue
        free = allowed[cell] & ~arms
        for bit in DIRECTION_BITS:
            if free & bit:
                out.append((cell, bit))
    return out


def _edge_bonuses(g: GameState, cell: int, arms: int, events: list[Event]) -> None:
    """An edge bonus joined to the network is received once."""
    p = g.players[g.current]
    slots = g.sheet.edge_slot[cell]
    for i, bit in enumerate(DIRECTION_BITS):
        if not arms & bit:
            continue
        slot = slots[i]
        if slot < 0 or p.edges_taken >> slot & 1:
            continue
        bonus = g.sheet.edge_bonus[slot]
        if bonus is None:
            continue
        p.edges_taken |= 1 << slot
        release(g, bonus, f"edge {g.sheet.edge_names[slot]}", "province_bonus", events)


def draw_road(g: GameState, cell: int, arms: int, events: list[Event]) -> None:
    """A complete road on a new space; its building is erected or its market opened, once."""
    p = g.players[g.current]
    p.roads = replaced(p.roads, cell, arms)
    p._frontier = None
    events.append({"type": "road_drawn", "player": g.current, "cell": cell, "arms": arms, "shape": shape_name(arms)})
    _edge_bonuses(g, cell, arms, events)
    kind = g.sheet.cell_kind[cell]
    if kind == "building":
        b = g.sheet.cell_building[cell]
        fame = p.levels[b]
        events.append({"type": "building_erected", "player": g.current, "cell": cell, "building": b, "fame": fame})
        gain_fame(g, fame, "building", events)
    elif kind == "market":
        market = g.sheet.cell_market[cell]
        events.append({"type": "market_opened", "player": g.current, "cell": cell, "market": market})
        # Selling at a newly opened market is part of the road action itself: done now, up to 3 goods.
        g.stack = pushed(g.stack, ("sell", market, 3, 0))


def draw_half_road(g: GameState, cell: int, arm: int, events: list[Event]) -> None:
    """Extends a drawn road; the space's building or market does not pay again."""
    p = g.players[g.current]
    p.roads = replaced(p.roads, cell, p.roads[cell] | arm)
    p._frontier = None
    events.append({"type": "half_road_drawn", "player": g.current, "cell": cell, "arm": arm, "arms": p.roads[cell]})
    _edge_bonuses(g, cell, arm, events)

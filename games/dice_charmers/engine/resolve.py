"""Carrying out effects: which need a choice, what the choices are, and what each choice does."""

from __future__ import annotations

from collections.abc import Iterator

from .decisions import Decision, decision
from .effects import (
    CHARACTERS,
    GREAT_MOGUL,
    MAHARANI,
    MASTER_BUILDER,
    PORTUGUESE,
    RAJA_MAN_SINGH,
    SHAPES_HALF_ROADS,
    TRADER,
    Effect,
)
from .errors import IllegalDecision
from .market import can_gain_any, choice_options, gain_goods, room, sell, sell_options
from .palace import completes_column, cross_out, has_space, upgrade, upgrade_options
from .province import any_half_road, any_road, draw_half_road, draw_road, half_road_options, iter_road_options
from .river import ahead, behind_unmarked, mark, symbol_target
from .state import GameState, pushed, replaced
from .tracks import Event, gain_fame, gain_karma, gain_money

# Effects carried out without asking the player anything.
AUTOMATIC = frozenset({"fame", "money", "karma", "goods", "river_symbol", "river_forward", "river_back", "palace"})


def palace_usable(g: GameState, character: int) -> bool:
    """Whether crossing out the character and carrying out its action would do anything now.
    "Voor je dat doet kruis je de gekozen actie weg" (before that you cross out the chosen action): the
    crossing out is part of the action, so one that completes a palace column does something even when
    the character's own action then can do nothing."""
    return has_space(g, character) and (character_usable(g, character) or completes_column(g, character))


def character_usable(g: GameState, character: int) -> bool:
    """Whether the character's action could do anything now (its palace space aside)."""
    p = g.players[g.current]
    if character == GREAT_MOGUL:
        # He is crossed out before the action he lends is chosen, so that character's crossing is judged with his
        # already made: it may complete a column only then (decision 5).
        after = replaced(p.palace, GREAT_MOGUL, p.palace[GREAT_MOGUL] + 1)
        return any(
            c != GREAT_MOGUL and has_space(g, c) and (character_usable(g, c) or completes_column(g, c, after))
            for c in range(len(CHARACTERS))
        )
    if character == MAHARANI:
        return bool(ahead(g, 1))
    if character == TRADER:
        return any(p.owned(good) for good in range(3)) or any(room(g, good) for good in range(3))
    if character == RAJA_MAN_SINGH:
        return True  # the money is always received
    if character == MASTER_BUILDER:
        return any_half_road(g) or any_road(g, SHAPES_HALF_ROADS)
    if character == PORTUGUESE:
        return bool(behind_unmarked(g)) or any(room(g, good) for good in range(3))
    raise ValueError(character)


def usable(g: GameState, eff: Effect) -> bool:
    """Whether carrying out the effect would do anything; an unusable bonus goes to waste."""
    kind = eff[0]
    if kind == "goods":
        return can_gain_any(g, eff[1])
    if kind == "road":
        return any_road(g, eff[1])
    if kind == "river_symbol":
        return symbol_target(g, eff[1]) >= 0
    if kind in ("fame", "money", "karma"):
        return True
    if kind == "river_forward":
        return bool(ahead(g, 1))
    if kind == "river_back":
        return bool(behind_unmarked(g))
    if kind == "palace":
        return palace_usable(g, eff[1])
    if kind in ("half_roads", "half_road"):
        return any_half_road(g) or (kind == "half_roads" and eff[1] >= 2 and any_road(g, SHAPES_HALF_ROADS))
    return next(iter_options(g, eff), None) is not None


def options(g: GameState, eff: Effect) -> list[Decision]:
    """Every way to carry out an effect that needs a choice (empty: it cannot be used)."""
    return list(iter_options(g, eff))


def iter_options(g: GameState, eff: Effect) -> Iterator[Decision]:
    """The same, lazily: the engine often only needs to know whether there are none, one, or more."""
    kind = eff[0]
    if kind == "goods_choice":
        for c in choice_options(g, eff[1]):
            yield decision("goods", c)
    elif kind == "goods_die":
        faces = g.sheet.die_faces
        for d in g.sheet.purple_dice:
            if can_gain_any(g, faces[d][g.faces[d]][1]):
                yield decision("goods_die", (d,))
    elif kind == "sell":
        for c in sell_options(g, eff[1], eff[2], eff[3]):
            yield decision("sell", c)
    elif kind == "road":
        for rc in iter_road_options(g, eff[1]):
            yield decision("road", rc)
    elif kind in ("half_roads", "half_road"):
        if kind == "half_roads" and eff[1] >= 2:
            for rc in iter_road_options(g, SHAPES_HALF_ROADS):
                yield decision("road", rc)
        for hc in half_road_options(g):
            yield decision("half_road", hc)
    elif kind == "maharani":
        for i in ahead(g, 2):
            yield decision("river", (i,))
    elif kind == "river_back_choice":
        for i in behind_unmarked(g):
            yield decision("river", (i,))
    elif kind == "portuguese":
        # "move 1 or 2 unoccupied spaces back ... If there is no unoccupied space to move back to,
        # or if you don't want to move back, you obtain a good of your choice."
        for i in behind_unmarked(g)[:2]:
            yield decision("river", (i,))
        for c in choice_options(g, 1):
            yield decision("goods", c)
    elif kind == "trader":
        for c in sell_options(g, "any", 2, 1):
            yield decision("sell", c)
        for c in choice_options(g, 1):
            yield decision("goods", c)
    elif kind in ("palace_any", "great_mogul"):
        skip = GREAT_MOGUL if kind == "great_mogul" else -1
        for ch in range(len(CHARACTERS)):
            if ch != skip and palace_usable(g, ch):
                yield decision("palace", (ch,))
    elif kind == "upgrade":
        for b in upgrade_options(g):
            yield decision("upgrade", (b,))
    else:
        raise ValueError(f"effect {kind!r} needs no choice")


def run_automatic(g: GameState, eff: Effect, events: list[Event]) -> None:
    kind = eff[0]
    if kind == "fame":
        gain_fame(g, eff[1], eff[2] if len(eff) > 2 else "bonus", events)
    elif kind == "money":
        gain_money(g, eff[1], eff[2] if len(eff) > 2 else "bonus", events)
    elif kind == "karma":
        gain_karma(g, eff[1], events)
    elif kind == "goods":
        gain_goods(g, eff[1], events)
    elif kind == "river_symbol":
        mark(g, symbol_target(g, eff[1]), events)
    elif kind == "river_forward":
        mark(g, ahead(g, 1)[0], events)
    elif kind == "river_back":
        mark(g, behind_unmarked(g)[0], events)
    elif kind == "palace":
        cross_out(g, eff[1], events)
    else:
        raise ValueError(kind)


def apply_choice(g: GameState, eff: Effect, d: Decision, events: list[Event]) -> None:
    """Carries out `eff` (already taken off the stack) as decided by the legal decision `d`."""
    kind, dk, a = eff[0], d.kind, d.args
    if dk == "goods":
        gain_goods(g, (a[0], a[1], a[2]), events)
    elif dk == "goods_die":
        gain_goods(g, g.sheet.die_faces[a[0]][g.faces[a[0]]][1], events)
    elif dk == "sell":
        if a != (0, 0, 0):
            sell(g, (a[0], a[1], a[2]), events)
        else:
            events.append({"type": "goods_sold", "player": g.current, "goods": [0, 0, 0], "money": 0})
    elif dk == "road":
        draw_road(g, a[0], a[1], events)
    elif dk == "half_road":
        draw_half_road(g, a[0], a[1], events)
        if kind == "half_roads" and eff[1] > 1:
            g.stack = pushed(g.stack, ("half_roads", eff[1] - 1) if eff[1] > 2 else ("half_road",))
    elif dk == "river":
        mark(g, a[0], events)
    elif dk == "palace":
        g.stack = pushed(g.stack, ("palace", a[0]))
    elif dk == "upgrade":
        upgrade(g, a[0], events)
    else:
        raise IllegalDecision(f"{dk} does not carry out {kind}")

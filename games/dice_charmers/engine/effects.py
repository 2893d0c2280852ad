"""The vocabulary shared by sheet, rules and protocol: goods, characters, directions, road shapes, effects.

An *effect* is something a player must carry out: a die action, a river reward, a palace action or
a bonus. Effects are plain tuples `(kind, *params)` so a whole game state serialises as plain data.

| kind               | params              | meaning                                                       |
|--------------------|---------------------|---------------------------------------------------------------|
| fame/money/karma   | amount[, source]    | record on the track (fame/money: `source` of SOURCES, below)  |
| goods              | (tea, silk, spices) | circle these goods (purple die, fixed bonus)                  |
| goods_die          |                     | the two goods of one purple die, player's choice of die       |
| goods_choice       | n                   | n different goods of the player's choice                      |
| sell               | mode, max, min      | sell min..max goods (min = max: exactly; min 0: optional)     |
| road               | shapes              | draw a road of these shapes on an empty space                 |
| half_roads         | n                   | n half-roads (combine two into straight/bend, or add singly)  |
| half_road          |                     | one half-road added to a road the player drew                 |
| river_symbol       | symbol              | blue die: next free river space with that symbol              |
| river_forward      |                     | next river space                                              |
| river_back         |                     | nearest unmarked space behind                                 |
| river_back_choice  |                     | any unmarked space behind                                     |
| palace             | character           | cross out that character, then carry out its action          |
| palace_any         |                     | cross out a character of choice, then carry it out            |
| upgrade            |                     | upgrade one building type                                     |
| great_mogul / maharani / trader / portuguese | | the action of that character, after crossing out |
"""

from __future__ import annotations

from typing import Any

Effect = tuple[Any, ...]

GOODS: tuple[str, ...] = ("tea", "silk", "spices")
CHARACTERS: tuple[str, ...] = (
    "great_mogul",
    "maharani",
    "trader",
    "raja_man_singh",
    "master_builder",
    "portuguese",
)
GREAT_MOGUL, MAHARANI, TRADER, RAJA_MAN_SINGH, MASTER_BUILDER, PORTUGUESE = range(6)
COLOURS: tuple[str, ...] = ("purple", "green", "blue", "orange")

# Road arms as bits of a mask: a road on a space is the set of edges it runs to.
N, E, S, W = 1, 2, 4, 8
DIRECTIONS = {"N": N, "E": E, "S": S, "W": W}
DIRECTION_BITS = (N, E, S, W)
DIRECTION_INDEX = {N: 0, E: 1, S: 2, W: 3}
OPPOSITE = {N: S, E: W, S: N, W: E}

STRAIGHTS = (N | S, E | W)
BENDS = (N | E, E | S, S | W, W | N)
FORKS = (N | E | S, E | S | W, S | W | N, W | N | E)
INTERSECTION = N | E | S | W

# Sets of road shapes an effect allows, as bits.
SHAPE_STRAIGHT, SHAPE_BEND, SHAPE_FORK, SHAPE_INTERSECTION = 1, 2, 4, 8
SHAPES_STRAIGHT = SHAPE_STRAIGHT
SHAPES_BEND = SHAPE_BEND
SHAPES_HALF_ROADS = SHAPE_STRAIGHT | SHAPE_BEND  # two half-roads combined
SHAPES_ROAD_BONUS = SHAPE_STRAIGHT | SHAPE_FORK | SHAPE_INTERSECTION

SHAPE_MASKS: dict[int, tuple[int, ...]] = {
    SHAPE_STRAIGHT: STRAIGHTS,
    SHAPE_BEND: BENDS,
    SHAPE_FORK: FORKS,
    SHAPE_INTERSECTION: (INTERSECTION,),
}


def masks_for(shapes: int) -> tuple[int, ...]:
    """All arm masks (shape and rotation) a shape set allows."""
    out: list[int] = []
    for bit, masks in SHAPE_MASKS.items():
        if shapes & bit:
            out.extend(masks)
    return tuple(out)


def shape_name(arms: int) -> str:
    n = bin(arms).count("1")
    if n == 2:
        return "straight" if arms in STRAIGHTS else "bend"
    return {1: "half", 3: "fork", 4: "intersection"}.get(n, "none")


def arms_names(arms: int) -> str:
    return "".join(name for name, bit in DIRECTIONS.items() if arms & bit)


# Effects that need no choice and whose order among bonuses changes nothing: used at once.
ORDER_FREE = frozenset({"fame", "money", "karma"})

# Where fame and money come from, for the end-of-game breakdown (docs/protocol.md, events `fame` and `money`):
# an erected building, goods sold, a river reward, Raja Man Singh's money, and the bonuses of the fame or money
# track, the province's edge, a sold-out tent, a palace column, the upgrade table and the karma track.
# `bonus` is a fame or money effect that came with no source (only tests put one on the stack directly).
SOURCES: tuple[str, ...] = (
    "building",
    "market",
    "river",
    "palace",
    "track_bonus",
    "province_bonus",
    "tent_bonus",
    "column_bonus",
    "upgrade_bonus",
    "karma_bonus",
    "bonus",
)
SOURCE_INDEX: dict[str, int] = {s: i for i, s in enumerate(SOURCES)}

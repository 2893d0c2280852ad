"""The bounds of a sheet file, and the proof that a sheet's tracks can meet.

A custom sheet comes from anyone who creates a room, so every list and string of the schema in sheet.py
has a bound (the constants here), every check there is linear in the file's size, and `check_finite`
refuses a sheet whose tracks could never meet. What is proved, and what the engine's round limit adds, is
written in docs/sheets.md ("Limits and finiteness").
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

SHEET_BYTES_MAX = 256 * 1024  # a sheet file's text: the largest valid sheet is 40 KB, 148 KB indented by 4
NOTE_MAX = 1000  # characters of reconstruction_note (the built-in sheets use under 200)
NAME_MAX = 32  # characters of a building name, a river symbol, a die face, a province space
PROVINCE_MAX = 8  # rows and columns of the province
EDGE_BONUSES_MAX = 4 * PROVINCE_MAX  # one per place round the province's edge
TRACK_SPACES_MAX = 100  # spaces of the fame and money tracks (the built-in sheets have 42)
TRACK_VALUE_MAX = 1000  # the highest value a track space may show (the built-in sheets: 76)
TRACK_BONUSES_MAX = TRACK_SPACES_MAX
PRICES_MAX = 12  # goods in a market row
PRICE_MAX = 20  # coins for one good
TENTS_MAX = PRICES_MAX  # a tent holds at least one good
PALACE_AREAS_MAX = 6  # one character each at most
PALACE_USES_MAX = 5
UPGRADE_LEVEL_MAX = 5
KARMA_SPACES_MAX = 10
PURPLE_FACE_MAX = 3  # goods listed on one purple face (two are playable; the check says so by name)

# Money the palace always pays: Raja Man Singh's action gives 1 money, once per use.
RAJA_MONEY = 1


def _bonuses(spec: Any) -> Iterator[Any]:
    """Every bonus printed on the sheet. Each is received at most once per game: an edge bonus once, a
    river space once, a tent, a palace or upgrade column once, a track or karma space once (the entries
    only move forward)."""
    for e in spec.province.edge_bonuses:
        yield e.bonus
    for sp in spec.river.spaces:
        yield from sp.reward
    for track in (spec.tracks.fame, spec.tracks.money, spec.karma):
        for tb in track.bonuses:
            yield tb.bonus
    for row in spec.market.rows:
        for t in row.tents:
            yield t.bonus
    for area in spec.palace.areas:
        yield from area.column_bonuses
    yield from spec.upgrades.column_bonuses


def most_fame_and_money(spec: Any) -> tuple[int, int]:
    """An upper bound of the fame and the money one player can collect in a whole game.

    Fame comes only from erecting buildings (each space once, at most the top upgrade value) and from
    fame bonuses; money only from selling goods (each market column once, at its coin), from Raja Man
    Singh (1 money per use) and from money bonuses. Dice never give fame or money directly."""
    names = set(spec.upgrades.buildings)
    buildings = sum(1 for row in spec.province.cells for c in row if c in names)
    fame = buildings * spec.upgrades.max_level
    money = len(spec.market.rows) * sum(spec.market.prices) + RAJA_MONEY * spec.palace.uses
    for b in _bonuses(spec):
        if b.kind == "fame":
            fame += b.amount
        elif b.kind == "money":
            money += b.amount
    return fame, money


def _position(values: list[int], value: int) -> Fraction:
    """Where a total stands on its track, in spaces (as tracks.track_position, which imports the engine)."""
    last = len(values) - 1
    if value >= values[last]:
        return last + Fraction(value - values[last], values[last] - values[last - 1])
    i = 0
    while values[i + 1] <= value:  # linear: a track has at most TRACK_SPACES_MAX spaces
        i += 1
    return i + Fraction(value - values[i], values[i + 1] - values[i])


def best_overlap(spec: Any) -> Fraction:
    """How far the tracks would pass each other for a player who collected every fame and money the sheet
    gives (negative: they could never meet)."""
    fame, money = most_fame_and_money(spec)
    fv, mv = spec.tracks.fame.values, spec.tracks.money.values
    return _position(fv, fame) + _position(mv, money) - (len(fv) - 1)


def check_finite(spec: Any) -> None:
    """Refuses a sheet whose fame and money tracks could never meet, whatever the players do."""
    fame, money = most_fame_and_money(spec)
    if best_overlap(spec) < 0:
        raise ValueError(
            f"tracks: the fame and money tracks can never meet: all the sheet gives is {fame} fame and "
            f"{money} money, short of where the tracks cross"
        )

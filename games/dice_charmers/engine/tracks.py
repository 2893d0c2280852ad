"""Fame, money and karma tracks; releasing bonuses; the crossing of the two tracks and final standings."""

from __future__ import annotations

import itertools
from bisect import bisect_right
from fractions import Fraction
from typing import Any

from .effects import SOURCE_INDEX, Effect
from .sheet import Sheet
from .state import GameState, PlayerState, by_source, pushed, replaced

Event = dict[str, Any]

_GAINS = frozenset({"fame", "money"})


def sourced(effect: Effect, source: str) -> Effect:
    """A fame or money effect carrying where it came from (its third element); other effects as they are."""
    if effect[0] in _GAINS:
        return (effect[0], effect[1], source)
    return effect


def release(g: GameState, effect: Effect, where: str, source: str, events: list[Event]) -> None:
    """A bonus is circled now and used after the die action, in the order the player chooses. `where` names
    the space for the log; `source` is the breakdown's name for what released it."""
    g.pool = pushed(g.pool, sourced(effect, source))
    events.append({"type": "bonus_released", "player": g.current, "bonus": list(effect), "source": where})


def _passed(bonuses: tuple[tuple[int, Effect], ...], old: int, new: int) -> list[tuple[int, Effect]]:
    # "Whenever you land on or pass a space that shows a bonus, you receive this bonus."
    return [(at, eff) for at, eff in bonuses if old < at <= new]


def gain_fame(g: GameState, amount: int, source: str, events: list[Event]) -> None:
    p = g.players[g.current]
    old = p.fame
    p.fame = old + amount
    i = SOURCE_INDEX[source]
    p.fame_from = replaced(p.fame_from, i, p.fame_from[i] + amount)
    events.append({"type": "fame", "player": g.current, "amount": amount, "total": p.fame, "source": source})
    for at, eff in _passed(g.sheet.fame_bonuses, old, p.fame):
        release(g, eff, f"fame track {at}", "track_bonus", events)


def gain_money(g: GameState, amount: int, source: str, events: list[Event]) -> None:
    p = g.players[g.current]
    old = p.money
    p.money = old + amount
    i = SOURCE_INDEX[source]
    p.money_from = replaced(p.money_from, i, p.money_from[i] + amount)
    events.append({"type": "money", "player": g.current, "amount": amount, "total": p.money, "source": source})
    for at, eff in _passed(g.sheet.money_bonuses, old, p.money):
        release(g, eff, f"money track {at}", "track_bonus", events)


def gain_karma(g: GameState, amount: int, events: list[Event]) -> None:
    p = g.players[g.current]
    old = p.karma_gained
    # Karma is circled on the karma track; once it is full, further karma has nowhere to go.
    p.karma_gained = min(g.sheet.karma_spaces, old + amount)
    got = p.karma_gained - old
    events.append({"type": "karma", "player": g.current, "amount": got, "total": p.karma_gained, "lost": amount - got})
    for at, eff in _passed(g.sheet.karma_bonuses, old, p.karma_gained):
        release(g, eff, f"karma {at}", "karma_bonus", events)


def track_position(values: tuple[int, ...], value: int) -> Fraction:
    """Where a total stands on its track, in spaces; between two spaces it stands part way."""
    last = len(values) - 1
    if value >= values[last]:
        step = values[last] - values[last - 1]
        return last + Fraction(value - values[last], step)
    i = bisect_right(values, value) - 1
    return i + Fraction(value - values[i], values[i + 1] - values[i])


# Fractions are dear and a sheet has few (fame, money) pairs: each is worked out once, with its float for clients.
_overlaps: dict[tuple[str, int, int], tuple[Fraction, float]] = {}


def _overlap(sheet: Sheet, fame: int, money: int) -> tuple[Fraction, float]:
    key = (sheet.digest, fame, money)
    got = _overlaps.get(key)
    if got is None:
        if len(_overlaps) >= 1 << 16:
            _overlaps.clear()
        exact = track_position(sheet.fame_values, fame) + track_position(sheet.money_values, money) - sheet.track_length
        got = _overlaps[key] = (exact, float(exact))
    return got


def overlap(sheet: Sheet, fame: int, money: int) -> Fraction:
    """How far the fame and money entries have passed each other (negative: not yet met)."""
    return _overlap(sheet, fame, money)[0]


def overlap_float(sheet: Sheet, fame: int, money: int) -> float:
    """`float(overlap(...))`, for clients (converting a Fraction costs as much as looking it up)."""
    return _overlap(sheet, fame, money)[1]


def has_crossed(sheet: Sheet, p: PlayerState) -> bool:
    """The tracks intersect once both entries reach the same space (overlap >= 0); exact, in integers."""
    fv, mv = sheet.fame_values, sheet.money_values
    if p.fame >= fv[-1] or p.money >= mv[-1]:
        return overlap(sheet, p.fame, p.money) >= 0
    i = bisect_right(fv, p.fame) - 1
    j = bisect_right(mv, p.money) - 1
    k = i + j - sheet.track_length  # whole spaces of overlap; the part-spaces add less than 2
    if k >= 0:
        return True
    if k < -1:
        return False
    da, db = fv[i + 1] - fv[i], mv[j + 1] - mv[j]
    return (p.fame - fv[i]) * db + (p.money - mv[j]) * da >= da * db


def standings(g: GameState) -> list[dict[str, Any]]:
    """Final result: greatest overlap wins; ties by karma circled, then karma crossed out; then shared."""
    rows: list[dict[str, Any]] = []
    for seat, p in enumerate(g.players):
        ov = overlap(g.sheet, p.fame, p.money)
        rows.append(
            {
                "seat": seat,
                "fame": p.fame,
                "money": p.money,
                "overlap": float(ov),
                "overlap_exact": [ov.numerator, ov.denominator],
                "crossed": ov >= 0,
                "karma_gained": p.karma_gained,
                "karma_used": p.karma_used,
                "fame_by_source": by_source(p.fame_from),
                "money_by_source": by_source(p.money_from),
                "_key": (ov, p.karma_gained, p.karma_used),
            }
        )
    rows.sort(key=lambda r: r["_key"], reverse=True)
    rank = 0
    prev = None
    for i, r in enumerate(rows):
        if r["_key"] != prev:
            rank = i + 1
            prev = r["_key"]
        r["rank"] = rank
    for r in rows:
        r["winner"] = r["rank"] == 1
        del r["_key"]
    _explain_ties(rows)
    return rows


def _explain_ties(rows: list[dict[str, Any]]) -> None:
    for a, b in itertools.pairwise(rows):
        if a["overlap_exact"] != b["overlap_exact"]:
            a["ahead_by"] = "overlap"
        elif a["karma_gained"] != b["karma_gained"]:
            a["ahead_by"] = "karma_gained"
        elif a["karma_used"] != b["karma_used"]:
            a["ahead_by"] = "karma_used"
        else:
            a["ahead_by"] = "shared"

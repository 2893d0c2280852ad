"""Sheet files made for the limit and attack tests: the attack's never-ending sheet, one that passes validation
but rarely ends by the tracks, the largest sheet the limits allow, and sheets generated from Sun for hypothesis."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

from hypothesis import strategies as st
from rajas.games.dice_charmers.engine import load_sheet
from rajas.games.dice_charmers.engine.effects import CHARACTERS
from rajas.games.dice_charmers.engine.sheet_limits import (
    EDGE_BONUSES_MAX,
    KARMA_SPACES_MAX,
    NAME_MAX,
    NOTE_MAX,
    PALACE_USES_MAX,
    PRICE_MAX,
    PRICES_MAX,
    PROVINCE_MAX,
    TRACK_SPACES_MAX,
    TRACK_VALUE_MAX,
    UPGRADE_LEVEL_MAX,
)

Sheet = dict[str, Any]


def sun() -> Sheet:
    return copy.deepcopy(load_sheet("sun").to_json())


def never_ending() -> Sheet:
    """The attack as it was sent: Sun with track values a million apart and no bonuses on the tracks."""
    d = sun()
    d["name"] = "never-ending"
    for track in ("fame", "money"):
        d["tracks"][track] = {"values": [i * 1_000_000 for i in range(42)], "bonuses": []}
    return d


def out_of_reach() -> Sheet:
    """The same attack within the value limits: 42 spaces 24 apart, more than all the sheet's fame and money."""
    d = never_ending()
    for track in ("fame", "money"):
        d["tracks"][track]["values"] = [i * 24 for i in range(42)]
    return d


def stalling(karma: bool = False) -> Sheet:
    """Passes validation (a player who took every fame and money on the sheet would cross) but random players
    almost never cross: fame spaces 3 apart, money 4. Without karma, once nobody can use a die no decision is
    asked any more, and the engine passes turn after turn in one apply() until its round limit."""
    d = sun()
    d["name"] = "stalling"
    for track, step in (("fame", 3), ("money", 4)):
        t = d["tracks"][track]
        old = t["values"]
        t["values"] = [i * step for i in range(len(old))]
        t["bonuses"] = [{"at": t["values"][old.index(b["at"])], "bonus": b["bonus"]} for b in t["bonuses"]]
    if not karma:
        d["karma"]["start"] = 0
        _replace_kind(d, "karma", {"kind": "goods_die"})
    return d


def _replace_kind(node: Any, kind: str, by: dict[str, Any]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            if isinstance(v, dict) and v.get("kind") == kind:
                node[k] = dict(by)
            else:
                _replace_kind(v, kind, by)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            if isinstance(v, dict) and v.get("kind") == kind:
                node[i] = dict(by)
            else:
                _replace_kind(v, kind, by)


FAME20 = {"kind": "fame", "amount": 20}
GOODS3 = {"kind": "goods", "goods": ["spices", "spices", "spices"]}  # among the longest bonuses written out


def largest() -> Sheet:
    """A valid sheet with every list at its longest and every string at its longest the checks allow."""
    n = NAME_MAX
    symbols = [f"{i:02d}".ljust(n, "s") for i in range(6)]
    buildings = [f"{i}".ljust(n, "b") for i in range(6)]
    d = sun()
    d["name"] = "l" * 32
    d["title"] = "T" * 60
    d["reconstruction_note"] = "n" * NOTE_MAX
    for die in d["dice"]:
        if die["colour"] == "blue":
            die["faces"] = symbols
    cells = [[buildings[(r + c) % 6] for c in range(PROVINCE_MAX)] for r in range(PROVINCE_MAX)]
    cells[3][3] = "residence"
    cells[0][0], cells[7][7] = "market_same", "market_different"
    edges = [(s, i) for s in "NESW" for i in range(PROVINCE_MAX)]
    assert len(edges) == EDGE_BONUSES_MAX
    d["province"] = {
        "cells": cells,
        "residence_roads": ["N", "E", "S", "W"],
        "edge_bonuses": [{"side": s, "index": i, "bonus": GOODS3} for s, i in edges],
    }
    d["river"] = {"spaces": [{"symbol": symbols[i % 6], "reward": [GOODS3, GOODS3, FAME20]} for i in range(40)]}
    step = TRACK_VALUE_MAX // TRACK_SPACES_MAX
    values = [i * step for i in range(TRACK_SPACES_MAX)]
    bonuses = [{"at": v, "bonus": GOODS3} for v in values[1:]] + [{"at": values[-1], "bonus": FAME20}]
    d["tracks"] = {"fame": {"values": values, "bonuses": bonuses}, "money": {"values": values, "bonuses": bonuses}}
    d["market"] = {
        "prices": [PRICE_MAX] * PRICES_MAX,
        "rows": [{"good": g, "tents": [{"size": 1, "bonus": GOODS3}] * PRICES_MAX} for g in ("tea", "silk", "spices")],
    }
    d["palace"] = {
        "uses": PALACE_USES_MAX,
        "areas": [{"characters": [c], "column_bonuses": [GOODS3] * PALACE_USES_MAX} for c in CHARACTERS],
    }
    d["upgrades"] = {"buildings": buildings, "max_level": UPGRADE_LEVEL_MAX, "column_bonuses": [FAME20] * 4}
    d["karma"] = {
        "spaces": KARMA_SPACES_MAX,
        "start": 1,
        "bonuses": [{"at": i, "bonus": GOODS3} for i in range(1, KARMA_SPACES_MAX + 1)],
    }
    return d


# ---- generated sheets -------------------------------------------------------------------------------------

@st.composite
def playable(draw: st.DrawFn) -> Sheet:
    """Sun with its numbers, tracks, bonuses and province drawn afresh within the schema's limits. Most pass
    validation; the test assumes away the few whose tracks could never meet."""
    d = sun()
    d["name"] = "generated"
    # The many small choices (steps, which bonuses stay, the province's order) come from one drawn generator:
    # a handful of draws per sheet keeps generating a sheet cheap.
    rng = draw(st.randoms(use_true_random=False))
    spaces = draw(st.integers(min_value=10, max_value=TRACK_SPACES_MAX))
    most_step = draw(st.integers(1, 7))
    for track in ("fame", "money"):
        t = d["tracks"][track]
        steps = [rng.randint(1, most_step) for _ in range(spaces - 1)]
        values = [0]
        for s in steps:
            values.append(values[-1] + s)
        old = t["values"]
        # Each bonus stays on the space of the same number, when the new track has it.
        t["values"] = values
        t["bonuses"] = [
            {"at": values[old.index(b["at"])], "bonus": b["bonus"]}
            for b in t["bonuses"]
            if old.index(b["at"]) < len(values) and rng.random() < 0.7
        ]
    _draw_amounts(rng, d)
    prices = draw(st.lists(st.integers(1, PRICE_MAX), min_size=3, max_size=PRICES_MAX))
    d["market"]["prices"] = prices
    for row in d["market"]["rows"]:
        bonuses = [t["bonus"] for t in row["tents"]]
        cuts = {rng.randint(1, len(prices) - 1) for _ in range(rng.randint(0, 3))}
        if len(prices) > 8:
            cuts.add(8)  # a tent holds at most 8 goods
        edges = [0, *sorted(cuts), len(prices)]
        row["tents"] = [
            {"size": b - a, "bonus": bonuses[i % len(bonuses)]} for i, (a, b) in enumerate(itertools.pairwise(edges))
        ]
    uses = draw(st.integers(1, PALACE_USES_MAX))
    d["palace"]["uses"] = uses
    for area in d["palace"]["areas"]:
        area["column_bonuses"] = [area["column_bonuses"][i % 3] for i in range(uses)]
    level = draw(st.integers(2, UPGRADE_LEVEL_MAX))
    d["upgrades"]["max_level"] = level
    d["upgrades"]["column_bonuses"] = [d["upgrades"]["column_bonuses"][i % 2] for i in range(level - 1)]
    karma_spaces = draw(st.integers(5, KARMA_SPACES_MAX))
    d["karma"]["spaces"] = karma_spaces
    d["karma"]["start"] = draw(st.integers(0, 2))
    # The province's spaces change places around the residence (which keeps its place and its roads).
    cells = d["province"]["cells"]
    flat = [c for r in cells for c in r if c != "residence"]
    rng.shuffle(flat)
    it = iter(flat)
    d["province"]["cells"] = [[c if c == "residence" else next(it) for c in r] for r in cells]
    d["province"]["edge_bonuses"] = [e for e in d["province"]["edge_bonuses"] if rng.random() < 0.75]
    return d


def _draw_amounts(rng: random.Random, node: Any) -> None:
    if isinstance(node, dict):
        if node.get("kind") in ("fame", "money") and "amount" in node:
            node["amount"] = rng.randint(1, 20)
        for v in node.values():
            _draw_amounts(rng, v)
    elif isinstance(node, list):
        for v in node:
            _draw_amounts(rng, v)

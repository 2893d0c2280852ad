"""The sheet draws each road bonus's printed shape and each sell bonus's exact count or range, and names
them so in English, Dutch and German (issue 14; docs/rules-decisions.md, decisions 14 and 32)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from web_helpers import GAME, open_demo


def _sheet_bonuses(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    out = [e["bonus"] for e in sheet["province"]["edge_bonuses"]]
    out += [b for sp in sheet["river"]["spaces"] for b in sp["reward"]]
    out += [tb["bonus"] for track in ("fame", "money") for tb in sheet["tracks"][track]["bonuses"]]
    out += [tent["bonus"] for row in sheet["market"]["rows"] for tent in row["tents"]]
    out += [b for area in sheet["palace"]["areas"] for b in area["column_bonuses"]]
    out += list(sheet["upgrades"]["column_bonuses"]) + [kb["bonus"] for kb in sheet["karma"]["bonuses"]]
    return out


@pytest.mark.parametrize("fixture", ["start", "moon"])
def test_the_sheet_draws_each_road_bonus_shape_and_each_sell_count(page: Any, base_url: str, fixture: str) -> None:
    open_demo(page, base_url, fixture)
    sheet = json.loads((GAME / "fixtures" / f"{fixture}.json").read_text())["sheet"]
    bonuses = _sheet_bonuses(sheet)
    svg = page.locator("#me svg.sheet")

    roads = sorted(b.get("shape") or "any" for b in bonuses if b["kind"] == "road")
    drawn_roads = sorted(svg.locator(".bonus-road").evaluate_all("ns => ns.map(n => n.dataset.shape)"))
    assert roads and "any" not in roads and drawn_roads == roads

    sells = sorted(str(b["count"]) if b.get("count") else f"1-{b['max']}" for b in bonuses if b["kind"] == "sell")
    drawn_sells = sorted(svg.locator(".bonus-sell").evaluate_all("ns => ns.map(n => n.dataset.count)"))
    assert drawn_sells == sells
    assert {"2", "1-3"} <= set(drawn_sells) or {"3", "1-3"} <= set(drawn_sells)
    texts = svg.locator(".bonus-sell text").evaluate_all("ns => ns.map(n => n.textContent)")
    assert set(drawn_sells) <= set(texts), "the count or range is printed in the icon"
    assert page.console_errors == []


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["Road: Fork", "Road: Intersection", "Road: straight, fork or intersection", "Sell 2 goods",
                "Sell 1-2 goods", "Sell 2 different goods", "Sell up to 3 goods of one kind", "Sell 1 good"]),
        ("nl", ["Weg: Splitsing", "Weg: Kruising", "Weg: recht stuk, splitsing of kruising", "2 goederen verkopen",
                "1-2 goederen verkopen", "2 verschillende goederen verkopen", "Tot 3 goederen van één soort verkopen",
                "1 goed verkopen"]),
        ("de", ["Straße: Abzweigung", "Straße: Kreuzung", "Straße: Gerade, Abzweigung oder Kreuzung",
                "2 Waren verkaufen", "1-2 Waren verkaufen", "2 verschiedene Waren verkaufen",
                "Bis zu 3 gleiche Waren verkaufen", "1 Ware verkaufen"]),
    ],
)  # fmt: skip
def test_road_and_sell_bonus_labels_say_the_shape_and_the_count(
    page: Any, base_url: str, lang: str, expected: list[str]
) -> None:
    open_demo(page, base_url, "start", lang)
    labels = page.evaluate(
        """async (lang) => {
            const m = await import('./labels.js');
            return [
                {kind: "road", shape: "fork"},
                m.effectBonus(["road", 8]),
                {kind: "road"},
                {kind: "sell", mode: "any", count: 2},
                {kind: "sell", mode: "any", max: 2, count: null},
                m.effectBonus(["sell", "different", 2, 2]),
                m.effectBonus(["sell", "same", 3, 0]),
                {kind: "sell", mode: "any", count: 1},
            ].map(b => m.bonusLabel(b, lang));
        }""",
        lang,
    )
    assert labels == expected

"""Numbers and plurals in the player's language through Intl (client_web/words.js), and the legend of a sheet's
icons built from the sheet file (client_web/help.js)."""

from __future__ import annotations

from typing import Any

from web_helpers import open_demo


def words(page: Any, expr: str) -> Any:
    return page.evaluate(f"(async () => {{ const w = await import('/words.js'); return {expr}; }})()")


def test_one_space_apart_is_singular_and_decimals_follow_the_language(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "midgame")
    assert words(page, "w.overlapWords(-1, 'en')") == "1 space apart"
    assert words(page, "w.overlapWords(-13.5, 'en')") == "13.5 spaces apart"
    assert words(page, "w.overlapWords(-13.5, 'nl')") == "13,5 vakken uit elkaar"
    assert words(page, "w.overlapWords(-1, 'de')") == "1 Feld auseinander"
    assert words(page, "w.overlapWords(2.5, 'de')") == "um 2,5 Felder gekreuzt"
    assert words(page, "w.num(1234.5, 'de')") == "1.234,5"


def test_the_legend_lists_every_bonus_of_the_sheet_once(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "midgame")
    rows = page.evaluate(
        """(async () => {
            const h = await import('/help.js');
            const fx = await (await fetch('/fixtures/midgame.json')).json();
            const ul = h.sheetLegend(fx.sheet, 'en');
            return [...ul.querySelectorAll('.legend-row')].map((r) => r.querySelector(':scope > span').textContent);
        })()"""
    )
    assert "Temple" in rows and "Tea" in rows and "Palace: Great Mogul" in rows
    assert any(r.startswith("River: ") for r in rows)
    assert "3 fame" in rows and "Karma" in rows  # the bonuses found anywhere on the sheet
    assert len(set(rows)) > 25

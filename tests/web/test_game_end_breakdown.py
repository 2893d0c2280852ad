"""The final scores show where each player's fame and money came from, source by source, and the sources add up
to the totals: the result of a whole game played by the real engine, drawn by the real client in Chromium."""

from __future__ import annotations

import random
import shutil
from typing import Any

import pytest
from rajas.games.dice_charmers.engine import apply, legal_decisions, load_sheet, new_game
from rajas.games.dice_charmers.engine.effects import SOURCES
from web_helpers import ARTIFACTS, ROOT, open_demo

AXE = ROOT / "tests" / "web" / "node_modules" / "axe-core" / "axe.min.js"
SHOT = "game-over-breakdown.png"
NAMES = ["Anna", "Ben", "Chitra"]

# The final scores' box as the game screen shows it at the end: the game's summary in the table's overlay.
SHOW = """async ([lang, names, result, round]) => {
    const { h } = await import('/ui.js');
    const { loadWords, t } = await import('/i18n.js');
    const { SEAT_COLOURS } = await import('/glyphs.js');
    const { openOverlay } = await import('/overlay.js');
    const { summary } = await import('/play/dice_charmers/summary.js');
    await loadWords(lang);
    const sum = summary({ lang, names, colours: SEAT_COLOURS, me: 0, game: { state: { round, result } } });
    const box = h('div', { class: 'result' }, h('h2', null, t('final_scores', lang)),
        h('p', { class: 'result-winner', 'data-winner-text': '' }, sum.winner), sum.scores, sum.breakdown);
    openOverlay(box, { 'data-overlay': 'result' });
}"""

READ = """() => {
    const out = {};
    for (const table of document.querySelectorAll('[data-overlay=result] table[data-breakdown]')) {
        const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
        const rows = [...table.querySelectorAll('tbody tr, tfoot tr')].map((tr) => ({
            source: tr.dataset.source,
            label: tr.querySelector('th[scope=row]').textContent,
            cells: [...tr.querySelectorAll('td')].map((td) => Number(td.textContent.replace(/[^0-9-]/g, ''))),
        }));
        out[table.dataset.breakdown] = { caption: table.caption?.textContent ?? '', heads, rows };
    }
    return out;
}"""


def finished_game(n: int = 3, sheet: str = "moon", seed: int = 12) -> tuple[list[dict[str, Any]], int]:
    """The result rows of a whole game of random players, and its last round."""
    g, _ = new_game(n, seed, load_sheet(sheet))
    rng = random.Random(seed)
    while not g.is_over:
        g, _ = apply(g, rng.choice(legal_decisions(g)))
    assert g.result is not None
    return g.result, g.round


def test_the_final_scores_show_fame_and_money_by_source_and_they_add_up(page: Any, base_url: str) -> None:
    result, rnd = finished_game()
    open_demo(page, base_url, "start")
    page.evaluate(SHOW, ["en", NAMES, result, rnd])
    page.wait_for_selector("[data-overlay=result] table[data-breakdown=money]")
    tables = page.evaluate(READ)

    assert set(tables) == {"fame", "money"}
    assert tables["fame"]["caption"] == "Fame by source"
    for track, table in tables.items():
        assert table["heads"] == ["Source"] + [NAMES[r["seat"]] for r in result], "a column per player, by rank"
        *sources, total = table["rows"]
        assert total["source"] == "total" and total["cells"] == [r[track] for r in result]
        for col, row in enumerate(result):
            shown = {s["source"]: s["cells"][col] for s in sources if s["cells"][col]}
            assert shown == row[f"{track}_by_source"], f"{track} of seat {row['seat']} source by source"
            assert sum(s["cells"][col] for s in sources) == total["cells"][col], "the sources add up to the total"
    labels = {s["source"]: s["label"] for t in tables.values() for s in t["rows"]}
    assert labels["building"] == "Buildings erected" and labels["market"] == "Goods sold" and labels["river"] == "River"
    assert page.console_errors == []

    page.set_viewport_size({"width": 1100, "height": 1400})  # the whole card in the picture
    page.wait_for_timeout(400)  # the overlay's fade-in
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("[data-overlay=result] .overlay-card").screenshot(path=str(ARTIFACTS / SHOT))
    shutil.copyfile(ARTIFACTS / SHOT, ROOT / "docs" / "screenshots" / SHOT)


@pytest.mark.parametrize(("lang", "title", "river"), [("nl", "Waar de punten vandaan kwamen", "Rivier"),
                                                      ("de", "Woher die Punkte kamen", "Fluss")])
def test_the_breakdown_speaks_dutch_and_german(page: Any, base_url: str, lang: str, title: str, river: str) -> None:
    result, rnd = finished_game()
    open_demo(page, base_url, "start", lang)
    page.evaluate(SHOW, [lang, NAMES, result, rnd])
    assert page.inner_text("[data-overlay=result] .breakdown-block h3") == title
    assert page.inner_text("[data-overlay=result] tr[data-source=river] th") == river
    assert page.console_errors == []


def test_the_client_knows_every_source_of_the_engine_and_names_it_in_each_language(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "start")
    got = page.evaluate(
        """async () => {
            const { SOURCES } = await import('./summary.js');
            const { t, loadWords } = await import('/i18n.js');
            await Promise.all(['en', 'nl', 'de'].map((l) => loadWords(l)));
            return { sources: SOURCES, labels: ['en', 'nl', 'de'].map((l) => SOURCES.map((s) => t(`src_${s}`, l))) };
        }"""
    )
    assert got["sources"] == list(SOURCES)
    for labels in got["labels"]:
        assert all(not label.startswith("src ") for label in labels), labels
    assert len({tuple(ls) for ls in got["labels"]}) == 3, "each language its own words"


def test_the_breakdown_has_no_serious_axe_violation(page: Any, base_url: str) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed (tests/run.sh installs it with npm into tests/web/node_modules)")
    result, rnd = finished_game()
    open_demo(page, base_url, "start")
    page.evaluate(SHOW, ["en", NAMES, result, rnd])
    page.wait_for_timeout(400)
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const r = await axe.run(document.querySelector('[data-overlay=result]'), { resultTypes: ['violations'] });
            return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
        }"""
    )
    assert found == []

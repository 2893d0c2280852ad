"""The page's words: one catalogue per language for the table (client_web/i18n/<lang>.js) and one per language for
each game (games/<id>/web/i18n/<lang>.js), each with every key in every language, no key in two of them, and every
key the code names in them; numbers and plurals in the player's language through Intl (client_web/i18n.js); and the
legend of a sheet's icons built from the sheet file (games/dice_charmers/web/help.js)."""

from __future__ import annotations

import re
from typing import Any

from web_helpers import CLIENT, GAME, GAMES, catalogue, open_demo

LANGS = ("en", "nl", "de")
TABLE = {lang: catalogue(CLIENT / "i18n" / f"{lang}.js") for lang in LANGS}
GAME_WORDS = {lang: catalogue(GAME / "i18n" / f"{lang}.js") for lang in LANGS}
# every game's catalogues (the games' words share one page, so no key may be in two of them)
EVERY_GAME = {
    web.parent.name: {lang: catalogue(web / "i18n" / f"{lang}.js") for lang in LANGS}
    for web in sorted(GAMES.glob("*/web"))
}
SOURCES = [*CLIENT.glob("*.js"), *GAMES.glob("*/web/*.js")]


def test_every_catalogue_has_every_key_in_every_language() -> None:
    assert len(EVERY_GAME) >= 2 and EVERY_GAME["dice_charmers"] == GAME_WORDS
    for words in (TABLE, *EVERY_GAME.values()):
        assert len(words["en"]) > 100
        for lang in LANGS:
            assert set(words[lang]) == set(words["en"]), lang
            assert all(label.strip() for label in words[lang].values()), f"an empty label in {lang}"


def test_a_key_is_the_tables_or_the_games_never_both() -> None:
    owners = [set(TABLE["en"]), *(set(w["en"]) for w in EVERY_GAME.values())]
    for i, a in enumerate(owners):
        for b in owners[i + 1 :]:
            assert a.isdisjoint(b), a & b


def test_every_key_the_code_names_is_in_a_catalogue() -> None:
    known = set(TABLE["en"]).union(*(w["en"] for w in EVERY_GAME.values()))
    named = {k for src in SOURCES for k in re.findall(r"""\b(?:t|L)\(\s*["']([a-z][a-z0-9_]*)["']""", src.read_text())}
    assert len(named) > 200
    assert named - known == set()


def test_the_labels_vars_are_the_same_in_every_language() -> None:
    for words in (TABLE, *EVERY_GAME.values()):
        for key, label in words["en"].items():
            want = set(re.findall(r"\{(\w+)\}", label))
            for lang in LANGS[1:]:
                assert set(re.findall(r"\{(\w+)\}", words[lang][key])) == want, f"{key} in {lang}"


def words(page: Any, expr: str) -> Any:
    return page.evaluate(
        """async (expr) => {
            const i18n = await import('/i18n.js');
            const tracks = await import('/play/dice_charmers/tracks.js');
            await Promise.all(i18n.LANGS.map((l) => i18n.loadWords(l)));
            return new Function('i18n', 'tracks', `return ${expr}`)(i18n, tracks);
        }""",
        expr,
    )


def test_one_space_apart_is_singular_and_decimals_follow_the_language(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "midgame")
    assert words(page, "tracks.overlapWords(-1, 'en')") == "1 space apart"
    assert words(page, "tracks.overlapWords(-13.5, 'en')") == "13.5 spaces apart"
    assert words(page, "tracks.overlapWords(-13.5, 'nl')") == "13,5 vakken uit elkaar"
    assert words(page, "tracks.overlapWords(-1, 'de')") == "1 Feld auseinander"
    assert words(page, "tracks.overlapWords(2.5, 'de')") == "um 2,5 Felder gekreuzt"
    assert words(page, "i18n.num(1234.5, 'de')") == "1.234,5"


def test_the_legend_lists_every_bonus_of_the_sheet_once(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "midgame")
    rows = page.evaluate(
        """(async () => {
            const { h, render } = await import('/ui.js');
            const { sheetLegend } = await import('/play/dice_charmers/help.js');
            const box = document.createElement('div');
            render(sheetLegend(window.__fixture.sheet, 'en'), box);
            return [...box.querySelectorAll('.legend-row')].map((r) => r.querySelector(':scope > span').textContent);
        })()"""
    )
    assert "Temple" in rows and "Tea" in rows and "Palace: Great Mogul" in rows
    assert any(r.startswith("River: ") for r in rows)
    assert "3 fame" in rows and "Karma" in rows  # the bonuses found anywhere on the sheet
    assert len(set(rows)) > 25

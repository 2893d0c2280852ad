"""The browser client's drawing half: the demo page renders every fixture, the sheet has the right parts,
only legal options are clickable, a click calls back with exactly one legal decision, and labels switch
language. Runs headless Debian Chromium against a static server for client_web/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from web_helpers import ARTIFACTS, GAME, open_demo

FIXTURES = sorted(p.stem for p in (GAME / "fixtures").glob("*.json"))


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GAME / "fixtures" / f"{name}.json").read_text())
    return data


def options(fx: dict[str, Any]) -> list[list[Any]]:
    return [list(o) for o in fx["pending"]["options"]]


def decisions(page: Any) -> list[list[Any]]:
    result: list[list[Any]] = page.evaluate("window.__decisions")
    return result


def me(fx: dict[str, Any]) -> dict[str, Any]:
    seat = fx["pending"]["player"]
    if seat is None:
        seat = fx["state"]["order"][fx["state"]["turn"]]
    player: dict[str, Any] = fx["state"]["players"][seat]
    return player


def test_fixtures_exist_and_are_small() -> None:
    assert {"start", "midgame", "road", "karma", "reroll"} <= set(FIXTURES)
    assert sum((GAME / "fixtures" / f"{n}.json").stat().st_size for n in FIXTURES) < 300_000


@pytest.mark.parametrize("name", FIXTURES)
def test_demo_renders_each_fixture_without_errors(page: Any, base_url: str, name: str) -> None:
    open_demo(page, base_url, name)
    fx = fixture(name)
    assert page.locator("#me svg.sheet").count() == 1
    assert page.locator("#others svg.sheet.compact").count() == len(fx["state"]["players"]) - 1
    assert page.locator(".dice-tray .die-slot").count() == 8
    assert page.console_errors == []


def test_sheet_has_every_area_with_expected_counts(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "midgame")
    fx = fixture("midgame")
    sheet, player = fx["sheet"], me(fx)
    svg = page.locator("#me svg.sheet")
    cells = sheet["province"]["cells"]
    assert svg.locator(".province-space").count() == len(cells) * len(cells[0])
    assert svg.locator(".province-space.drawn").count() == sum(1 for r in player["roads"] if r)
    assert svg.locator(".edge-bonus").count() == len(sheet["province"]["edge_bonuses"])
    assert svg.locator(".edge-bonus.taken").count() == len(player["edges_taken"])
    assert svg.locator(".river-space").count() == len(sheet["river"]["spaces"])
    assert svg.locator(".river-space.marked").count() == len(player["river"])
    assert svg.locator(".river-space.current").count() == (1 if player["river"] else 0)
    assert svg.locator(".track-space").count() == len(sheet["tracks"]["fame"]["values"])
    assert svg.locator(".fame-bonus").count() == len(sheet["tracks"]["fame"]["bonuses"])
    assert svg.locator(".money-bonus").count() == len(sheet["tracks"]["money"]["bonuses"])
    assert svg.locator(".fame-marker").get_attribute("data-value") == str(player["fame"])
    assert svg.locator(".money-marker").get_attribute("data-value") == str(player["money"])
    prices = len(sheet["market"]["prices"])
    assert svg.locator(".market-good").count() == 3 * prices
    for good in ("tea", "silk", "spices"):
        row = svg.locator(f'.market-row[data-good="{good}"]')
        assert row.locator(".market-good.circled").count() == player["circled"][good]
        assert row.locator(".market-good.sold").count() == player["sold"][good]
    assert svg.locator(".palace-row").count() == 6
    assert svg.locator(".palace-row .cross").count() == sum(player["palace"].values())
    assert svg.locator(".upgrade-row").count() == len(sheet["upgrades"]["buildings"])
    assert svg.locator(".karma-space").count() == sheet["karma"]["spaces"]
    assert svg.locator(".karma-space.gained").count() == player["karma_gained"]
    assert svg.locator(".karma-space.used").count() == player["karma_used"]
    # nothing is clickable on the sheet while a die must be picked
    assert svg.locator(".opt").count() == 0
    assert svg.get_attribute("viewBox") == "0 0 1000 990"


def test_track_positions_match_the_engine(page: Any, base_url: str) -> None:
    from rajas.games.dice_charmers.engine import load_sheet
    from rajas.games.dice_charmers.engine.tracks import overlap, track_position

    open_demo(page, base_url, "start")
    sheet = load_sheet("sun")
    cases = [(0, 0), (20, 11), (21, 40), (16, 49), (35, 3), (90, 90)]
    got = page.evaluate(
        """async (cases) => {
            const m = await import('./tracks.js');
            const s = window.__fixture.sheet;
            return cases.map(([f, g]) => [m.trackPosition(s.tracks.fame.values, f),
                                          m.trackPosition(s.tracks.money.values, g),
                                          m.overlap(s, {fame: f, money: g})]);
        }""",
        cases,
    )
    fame, money = sheet.fame_values, sheet.money_values
    want = [
        [float(track_position(fame, f)), float(track_position(money, g)), float(overlap(sheet, f, g))] for f, g in cases
    ]
    assert [x for row in got for x in row] == pytest.approx([x for row in want for x in row])
    # the rulebook's scoring example: 21 fame / 40 money passes the crossing by 2, 16 / 49 by 2.5
    assert got[2][2] == 2 and got[3][2] == 2.5


def test_only_legal_road_spaces_are_clickable_and_a_click_decides_a_legal_road(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "road")
    fx = fixture("road")
    legal = options(fx)
    road_spaces = sorted({o[1][0] for o in legal if o[0] == "road"})
    opts = page.locator("#me svg .opt-road")
    assert sorted(int(s) for s in opts.evaluate_all("ns => ns.map(n => n.dataset.space)")) == road_spaces
    # a space that is not legal: clicking it (at its centre) decides nothing
    cells = fx["sheet"]["province"]["cells"]
    illegal = next(i for i in range(len(cells) * len(cells[0])) if i not in road_spaces)
    page.locator(f'#me svg .province-space[data-space="{illegal}"] rect').first.click(force=True)
    assert decisions(page) == []
    assert page.locator("#me svg .road-preview .ghost").count() == 0
    # a legal space: the preview shows, confirming decides exactly a legal option
    space = road_spaces[0]
    page.locator(f'#me svg .opt-road[data-space="{space}"]').click()
    assert page.locator("#me svg .road-preview .ghost").count() == 1
    page.locator('#me svg [data-action="confirm"]').click()
    got = decisions(page)
    assert len(got) == 1
    assert got[0] in legal
    assert got[0][0] == "road" and got[0][1][0] == space


def test_clicking_again_rotates_the_road_shape(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "half_road")
    fx = fixture("half_road")
    legal = options(fx)
    shapes: dict[int, list[int]] = {}
    for o in legal:
        if o[0] == "road":
            shapes.setdefault(o[1][0], []).append(o[1][1])
    space = next(s for s, arms in shapes.items() if len(arms) >= 2)
    target = page.locator(f'#me svg .opt-road[data-space="{space}"]')
    target.click()
    first = page.locator("#me svg .road-preview .ghost").get_attribute("data-arms")
    target.click()
    second = page.locator("#me svg .road-preview .ghost").get_attribute("data-arms")
    assert first != second
    assert {int(first or 0), int(second or 0)} <= set(shapes[space])
    page.locator('#me svg [data-action="rotate"]').click()
    third = int(page.locator("#me svg .road-preview .ghost").get_attribute("data-arms") or 0)
    page.locator(".choices button[data-action='confirm']").click()
    assert decisions(page) == [["road", [space, third], -1]]


def test_half_road_targets_match_the_legal_half_roads(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "half_road")
    legal = options(fixture("half_road"))
    halves = sorted((o[1][0], o[1][1]) for o in legal if o[0] == "half_road")
    opts = page.locator("#me svg .opt-half_road")
    pairs = opts.evaluate_all("ns => ns.map(n => [+n.dataset.space, +n.dataset.arm])")
    got = sorted((int(a), int(b)) for a, b in pairs)
    assert got == halves
    space, arm = halves[-1]
    page.locator(f'#me svg .opt-half_road[data-space="{space}"][data-arm="{arm}"]').click()
    assert decisions(page) == [["half_road", [space, arm], -1]]


@pytest.mark.parametrize("name", ["choice", "sell"])
def test_chooser_panel_lists_exactly_the_legal_goods(page: Any, base_url: str, name: str) -> None:
    open_demo(page, base_url, name)
    legal = options(fixture(name))
    assert all(o[0] in ("goods", "sell", "goods_die") for o in legal)
    buttons = page.locator("#me .choices button.choice")
    assert buttons.count() == len(legal)
    buttons.nth(len(legal) - 1).click()
    got = decisions(page)
    assert len(got) == 1 and got[0] in legal
    buttons.nth(0).click()  # decided already: nothing more goes out
    assert len(decisions(page)) == 1


def test_bonus_options_use_and_road_with_the_bonus_index(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "bonuses")
    legal = options(fixture("bonuses"))
    assert page.locator("#me .choices-pool .chip").count() == len(fixture("bonuses")["pending"]["pool"])
    use = page.locator("#me .choices button[data-kind='use']")
    assert use.count() == sum(1 for o in legal if o[0] == "use")
    use.first.click()
    got = decisions(page)
    assert len(got) == 1 and got[0] in legal and got[0][0] == "use"


def test_palace_rows_are_clickable_for_legal_characters_only(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "palace")
    legal = options(fixture("palace"))
    chars = sorted(o[1][0] for o in legal if o[0] == "palace")
    got = page.locator("#me svg .opt-palace").evaluate_all("ns => ns.map(n => +n.dataset.character)")
    assert sorted(got) == chars
    page.locator(f'#me svg .opt-palace[data-character="{chars[-1]}"]').click()
    assert decisions(page) == [next(o for o in legal if o[0] == "palace" and o[1][0] == chars[-1])]


@pytest.mark.parametrize(("name", "kind", "attr"), [("river", "river", "space"), ("upgrade", "upgrade", "building")])
def test_river_and_upgrade_targets(page: Any, base_url: str, name: str, kind: str, attr: str) -> None:
    open_demo(page, base_url, name)
    legal = options(fixture(name))
    want = sorted({o[1][0] for o in legal if o[0] == kind})
    got = page.locator(f"#me svg .opt-{kind}").evaluate_all(f"ns => ns.map(n => +n.dataset.{attr})")
    assert sorted(got) == want
    page.locator(f'#me svg .opt-{kind}[data-{attr}="{want[-1]}"]').click()
    got_decisions = decisions(page)
    assert len(got_decisions) == 1 and got_decisions[0] in legal and got_decisions[0][1] == [want[-1]]


def test_dice_tray_takes_a_legal_die(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "start")
    legal = options(fixture("start"))
    dice = page.locator(".dice-tray [role=button].opt-die")
    assert dice.count() == sum(1 for o in legal if o[0] == "die")
    dice.nth(2).click()
    got = decisions(page)
    assert len(got) == 1 and got[0] in legal and got[0][0] == "die"


def test_a_die_is_taken_with_the_keyboard_too(page: Any, base_url: str) -> None:
    """A die to choose is a tab stop named by its face; Space (or Enter) on it takes it, once."""
    open_demo(page, base_url, "start")
    legal = options(fixture("start"))
    die = page.locator(".dice-tray [role=button].opt-die").nth(1)
    assert die.get_attribute("tabindex") == "0" and die.get_attribute("aria-label")
    die.focus()
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    got = decisions(page)
    assert got == [["die", [int(die.get_attribute("data-die") or -1)], -1]] and got[0] in legal


def test_karma_reroll_button_then_die(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "karma")
    legal = options(fixture("karma"))
    karma_dice = sorted(o[1][0] for o in legal if o[0] == "karma")
    assert page.locator(".dice-tray .opt-karma").count() == 0
    page.locator(".dice-tray button.action-karma").click()
    got = page.locator(".dice-tray [role=button].opt-karma").evaluate_all("ns => ns.map(n => +n.dataset.die)")
    assert sorted(got) == karma_dice
    page.locator(f'.dice-tray [role=button].opt-karma[data-die="{karma_dice[0]}"]').click()
    assert decisions(page) == [["karma", [karma_dice[0]], -1]]


def test_reroll_shows_the_two_dice_and_keeps_one(page: Any, base_url: str) -> None:
    open_demo(page, base_url, "reroll")
    fx = fixture("reroll")
    legal = options(fx)
    shown = page.locator(".tray-reroll .die-slot").evaluate_all("ns => ns.map(n => +n.dataset.die)")
    assert sorted(shown) == sorted(fx["state"]["reroll"])
    keep = page.locator(".tray-reroll [role=button].opt-keep")
    assert keep.count() == sum(1 for o in legal if o[0] == "keep")
    keep.first.click()
    got = decisions(page)
    assert len(got) == 1 and got[0] in legal and got[0][0] == "keep"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Province", "River", "Palace", "Market", "Fame", "Money", "Great Mogul", "Elephant"]),
        ("nl", ["Provincie", "Rivier", "Paleis", "Markt", "Roem", "Geld", "Grootmogol", "Handelaar", "Olifant"]),
        ("de", ["Provinz", "Fluss", "Palast", "Markt", "Ruhm", "Geld", "Großmogul", "Händler", "Elefant"]),
    ],
)
def test_languages_switch_the_labels(page: Any, base_url: str, lang: str, words: list[str]) -> None:
    open_demo(page, base_url, "midgame", lang)
    content = page.locator("body").inner_text() + page.locator("#me svg.sheet").text_content()
    for w in words:
        assert w in content, w
    assert page.console_errors == []


def test_every_language_has_every_label(page: Any, base_url: str) -> None:
    """As the page loads them: the table's catalogue and the game's, in each language, have the same keys."""
    open_demo(page, base_url, "start")
    missing = page.evaluate(
        """async () => {
            const m = await import('/i18n.js');
            await Promise.all(m.LANGS.map((l) => m.loadWords(l)));
            const en = m.keys('en');
            return Object.fromEntries(m.LANGS.map(l => [l, [
                ...en.filter(k => !m.keys(l).includes(k)), ...m.keys(l).filter(k => !en.includes(k))]]));
        }"""
    )
    assert missing == {"en": [], "nl": [], "de": []}


def test_phone_width_screenshots(browser: Any, base_url: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        page = context.new_page()
        open_demo(page, base_url, "half_road")
        width = page.evaluate("document.querySelector('#me svg.sheet').getBoundingClientRect().width")
        assert 300 <= width <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(ARTIFACTS / "web-phone-half_road.png"), full_page=True)
    finally:
        context.close()


def test_screenshot_artifacts(page: Any, base_url: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name in ("midgame", "road"):
        open_demo(page, base_url, name)
        page.screenshot(path=str(ARTIFACTS / f"web-demo-{name}.png"), full_page=True)
        assert Path(ARTIFACTS / f"web-demo-{name}.png").stat().st_size > 10_000
    page.locator("#me svg .opt-road").first.click()
    page.locator("#me .sheet-wrap").screenshot(path=str(ARTIFACTS / "web-road-selected.png"))

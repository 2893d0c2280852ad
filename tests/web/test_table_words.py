"""What a player reads at the table's odd moments, on the demo page and the bar's sentence: a tapped icon's meaning
next to it, the bar with no die to take and during a karma reroll, the elephant's die explained, the log's lines
for what did not happen."""

from __future__ import annotations

from typing import Any

import pytest
from web_helpers import open_demo


@pytest.fixture()
def laptop(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.console_errors = errors
    try:
        yield p
    finally:
        context.close()


# the parts of the big sheet that say what they are and that a click at their centre reaches, top to bottom
ICONS = """() => [...document.querySelectorAll('#me svg.sheet *')]
  .filter((n) => n.querySelector(':scope > title')?.textContent && !n.closest('[data-option]')).map((n) => {
    const r = n.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2 + scrollY;
    const title = n.querySelector(':scope > title').textContent;
    return { x, y, top: r.top + scrollY, bottom: r.bottom + scrollY, title, n };
  }).filter((o) => {
    scrollTo(0, o.y - 450);
    const hit = document.elementFromPoint(o.x, o.y - scrollY);
    return hit && o.n.contains(hit);
  }).map(({ n, ...o }) => o).sort((a, b) => a.y - b.y)"""


@pytest.mark.parametrize("which", [0, -1])
def test_a_tapped_icon_says_its_meaning_next_to_it_in_the_window(laptop: Any, base_url: str, which: int) -> None:
    """At 1280x900 the first and the last icon of the sheet say what they are where the player looks."""
    open_demo(laptop, base_url, "midgame")
    icons = laptop.evaluate(ICONS)
    assert len(icons) > 10
    icon = icons[which]
    laptop.evaluate(f"scrollTo(0, {icon['y']} - 450)")
    # (the scroll's event is sent at the next frame: it would take the meaning away again)
    laptop.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    scroll = laptop.evaluate("scrollY")
    laptop.mouse.click(icon["x"], icon["y"] - scroll)
    tip = laptop.locator("[data-tip]")
    assert tip.count() == 1, "no meaning shown next to the icon"
    assert tip.is_visible()
    box = tip.bounding_box()
    assert box
    # in the window, and next to the icon (not a screen away)
    assert box["y"] >= 0 and box["y"] + box["height"] <= 900
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1280
    top, bottom = icon["top"] - scroll, icon["bottom"] - scroll
    gap = max(box["y"] - bottom, top - (box["y"] + box["height"]), 0)
    assert gap <= 16, f"the meaning is {gap} px from the icon"
    assert tip.text_content() == icon["title"]
    # the next tap elsewhere takes it away
    laptop.mouse.click(5, 5)
    assert laptop.locator("[data-tip]").count() == 0
    assert laptop.console_errors == []


# The bar's sentence and the tray of a fixture's moment drawn side by side as the table does (prompt.js, dice.js),
# the options changed by `keep` (kinds kept) and `add`; the tray's redraw() draws the bar again.
RIG = """async ({ keep, add }) => {
  const ui = await import('/ui.js');
  const { SEAT_COLOURS } = await import('/glyphs.js');
  const { Tray } = await import('./dice.js');
  const { prompt } = await import('./prompt.js');
  const fx = window.__fixture;
  const pending = { ...fx.pending, options: [...fx.pending.options.filter((o) => keep.includes(o[0])), ...add] };
  const names = fx.state.players.map((_, i) => ['Anna', 'Ben', 'Cleo', 'Dev', 'Eva'][i]);
  const me = pending.player;
  document.body.innerHTML = '<div id="bar" data-prompt></div><div id="tray"></div>';
  const frame = { lang: 'en', status: 'playing', game: { state: fx.state, pending, undo: 0 }, sheet: fx.sheet,
    events: [], names, colours: SEAT_COLOURS, seats: names.map((name) => ({ name, connected: true })), me,
    role: 'player', mine: true };
  const bar = () => ui.render(ui.h('div', null, prompt(frame).content), document.getElementById('bar'));
  bar();
  ui.render(ui.h(Tray, { sheet: fx.sheet, state: fx.state, lang: 'en', options: pending.options, names, me, current: me,
    onDecide: (w) => { window.__decisions.push(w); }, redraw: bar }), document.getElementById('tray'));
}"""


def bar_text(page: Any) -> str:
    text: str = page.locator("#bar .prompt-text").text_content()
    return text


def test_with_no_die_to_take_the_bar_says_karma_or_pass_and_what_pass_does(laptop: Any, base_url: str) -> None:
    open_demo(laptop, base_url, "karma")
    laptop.evaluate(RIG, {"keep": ["karma"], "add": [["pass", []]]})
    text = bar_text(laptop)
    assert not text.startswith("or "), text
    assert "No die in the middle is usable" in text and "pass" in text
    hint = laptop.locator("[data-hint=pass]")
    assert hint.is_visible() and "no die this turn" in hint.text_content()
    assert laptop.locator("[data-option=pass]").get_attribute("aria-describedby") == hint.get_attribute("id")
    assert laptop.console_errors == []


def test_pressing_the_karma_reroll_changes_the_bar(laptop: Any, base_url: str) -> None:
    open_demo(laptop, base_url, "karma")
    laptop.evaluate(RIG, {"keep": ["die", "karma"], "add": []})
    before = bar_text(laptop)
    assert before.startswith("Take a die from the middle")
    laptop.locator("[data-option=karma-mode]").click()
    laptop.wait_for_function(f"document.querySelector('#bar .prompt-text').textContent !== {before!r}")
    assert bar_text(laptop) == "Choose the die from the middle to reroll with the elephant's die"
    # pressed again: back to taking a die
    laptop.locator("[data-option=karma-mode]").click()
    laptop.wait_for_function(f"document.querySelector('#bar .prompt-text').textContent === {before!r}")
    assert laptop.console_errors == []


def test_the_die_on_the_elephant_is_explained(laptop: Any, base_url: str) -> None:
    open_demo(laptop, base_url, "karma")
    hint = laptop.locator(".tray-top [data-hint=elephant]")
    assert laptop.locator(".tray-elephant [data-die]").count() == 1
    assert hint.is_visible()
    assert "elephant" in hint.text_content() and "karma" in hint.text_content()


def test_the_log_does_not_sell_nothing_for_nothing(laptop: Any, base_url: str) -> None:
    open_demo(laptop, base_url, "start")
    lines = laptop.evaluate(
        """async () => {
            const { describe } = await import('./log.js');
            const ctx = { lang: 'en', names: ['Anna', 'Ben'], sheet: window.__fixture.sheet };
            return [describe({ type: 'goods_sold', player: 0, goods: [0, 0, 0], money: 0 }, ctx)?.text ?? null,
                    describe({ type: 'goods_sold', player: 0, goods: [2, 0, 1], money: 7 }, ctx).text];
        }"""
    )
    assert lines[0] == "Anna has no goods to sell"
    assert lines[1] == "Anna sells 2 Tea, 1 Spices for 7 money"


def test_the_pick_order_has_a_visible_caption(laptop: Any, base_url: str) -> None:
    open_demo(laptop, base_url, "karma")
    laptop.evaluate(RIG, {"keep": ["die", "karma"], "add": []})
    caption = laptop.locator("#bar .pick-order-caption")
    assert caption.is_visible() and caption.text_content() == "Pick order:"
    chips = laptop.locator("#bar .pick-order").bounding_box()
    at = caption.bounding_box()
    assert chips and at and abs((at["y"] + at["height"] / 2) - (chips["y"] + chips["height"] / 2)) < 12


# The player's own big sheet drawn with the options of each fixture in turn (none between them), as the game screen
# draws it from update to update: where its sheet's top is each time.
SHEET_TOPS = """async (names) => {
  const ui = await import('/ui.js');
  const { BigSheet } = await import('./play.js');
  const Choices = ({ children, onKeyDown }) => ui.h('div', { class: 'choices', onKeyDown }, children);
  const fxs = {};
  for (const n of names) if (n) fxs[n] = await (await fetch(`fixtures/${n}.json`)).json();
  const box = document.getElementById('me');
  ui.render(null, box);
  const zoom = { level: 1 };
  const tops = [];
  for (const n of names) {
    const fx = fxs[n] || fxs[names.find(Boolean)];
    const seat = fx.pending.player ?? 0;
    ui.render(ui.h(BigSheet, { key: 'own', seat, sheet: fx.sheet, player: fx.state.players[seat], lang: 'en',
      name: 'Anna', colour: '#c00', active: true, zoom, Choices, own: true, options: n ? fx.pending.options : null,
      decide: () => {}, pool: fx.pending.pool, effect: fx.pending.effect, faces: fx.state.faces }), box);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    tops.push(Math.round(box.querySelector('svg.sheet').getBoundingClientRect().top + scrollY));
  }
  return tops;
}"""


def test_the_own_sheet_does_not_jump_as_the_choices_panel_comes_and_goes(laptop: Any, base_url: str) -> None:
    open_demo(laptop, base_url, "midgame")
    names = ["road", None, "choice", None, "river", "start", "sell", None]
    tops = laptop.evaluate(SHEET_TOPS, [None, *names])
    assert len(set(tops)) == 1, dict(zip(["none", *map(str, names)], tops, strict=True))
    assert laptop.locator("#me .choices-idle").is_visible()
    assert laptop.console_errors == []


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"mode": "turns", "after_limit": "skip"}, "Time is up for Anna: the turn is skipped"),
        ({"mode": "turns", "after_limit": "bot"}, "Time is up for Anna: the bot finishes the turn"),
        ({"mode": "live"}, "Time is up for Anna: the bot finishes the turn"),
    ],
)
def test_the_log_says_a_late_turn_was_skipped_in_a_room_that_skips(
    laptop: Any, base_url: str, settings: dict[str, str], said: str
) -> None:
    open_demo(laptop, base_url, "start")
    text = laptop.evaluate(
        """async (settings) => {
            const { logLine, logContext } = await import('/side.js');
            const state = { lang: 'en', sheet: null, room: { seats: [{ id: 'a', name: 'Anna' }], settings } };
            return logLine({ event: { type: 'clock_expired', player: 0, turn: 3 } }, logContext(state), null).text;
        }""",
        settings,
    )
    assert text == said

"""Playable by keyboard alone and by touch on a phone, with axe-core finding no serious or critical violation.

Two whole 2-player games against a real `rajas serve`: one played with the keyboard only (Enter, Tab, arrow keys;
the focus goes to the next thing to decide by itself), one at 390x844 with touch input only (Playwright's tap),
where every option the bar asks for must be inside the viewport, under the sticky bar, and at least 44 px.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.web_helpers import app, catalogue, real_errors, wait_app

from .conftest import ROOT, new_page
from .test_play_in_browser import shoot

AXE = ROOT / "tests" / "web" / "node_modules" / "axe-core" / "axe.min.js"
MAX_DECISIONS = 400


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """Serious and critical axe-core violations of the page as it is now (axe injected by the test only)."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed (tests/run.sh installs it with npm into tests/web/node_modules)")
    # colours are judged as they stay, not half way through an overlay's fade-in
    page.wait_for_function(
        "document.getAnimations()"
        ".every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)"
    )
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
            const r = await axe.run(document, { resultTypes: ["violations"] });
            return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
              .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                             nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(" ")}: ${n.failureSummary}`) }));
        }"""
    )
    return found


def assert_accessible(page: Any, where: str) -> None:
    found = axe_violations(page)
    lines = [f"{v['id']} ({v['impact']}): {n}" for v in found for n in v["nodes"]]
    assert not found, f"axe on {where}:\n" + "\n".join(lines)


def two_player_room(server: str, host: Any, guest: Any, tap: bool = False) -> None:
    def press(page: Any, sel: str) -> None:
        if tap:
            page.tap(sel)
        else:
            page.click(sel)

    host.goto(f"{server}/?lang=en")
    host.wait_for_selector("[data-screen=home]")
    host.fill("[data-field=create-name]", "Anna")
    host.select_option("[data-field=seats]", "2")
    press(host, "[data-action=create]")
    wait_app(host, "a.role === 'player' && a.seat === 0")
    code = app(host)["code"]
    guest.goto(f"{server}/?room={code}&lang=en")
    guest.wait_for_selector("[data-form=seat]")
    guest.fill("[data-field=seat-name]", "Ben")
    press(guest, "[data-action=take-seat]")
    wait_app(guest, "a.role === 'player' && a.seat === 1")
    host.wait_for_selector(".lobby-seats .seat[data-seat='1'][data-connected='1']")


# ---- the keyboard ---------------------------------------------------------------------------------------------


@pytest.fixture()
def desk(server: str, browser: Any) -> Iterator[tuple[Any, Any]]:
    host = new_page(browser, 1280, 800, motion=False)
    guest = new_page(browser, 1280, 800, motion=False)
    try:
        yield host, guest
    finally:
        host.context.close()
        guest.context.close()


def focused(page: Any) -> dict[str, Any]:
    info: dict[str, Any] = page.evaluate(
        """() => { const n = document.activeElement;
            return { option: n?.dataset?.option ?? null, action: n?.dataset?.action ?? null,
                     name: n?.getAttribute?.('aria-label') || n?.textContent || '', tag: n?.tagName ?? '' }; }"""
    )
    return info


def next_mover(host: Any, pages: dict[int, Any]) -> tuple[int, Any] | None:
    """The seat whose decision is pending and its page, once that page can decide; None when the game is over."""
    wait_app(host, "a.screen === 'game' && (a.over || (a.pendingPlayer !== null && a.v === a.netV))")
    if app(host)["over"]:
        return None
    who = app(host)["pendingPlayer"]
    page = pages[who]
    wait_app(page, "a.ready || a.over", timeout=20_000)
    return None if app(page)["over"] else (who, page)


def keyboard_decision(page: Any, rng: random.Random) -> str:
    """One decision with keys only. The page has put the focus on the first option; Tab moves among the
    options (Shift+Tab back when it leaves them), Enter chooses, arrow keys turn a chosen road."""
    before = app(page)["decideSent"]
    for _ in range(30):
        f = focused(page)
        assert f["option"] or f["action"], f"the focus is not on a thing to decide: {f}"
        assert f["name"].strip(), f"a focused option has no name: {f}"
        for _ in range(rng.randrange(3)):
            page.keyboard.press("Tab")
            if not focused(page)["option"]:
                page.keyboard.press("Shift+Tab")
                break
        kind = focused(page)["option"]
        page.keyboard.press("Enter")
        if kind == "road":
            # the panel's confirm button has the focus now; arrows turn the road
            assert focused(page)["action"] == "confirm"
            for _ in range(rng.randrange(3)):
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
        if app(page)["decideSent"] > before:
            return str(kind)
    raise AssertionError("no decision could be made with the keyboard")


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_a_whole_game_by_keyboard_alone_with_no_serious_axe_violation(server: str, desk: tuple[Any, Any]) -> None:
    host, guest = desk
    two_player_room(server, host, guest)
    assert_accessible(host, "the lobby")
    # the host starts the game from the keyboard too
    host.focus("[data-action=start]")
    host.keyboard.press("Enter")
    pages = {0: host, 1: guest}
    rng = random.Random(18)
    decisions = 0
    kinds: set[str] = set()
    checked = False
    while decisions < MAX_DECISIONS:
        mover = next_mover(host, pages)
        if mover is None:
            break
        _, page = mover
        board = page.locator(".sheet [data-option]").count() > 0
        if decisions in (12, 40) or (board and not checked):
            assert_accessible(page, f"a game in progress (decision {decisions})")
            checked = checked or board
        kinds.add(keyboard_decision(page, rng))
        decisions += 1
        wait_app(page, "!a.busy")
        if app(page)["over"]:
            break
    for p in (host, guest):
        wait_app(p, "a.over", timeout=20_000)
        p.wait_for_selector("[data-overlay=result] .result-table")
    assert decisions > 20 and "die" in kinds
    assert checked, "axe never saw the board's options"
    assert_accessible(host, "the final scores")
    winner = host.evaluate("window.__app.seat") if host.locator("tr.winner[data-seat='0']").count() else None
    if winner == 0:
        assert host.inner_text("[data-overlay=result] [data-winner-text]").strip().endswith("You win!")
    # a change of language re-words the log that is already there (brought up to date when it comes into view)
    host.locator(".log-list").scroll_into_view_if_needed()
    host.wait_for_selector(".log-list .log-line:has-text('The dice seed is revealed')")
    host.select_option(".game-bar .lang-select", "nl")
    host.wait_for_selector(".log-list .log-line:has-text('Het dobbelzaad is onthuld')")
    assert "The dice seed is revealed" not in host.inner_text(".log-list")
    for p in (host, guest):
        assert real_errors(p) == [], real_errors(p)


# ---- the phone ------------------------------------------------------------------------------------------------


@pytest.fixture()
def phones(server: str, browser: Any) -> Iterator[tuple[Any, Any]]:
    host = new_page(browser, 390, 844, mobile=True, motion=False)
    guest = new_page(browser, 390, 844, mobile=True, motion=False)
    try:
        yield host, guest
    finally:
        host.context.close()
        guest.context.close()


OPTION_BOXES = """() => {
  const bar = document.querySelector('.prompt').getBoundingClientRect();
  return [...document.querySelectorAll('[data-option]')].map((n) => {
    const r = n.getBoundingClientRect();
    return { kind: n.dataset.option, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
             w: r.width, h: r.height, bar: bar.bottom, vw: innerWidth, vh: innerHeight };
  });
}"""


def tap_decision(page: Any, rng: random.Random) -> str:
    """One decision by tapping; every option the page offers is in view, below the bar and at least 44 px."""
    before = app(page)["decideSent"]
    for _ in range(30):
        boxes = page.evaluate(OPTION_BOXES)
        assert boxes, "no option to tap"
        for b in boxes:
            assert b["w"] >= 44 and b["h"] >= 44, f"a {b['kind']} option is {b['w']:.0f}x{b['h']:.0f} px"
            inside = b["top"] >= b["bar"] - 0.5 and b["bottom"] <= b["vh"] + 0.5
            inside = inside and b["left"] >= -0.5 and b["right"] <= b["vw"] + 0.5
            assert inside, f"a {b['kind']} option is out of view (or under the bar): {b}"
        i = rng.randrange(len(boxes))
        kind = boxes[i]["kind"]
        page.locator("[data-option]").nth(i).tap()
        if kind == "road":
            page.wait_for_selector(".choices [data-action=confirm]")
            rotate = page.locator(".choices [data-action=rotate]")
            for sel in ([".choices [data-action=rotate]"] if rotate.count() and rng.random() < 0.5 else []) + [
                ".choices [data-action=confirm]"
            ]:
                box = page.locator(sel).bounding_box()
                assert box and box["height"] >= 44 and box["width"] >= 44
                page.tap(sel)
        if app(page)["decideSent"] > before:
            return str(kind)
    raise AssertionError("no decision could be made by tapping")


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_a_whole_two_player_game_on_a_phone_by_touch(server: str, phones: tuple[Any, Any]) -> None:
    host, guest = phones
    two_player_room(server, host, guest, tap=True)
    host.tap("[data-action=start]")
    pages = {0: host, 1: guest}
    rng = random.Random(844)
    decisions = 0
    shot = False
    while decisions < MAX_DECISIONS:
        mover = next_mover(host, pages)
        if mover is None:
            break
        who, page = mover
        if decisions >= 30 and not shot and who == 0 and app(page)["phase"] == "pick":
            shoot(page, "phone.png")
            # a tap on a sheet icon explains it; the help opens from the bar with the sheet's legend
            page.locator(".big-sheet .river-space").first.tap(force=True)
            assert page.inner_text("[data-legend]") != ""
            page.tap(".game-bar [data-action=help]")
            page.wait_for_selector("[data-overlay=help] [data-legend-list] .legend-row")
            shoot(page, "help-phone.png")
            page.tap("[data-overlay=help] [data-action=close]")
            wait_app(page, "a.ready")
            shot = True
        tap_decision(page, rng)
        decisions += 1
        wait_app(page, "!a.busy")
        if app(page)["over"]:
            break
    assert shot and decisions > 20
    for p in (host, guest):
        wait_app(p, "a.over", timeout=20_000)
        p.wait_for_selector("[data-overlay=result] .result-table")
    host.wait_for_timeout(300)
    shoot(host, "game-over-phone.png")
    for p in (host, guest):
        assert real_errors(p) == [], real_errors(p)


def test_help_has_every_section_in_three_languages() -> None:
    words = ROOT / "games" / "dice_charmers" / "web" / "i18n"
    keys = {lang: set(catalogue(words / f"{lang}.js")) for lang in ("en", "nl", "de")}
    assert keys["en"] == keys["nl"] == keys["de"]
    for k in ("goal", "turn", "colours", "karma", "bonus", "end"):
        assert f"h_{k}" in keys["en"] and f"h_{k}_t" in keys["en"]



"""Undo within the turn in real Chromium against a real `rajas serve` (issue 17): two players click through a
game; a die taken is taken back with the keyboard, a road drawn is taken back with a click, both pages see
each undo in the game log, and after a karma reroll the Undo button is gone and the server refuses an undo
(undo_after_roll). The screenshot docs/screenshots/undo.png shows the Undo button after a road."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.web.web_helpers import app, real_errors, wait_app

from .conftest import new_page
from .test_access import assert_accessible, two_player_room
from .test_play_in_browser import _pick, shoot

MAX_DECISIONS = 300
UNDO = ".game-bar [data-action=undo]"
MIDDLE = "document.querySelectorAll('.tray-middle .die-slot').length"
DRAWN = "document.querySelectorAll('.big-sheet .province-space.drawn').length"
LOG = "document.querySelector('[data-log]').textContent"
SEND_UNDO = "window.__net.request('undo', { v: window.__net.v }).then(() => 'accepted', (e) => e.code)"


def _settled(page: Any) -> dict[str, Any]:
    wait_app(page, "!a.busy && a.v === a.netV")
    return app(page)


def _undo_button_is_usable(page: Any) -> None:
    """44 px, named for screen readers, in the bar."""
    button = page.locator(UNDO)
    assert button.count() == 1
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    assert button.get_attribute("aria-label") == "Undo: take back your last decision of this turn"


def _both_see(pages: dict[int, Any], v: int, text: str) -> None:
    for p in pages.values():
        wait_app(p, f"a.v >= {v}")
        p.locator("[data-log]").scroll_into_view_if_needed()  # (a log out of sight is written when it is seen)
        p.wait_for_function(f"{LOG}.includes({text!r})")


def _karma_then_refused(page: Any) -> None:
    """The player spends karma: new dice are rolled, so nothing before can be taken back."""
    page.locator(".dice-tray button.action-karma").click()
    page.locator(".dice-tray [role=button].opt-karma").first.click()
    a = _settled(page)
    assert a["phase"] == "reroll" and a["undo"] == 0
    assert page.locator(UNDO).count() == 0
    code = page.evaluate(SEND_UNDO)
    assert code == "undo_after_roll"
    assert app(page)["v"] == a["v"]  # nothing changed


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_undo_a_die_pick_and_a_road_and_not_after_a_karma_reroll(server: str, browser: Any) -> None:
    host, guest = new_page(browser, 1280, 900, motion=False), new_page(browser, 1280, 900, motion=False)
    try:
        two_player_room(server, host, guest)
        assert host.locator("[data-setting-input=undo]").is_checked()  # the host's setting, on by default
        host.click("[data-action=start]")
        pages = {0: host, 1: guest}
        wait_app(host, "a.screen === 'game' && a.pendingPlayer !== null && a.v === a.netV")
        rng = random.Random(17)
        done: set[str] = set()
        who = app(host)["pendingPlayer"]
        for _ in range(MAX_DECISIONS):
            page = pages[who]
            wait_app(page, "a.ready || a.over", timeout=20_000)
            if app(page)["over"]:
                break
            if "karma" not in done and page.locator(".dice-tray button.action-karma").count():
                _karma_then_refused(page)
                done.add("karma")
                who = app(page)["pendingPlayer"]
                continue
            middle, drawn = page.evaluate(MIDDLE), page.evaluate(DRAWN)
            kind = _pick(page, rng)
            a = _settled(page)
            if a["myTurn"] and a["undo"] > 0:
                page.wait_for_selector(UNDO)
                _undo_button_is_usable(page)
                if kind == "die" and "die" not in done:
                    assert page.evaluate(MIDDLE) < middle
                    page.focus(UNDO)  # the keyboard reaches it
                    page.keyboard.press("Enter")
                    a = _settled(page)
                    assert a["phase"] == "pick" and page.evaluate(MIDDLE) == middle  # the die is back
                    _both_see(pages, a["v"], "took back taking a die")
                    done.add("die")
                elif kind == "road" and "road" not in done:
                    assert page.evaluate(DRAWN) == drawn + 1
                    assert_accessible(page, "the game with the Undo button")
                    shoot(page, "undo.png")
                    page.click(UNDO)
                    a = _settled(page)
                    assert page.evaluate(DRAWN) == drawn  # the road is gone
                    _both_see(pages, a["v"], "took back a road")
                    done.add("road")
            if done == {"die", "road", "karma"}:
                break
            who = app(page)["pendingPlayer"]
        assert done == {"die", "road", "karma"}, done
        assert not real_errors(host) and not real_errors(guest)
    finally:
        host.context.close()
        guest.context.close()


def test_the_host_switches_undo_off_in_the_lobby(server: str, browser: Any) -> None:
    host, guest = new_page(browser, 1280, 900, motion=False), new_page(browser, 1280, 900, motion=False)
    try:
        two_player_room(server, host, guest)
        v = app(guest)["v"]
        host.uncheck("[data-setting-input=undo]")
        wait_app(guest, f"a.v > {v}")
        guest.wait_for_function("document.querySelector('[data-setting=undo]').textContent === '✗'")
        host.click("[data-action=start]")
        pages = {0: host, 1: guest}
        wait_app(host, "a.screen === 'game' && a.pendingPlayer !== null && a.v === a.netV")
        page = pages[app(host)["pendingPlayer"]]
        wait_app(page, "a.ready")
        _pick(page, random.Random(3))
        a = _settled(page)
        assert a["undo"] == 0 and page.locator(UNDO).count() == 0
        code = page.evaluate(SEND_UNDO)
        assert code == "undo_off"
        assert not real_errors(host) and not real_errors(guest)
    finally:
        host.context.close()
        guest.context.close()

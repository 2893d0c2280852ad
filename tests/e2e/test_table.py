"""The table around a game (issue 17) in real Chromium against a real `rajas serve`: the turn alert on a hidden
tab, public rooms joined from the home page, Resume for a seat this browser holds, a second player refused a
name already seated, and leaving mid-game asked first."""

from __future__ import annotations

import random
from typing import Any

from tests.web.web_helpers import app, real_errors, wait_app

from .conftest import new_page
from .test_access import assert_accessible, two_player_room
from .test_play_in_browser import _pick

# window.Notification recorded: every notification the page shows lands in window.__notes
HOOK_NOTIFICATION = """
window.__notes = [];
const Real = window.Notification;
class Recorded {
  constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  close() {}
  static get permission() { return Real ? Real.permission : "denied"; }
  static requestPermission() { return Real.requestPermission(); }
}
window.Notification = Recorded;
"""

HIDE = """() => {
  Object.defineProperty(document, "visibilityState", { get: () => "hidden", configurable: true });
  Object.defineProperty(document, "hidden", { get: () => true, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""

SHOW = """() => {
  Object.defineProperty(document, "visibilityState", { get: () => "visible", configurable: true });
  Object.defineProperty(document, "hidden", { get: () => false, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_tab_is_told_its_turn_began(server: str, browser: Any) -> None:
    host, guest = new_page(browser), new_page(browser)
    try:
        for p in (host, guest):
            p.context.grant_permissions(["notifications"], origin=server)
            p.context.add_init_script(HOOK_NOTIFICATION)
        two_player_room(server, host, guest)
        host.click("[data-action=start]")
        pages = {0: host, 1: guest}
        wait_app(host, "a.screen === 'game' && a.pendingPlayer !== null && a.v === a.netV")
        mover = app(host)["pendingPlayer"]
        waiting = pages[1 - mover]
        wait_app(waiting, "a.screen === 'game' && !a.myTurn")
        title_before = waiting.title()
        # the waiting player's tab goes to the background; the other player takes a die
        waiting.evaluate(HIDE)
        rng = random.Random(17)
        for _ in range(20):
            page = pages[mover]
            wait_app(page, "a.ready")
            _pick(page, rng)
            wait_app(page, "!a.busy")
            mover = app(page)["pendingPlayer"]
            if pages[mover] is waiting:
                break
        wait_app(waiting, "a.myTurn")
        waiting.wait_for_function("document.title.includes('Your turn')")
        assert waiting.evaluate("document.querySelector('link[rel=icon]').href").startswith("data:image/svg+xml")
        notes = waiting.evaluate("window.__notes")
        assert len(notes) == 1 and notes[0]["title"] == "Your turn"
        # the visible tab was not alerted for its own turns
        assert pages[1 - app(waiting)["seat"]].evaluate("window.__notes") == []
        # the tab is seen again: the title comes back
        waiting.evaluate(SHOW)
        waiting.wait_for_function("!document.title.includes('Your turn')")
        assert waiting.title() != "" and "Rajas" in waiting.title() and title_before
        assert not real_errors(host) and not real_errors(guest)
    finally:
        host.context.close()
        guest.context.close()


def test_turn_alerts_switched_off_stay_off(server: str, browser: Any) -> None:
    page = new_page(browser)
    try:
        page.context.add_init_script(HOOK_NOTIFICATION)
        page.goto(f"{server}/?lang=nl")
        page.click("[data-panel=alerts] summary")
        page.uncheck("[data-alert=notify]")
        page.uncheck("[data-alert=sound]")
        assert page.locator("[data-panel=alerts] summary").inner_text() == "Beurtmeldingen"
        page.reload()
        prefs = page.evaluate("JSON.parse(localStorage.getItem('rajas.alerts'))")
        assert prefs == {"title": True, "sound": False, "notify": False, "vibrate": True}
        page.click("[data-panel=alerts] summary")
        assert not page.is_checked("[data-alert=notify]") and page.is_checked("[data-alert=title]")
    finally:
        page.context.close()


def test_a_public_room_is_joined_from_the_home_page_list(server: str, browser: Any) -> None:
    host, guest = new_page(browser), new_page(browser)
    try:
        host.goto(f"{server}/?lang=en")
        host.fill("[data-field=create-name]", "Anita")
        host.select_option("[data-field=seats]", "3")
        host.click("[data-action=create]")
        wait_app(host, "a.role === 'player' && a.seat === 0")
        code = app(host)["code"]
        host.check("[data-setting-input=public]")
        guest.goto(f"{server}/?lang=de")
        line = guest.locator(f"[data-list=public] [data-room='{code}']")
        line.wait_for(timeout=25_000)  # the list is read again every 10 s
        assert "1 von 3 Spielern" in line.inner_text() and "Anita" in line.inner_text()
        assert_accessible(guest, "the home page with the public rooms")
        line.locator("[data-action=public-join]").click()
        line.locator("[data-field=public-name]").fill("Bela")
        line.locator("[data-action=public-take]").click()
        wait_app(guest, "a.role === 'player' && a.seat === 1 && a.screen === 'lobby'")
        host.wait_for_selector(".lobby-seats .seat[data-seat='1'][data-connected='1']")
        # the list follows: two of three seats are taken now (the refresh button reads it again)
        guest.goto(f"{server}/?lang=en")
        line = guest.locator(f"[data-list=public] [data-room='{code}']")
        line.wait_for()
        guest.click("[data-action=public-refresh]")
        guest.wait_for_function(f"document.querySelector(\"[data-list=public] [data-room='{code}']\").dataset.open === '1'")
        assert not real_errors(guest)
    finally:
        host.context.close()
        guest.context.close()


def test_a_seat_is_resumed_from_the_home_page(server: str, browser: Any) -> None:
    host, guest = new_page(browser), new_page(browser)
    try:
        two_player_room(server, host, guest)
        code, seat_id = app(guest)["code"], app(guest)["seatId"]
        guest.goto(f"{server}/?lang=en")
        guest.wait_for_selector("[data-screen=home]")
        resume = guest.locator(f"[data-list=resume] [data-room='{code}'] [data-action=resume]")
        assert resume.get_attribute("aria-label") == f"Resume your seat in room {code}"
        assert_accessible(guest, "the home page with Resume")
        resume.click()
        wait_app(guest, f"a.role === 'player' && a.seatId === '{seat_id}' && a.screen === 'lobby'")
        assert app(guest)["seat"] == 1
    finally:
        host.context.close()
        guest.context.close()

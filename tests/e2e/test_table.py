"""The table around a game (issue 17) in real Chromium against a real `rajas serve`: the turn alert on a hidden
tab, public rooms joined from the home page, Resume for a seat this browser holds, a second player refused a
name already seated, and leaving mid-game asked first."""

from __future__ import annotations

import random
from typing import Any

from tests.web.web_helpers import app, real_errors, wait_app

from .conftest import create_room, new_page
from .test_access import assert_accessible, two_player_room
from .test_play_in_browser import _pick, shoot

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
        # the switches are in the game's bar too (a bell), kept by the browser
        waiting.click(".game-bar [data-panel=alerts] summary")
        waiting.locator(".game-bar [data-alert=sound]").uncheck()
        assert waiting.evaluate("JSON.parse(localStorage.getItem('rajas.alerts')).sound") is False
        assert_accessible(waiting, "the game with the turn alerts open")
        shoot(waiting, "turn-alerts.png")
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
        code = create_room(host, "Anita", 3)
        host.check("[data-setting-input=public]")
        guest.goto(f"{server}/?lang=de")
        line = guest.locator(f"[data-list=public] [data-room='{code}']")
        line.wait_for(timeout=25_000)  # the list is read again every 10 s
        assert "1 von 3 Spielern" in line.inner_text() and "Anita" in line.inner_text()
        assert_accessible(guest, "the home page with the public rooms")
        shoot(guest, "home-public-rooms.png", full_page=True)
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
        opened = f"document.querySelector(\"[data-list=public] [data-room='{code}']\").dataset.open"
        guest.wait_for_function(f"{opened} === '1'")
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


def test_a_second_player_with_a_seated_name_is_refused_with_a_clear_message(server: str, browser: Any) -> None:
    host, twin = new_page(browser), new_page(browser)
    try:
        host.goto(f"{server}/?lang=en")
        code = create_room(host, "Anna", 3)
        twin.goto(f"{server}/?room={code}&lang=nl")
        twin.fill("[data-field=seat-name]", " anna ")
        twin.click("[data-action=take-seat]")
        toast = twin.locator(".toast-error")
        toast.wait_for()
        assert toast.inner_text() == "Iemand in deze kamer heeft die naam al: kies een andere."
        assert app(twin)["role"] is None and twin.locator("[data-form=seat]").count() == 1
        # another name takes the seat from the same form
        twin.fill("[data-field=seat-name]", "Anneke")
        twin.click("[data-action=take-seat]")
        wait_app(twin, "a.role === 'player' && a.seat === 1")
    finally:
        host.context.close()
        twin.context.close()


def test_leaving_a_game_in_progress_asks_first(server: str, browser: Any) -> None:
    host, guest = new_page(browser), new_page(browser)
    try:
        two_player_room(server, host, guest)
        host.click("[data-action=start]")
        wait_app(guest, "a.screen === 'game' && a.v === a.netV")
        guest.click(".app-bar .brand")
        dialog = guest.locator("dialog[data-dialog=confirm]")
        dialog.wait_for()
        assert dialog.locator("h2").inner_text() == "Leave the game?"
        assert guest.evaluate("document.activeElement.dataset.action") == "confirm-no"
        assert_accessible(guest, "the leave question")
        shoot(guest, "leave-question.png")
        guest.keyboard.press("Escape")  # no: the game stays
        dialog.wait_for(state="detached")
        assert app(guest)["screen"] == "game"
        guest.click(".app-bar .brand")
        dialog.wait_for()
        guest.keyboard.press("Enter")  # the focus is on Cancel: Enter alone does not leave
        dialog.wait_for(state="detached")
        assert app(guest)["screen"] == "game"
        guest.click(".app-bar .brand")
        guest.click("dialog[data-dialog=confirm] [data-action=confirm-yes]")
        guest.wait_for_selector("[data-screen=home]")
        # the seat is kept: Resume brings the player back to the game
        guest.click(f"[data-list=resume] [data-room='{app(host)['code']}'] [data-action=resume]")
        wait_app(guest, "a.screen === 'game' && a.seat === 1")
        assert not real_errors(guest)
    finally:
        host.context.close()
        guest.context.close()


def test_a_seat_in_an_expired_room_is_offered_once_then_forgotten(server: str, browser: Any) -> None:
    page = new_page(browser)
    try:
        page.goto(f"{server}/?lang=en")
        page.evaluate("localStorage.setItem('rajas.room.zzz-zzzz-zzzz', JSON.stringify({token: 'gone', at: 1}))")
        page.reload()
        page.click("[data-list=resume] [data-room='zzz-zzzz-zzzz'] [data-action=resume]")
        page.wait_for_selector("[data-screen=error]")
        page.click(".app-bar .brand")
        page.wait_for_selector("[data-screen=home]")
        assert page.locator("[data-list=resume]").count() == 0
        assert page.evaluate("localStorage.getItem('rajas.room.zzz-zzzz-zzzz')") is None
    finally:
        page.context.close()

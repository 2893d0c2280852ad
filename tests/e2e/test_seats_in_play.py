"""Who holds a seat during play (issue 17), in real Chromium against a real `rajas serve`: a seat moved to a
second browser context by the "another device" link (its QR code read back by a barcode reader), which then
plays; the away countdown in the bar and the host handing the seat to the bot, the owner coming back; the
invite link taking over a left seat where the host allows it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.web.web_helpers import app, real_errors, wait_app

from .conftest import new_page
from .test_access import assert_accessible, two_player_room
from .test_play_in_browser import _pick, shoot

zxingcpp = pytest.importorskip("zxingcpp")


def qr_text(page: Any) -> list[str]:
    """What a barcode reader reads in the dialog's QR code, drawn from its SVG path's modules."""
    got = page.evaluate("""() => {
      const svg = document.querySelector("[data-qr] svg");
      return { box: svg.getAttribute("viewBox"), d: svg.querySelector("path").getAttribute("d") };
    }""")
    n = int(got["box"].split()[2])
    scale = 4
    w = n * scale
    image = bytearray([255]) * (w * w)
    for x, y, run in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", got["d"]):
        for dy in range(scale):
            at = (int(y) * scale + dy) * w + int(x) * scale
            image[at : at + int(run) * scale] = bytes(int(run) * scale)
    return [r.text for r in zxingcpp.read_barcodes(memoryview(image).cast("B", (w, w)))]


def play_until_turn_of(pages: dict[int, Any], seat: int, rng: random.Random) -> None:
    """The others decide by clicking until it is `seat`'s turn."""
    for _ in range(60):
        mover = app(pages[seat])["pendingPlayer"]
        if mover == seat:
            wait_app(pages[seat], "a.ready")
            return
        page = pages[mover]
        wait_app(page, "a.ready")
        _pick(page, rng)
        wait_app(page, "!a.busy")
    raise AssertionError(f"seat {seat} never got a turn")


def test_a_seat_moves_to_another_device_by_its_link_and_plays_there(server: str, browser: Any) -> None:
    host, guest = new_page(browser), new_page(browser)
    phone = new_page(browser, 390, 844, mobile=True)
    try:
        two_player_room(server, host, guest)
        code, seat_id = app(guest)["code"], app(guest)["seatId"]
        host.click("[data-action=start]")
        wait_app(guest, "a.screen === 'game' && a.v === a.netV")
        guest.click(".game-bar [data-action=another-device]")
        dialog = guest.locator("dialog[data-dialog=device]")
        dialog.wait_for()
        link = guest.locator("[data-seat-link]").input_value()
        token = guest.evaluate(f"JSON.parse(localStorage.getItem('rajas.room.{code}')).token")
        assert link == f"{server}/?room={code}#seat={token}"
        assert qr_text(guest) == [link]  # the code on the screen is the link
        assert guest.evaluate("document.activeElement.dataset.action") == "device-close"
        assert_accessible(guest, "the another-device dialog")
        shoot(guest, "another-device.png")
        # only the player sees it: the host's bar has its own, a spectator none (checked below by role)
        guest.keyboard.press("Escape")
        dialog.wait_for(state="detached")
        # the phone opens the link: the same seat, a new token, the address without it
        phone.goto(link)
        wait_app(phone, f"a.role === 'player' && a.seatId === '{seat_id}' && a.screen === 'game'")
        assert "#seat" not in phone.url
        new_token = phone.evaluate(f"JSON.parse(localStorage.getItem('rajas.room.{code}')).token")
        assert new_token and new_token != token
        # the first browser learns it calmly: a screen that says where the seat went, its token forgotten
        guest.wait_for_selector("[data-screen=moved]")
        assert "another device" in guest.locator("[data-screen=moved] h2").inner_text()
        assert guest.evaluate(f"JSON.parse(localStorage.getItem('rajas.room.{code}')).token") is None
        assert not guest.locator(".toast-error").count()
        assert_accessible(guest, "the seat-moved screen")
        guest.click("[data-action=moved-watch]")  # and it can go on watching the game
        wait_app(guest, "a.role === 'spectator' && a.screen === 'game'")
        # the phone plays a decision of that seat
        pages = {0: host, 1: phone}
        play_until_turn_of(pages, 1, random.Random(5))
        v = app(phone)["v"]
        _pick(phone, random.Random(6))
        wait_app(phone, f"!a.busy && a.v > {v}")
        host.wait_for_function(f"window.__app.v >= {v + 1}")
        # the link used once opens nothing any more: another browser with it is not seated
        late = new_page(browser)
        try:
            late.goto(link)
            late.wait_for_selector("[data-screen=join]")
            assert app(late)["role"] is None
        finally:
            late.context.close()
        for p in (host, phone):
            assert not real_errors(p)
    finally:
        for p in (host, guest, phone):
            p.context.close()


def test_the_away_countdown_shows_and_the_host_hands_the_seat_to_the_bot(server: str, browser: Any) -> None:
    host, guest = new_page(browser), new_page(browser)
    try:
        two_player_room(server, host, guest)
        code = app(guest)["code"]
        host.click("[data-action=start]")
        wait_app(guest, "a.screen === 'game' && a.v === a.netV")
        guest.goto("about:blank")  # the guest's connection drops (their browser keeps the seat)
        seat = host.locator(".game-bar [data-away-seat='1']")
        seat.wait_for()
        first = int(seat.locator("[data-away-left]").inner_text().split()[0])
        assert 50 <= first <= 61  # the room's grace period, 60 s (a second of rounding and of the way here)
        assert "Ben is away" in seat.inner_text()
        host.wait_for_function(
            f"parseInt(document.querySelector(\"[data-away-seat='1'] [data-away-left]\").textContent) < {first}"
        )
        button = seat.locator("[data-action=bot-now]")
        assert button.get_attribute("aria-label") == "Let the bot play Ben's seat now"
        box = button.bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44
        assert_accessible(host, "the game bar with an away player")
        shoot(host, "away.png")
        button.click()
        host.wait_for_selector(".player-list [data-seat='1'] .presence.bot")
        host.wait_for_selector(".game-bar [data-away]", state="hidden")
        # the owner comes back: the bot lets go of the seat
        guest.goto(f"{server}/?room={code}&lang=en")
        wait_app(guest, "a.role === 'player' && a.seat === 1 && a.screen === 'game'")
        host.wait_for_selector(".player-list [data-seat='1'] .presence.on")
        assert not real_errors(host)
    finally:
        host.context.close()
        guest.context.close()


def test_the_invite_link_takes_over_a_left_seat_where_the_host_allows_it(server: str, browser: Any) -> None:
    host, guest, newcomer = new_page(browser), new_page(browser), new_page(browser)
    try:
        two_player_room(server, host, guest)
        code = app(host)["code"]
        host.check("[data-setting-input=takeover]")
        guest.wait_for_selector("[data-setting=takeover]:has-text('✓')")
        host.click("[data-action=start]")
        wait_app(guest, "a.screen === 'game' && a.v === a.netV")
        guest.click(".app-bar .brand")
        guest.click("dialog[data-dialog=confirm] [data-action=confirm-yes]")
        guest.wait_for_selector("[data-screen=home]")
        host.wait_for_selector(".player-list [data-seat='1'] .presence.bot")
        newcomer.goto(f"{server}/?room={code}&lang=en")
        offer = newcomer.locator("[data-takeover]")
        offer.wait_for()
        take = offer.locator("[data-action=take-over][data-seat='1']")
        assert take.inner_text() == "Take over Ben's seat"
        assert_accessible(newcomer, "the join screen offering a left seat")
        newcomer.fill("[data-field=takeover-name]", "Cleo")
        take.click()
        wait_app(newcomer, "a.role === 'player' && a.seat === 1 && a.screen === 'game'")
        host.wait_for_selector(".player-list [data-seat='1']:has-text('Cleo')")
        # the one who left no longer holds it: their Resume finds the seat gone
        guest.goto(f"{server}/?room={code}&lang=en")
        guest.wait_for_selector("[data-screen=join]")
        assert app(guest)["role"] is None
        assert not real_errors(host) and not real_errors(newcomer)
    finally:
        for p in (host, guest, newcomer):
            p.context.close()


def test_no_seat_is_offered_where_the_host_does_not_allow_it(server: str, browser: Any) -> None:
    host, guest, newcomer = new_page(browser), new_page(browser), new_page(browser)
    try:
        two_player_room(server, host, guest)
        code = app(host)["code"]
        host.click("[data-action=start]")
        wait_app(guest, "a.screen === 'game' && a.v === a.netV")
        guest.click(".app-bar .brand")
        guest.click("dialog[data-dialog=confirm] [data-action=confirm-yes]")
        host.wait_for_selector(".player-list [data-seat='1'] .presence.bot")
        newcomer.goto(f"{server}/?room={code}&lang=en")
        newcomer.wait_for_selector("[data-screen=join]")
        assert newcomer.locator("[data-takeover]").count() == 0
        assert newcomer.locator("[data-action=watch]").count() == 1
    finally:
        for p in (host, guest, newcomer):
            p.context.close()

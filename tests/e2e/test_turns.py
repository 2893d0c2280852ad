"""Turn-based rooms (issue 19) in real Chromium against a real `rajas serve` that offers turn e-mails: the host
creates a turn-based room, the page shows whose turn it is and since when, a player gives an address for turn
e-mails, and the link of a turn e-mail (the seat token in it) takes the seat in another browser."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.web_helpers import app, rajas_serve, real_errors, wait_app

from .conftest import create_room, new_page
from .test_access import assert_accessible
from .test_play_in_browser import shoot


@pytest.fixture(scope="module")
def mail_server() -> Iterator[str]:
    """A server that offers e-mail (its SMTP server is never reached here: sends fail quietly, counted)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAJAS_SMTP_URL", f"smtp://127.0.0.1:{port}")
        mp.setenv("RAJAS_SMTP_FROM", "rajas@example.org")
        mp.setenv("RAJAS_PUBLIC_URL", "http://127.0.0.1")
        with rajas_serve("e2e-turns-server.log") as url:
            yield url


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_a_turn_based_room_shows_whose_turn_it_is_and_since_when(mail_server: str, browser: Any) -> None:
    server = mail_server
    host, guest = new_page(browser), new_page(browser)
    try:
        host.goto(f"{server}/?lang=en")
        host.wait_for_selector("[data-screen=home]")
        assert host.is_hidden("[data-turns]")  # real time is the default: no limit to choose
        code = create_room(host, "Anna", 2, mode="turns", turn_limit="48", after_limit="skip")
        guest.goto(f"{server}/?room={code}&lang=en")
        guest.wait_for_selector("[data-form=seat]")
        guest.fill("[data-field=seat-name]", "Ben")
        guest.click("[data-action=take-seat]")
        wait_app(guest, "a.role === 'player' && a.seat === 1")
        # The guest sees the room's way of play; both may give an address for turn e-mails.
        mode = guest.inner_text("[data-setting=mode]")
        assert "Turn-based" in mode and "2 d" in mode
        guest.fill("[data-field=email]", "ben@example.org")
        guest.click("[data-action=email]")
        guest.wait_for_selector(".email-status:has-text('You will get an e-mail')")
        assert_accessible(guest, "a turn-based room's lobby with the e-mail field")
        host.wait_for_selector(".lobby-seats .seat[data-seat='1'][data-connected='1']")
        started = time.time()
        host.click("[data-action=start]")
        for p in (host, guest):
            wait_app(p, "a.screen === 'game' && a.pendingPlayer !== null && a.v === a.netV")
        mover = app(host)["pendingPlayer"]
        pages = {0: host, 1: guest}
        waiting = pages[1 - mover]
        names = {0: "Anna", 1: "Ben"}
        waiting.wait_for_selector("[data-clock] [data-turn-of]")
        clock = waiting.locator("[data-clock]")
        text = clock.inner_text()
        assert f"{names[mover]}'s turn" in text and "since" in text and "until" in text
        began = float(clock.get_attribute("data-turn-began") or 0)
        assert started - 5 < began < time.time() + 1
        assert "Your turn" in pages[mover].inner_text("[data-clock]")
        # the deadline is 48 hours after the turn began
        deadline = waiting.locator("[data-clock] [data-deadline]").get_attribute("datetime") or ""
        assert deadline.startswith(time.strftime("%Y-%m-%d", time.gmtime(began + 48 * 3600)))
        shoot(waiting, "turn-based.png")
        # The e-mail field is in the game too, folded; the address given in the lobby is in it.
        guest.click(".email-details summary")
        assert guest.input_value(".email-details [data-field=email]") == "ben@example.org"
        assert_accessible(guest, "a turn-based game")
        # A turn e-mail's link: the room and the seat token. In a browser that holds no seat, it takes Ben's.
        token = json.loads(guest.evaluate(f"localStorage.getItem('rajas.room.{code}')"))["token"]
        other = new_page(browser)
        try:
            other.goto(f"{server}/?room={code}&lang=en#resume={token}")
            wait_app(other, "a.screen === 'game' && a.role === 'player' && a.seat === 1")
            assert token not in other.url  # the token left the address bar
            assert real_errors(other) == []
        finally:
            other.context.close()
        assert real_errors(host) == [] and real_errors(guest) == []
    finally:
        host.context.close()
        guest.context.close()

"""The room's chat in real Chromium against a real `rajas serve` (memory, and Redis): a player and a spectator talk
(name, time, quick reactions, markup shown as text, read out politely), a reload shows the lines again, and the
host closes the chat for spectators during play; on a phone the chat is a tab that opens and closes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import own_redis_server
from tests.web.web_helpers import app, rajas_serve, real_errors, wait_app

from .conftest import new_page
from .test_access import assert_accessible, two_player_room
from .test_play_in_browser import shoot

MARKUP = '<img src=x onerror="window.__owned=1"><b>bold</b>'


@pytest.fixture(scope="module", params=["memory", "redis"])
def chat_server(request: pytest.FixtureRequest, server: str) -> Iterator[str]:
    """The e2e session's server (memory), or one of our own sharing rooms through a real redis-server."""
    if request.param == "memory":
        yield server
        return
    with own_redis_server() as url, pytest.MonkeyPatch.context() as env:
        env.setenv("RAJAS_REDIS_URL", url)
        with rajas_serve("e2e-chat-redis.log") as served:
            yield served


def _lines(page: Any) -> list[str]:
    return list(page.locator("[data-chat-lines] .chat-line .chat-text").all_inner_texts())


def _say(page: Any, text: str) -> None:
    page.fill("[data-field=chat-text]", text)
    page.keyboard.press("Enter")


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_a_player_and_a_spectator_talk_and_the_host_closes_spectators_chat(chat_server: str, browser: Any) -> None:
    server = chat_server
    host, guest, fan = new_page(browser), new_page(browser), new_page(browser, 412, 860, mobile=True)
    try:
        two_player_room(server, host, guest)
        watch = host.locator("[data-watch-link]").input_value()
        fan.goto(f"{server}/?lang=en")
        fan.evaluate("localStorage.setItem('rajas.name', 'Grandma')")
        fan.goto(f"{watch}&lang=en")
        wait_app(fan, "a.role === 'spectator' && a.screen === 'lobby'")
        # in the lobby: a quick reaction
        guest.click("[data-action=chat-tab]")
        guest.click("[data-reaction=well_played]")
        wait_app(host, "a.chatLines === 1")
        guest.keyboard.press("Escape")
        host.click("[data-action=start]")
        for p in (host, guest, fan):
            wait_app(p, "a.screen === 'game'")
        # the player opens the chat from its tab (keyboard: Enter on the tab; focus goes to the line to write)
        host.focus("[data-action=chat-tab]")
        host.keyboard.press("Enter")
        assert host.evaluate("document.activeElement.dataset.field") == "chat-text"
        _say(host, "Good luck, Ben!")
        host.click("[data-reaction=dice]")
        # the spectator on a phone sees the unread count on the tab, opens it, and answers
        fan.wait_for_selector("[data-chat-unread]")
        fan.wait_for_function("document.querySelector('[data-chat-unread]').textContent.startsWith('3')")
        fan.click("[data-action=chat-tab]")
        wait_app(fan, "a.chatLines === 3")
        lines = _lines(fan)
        assert "Well played" in lines[0] and lines[1] == "Good luck, Ben!" and "Roll the dice!" in lines[2]
        assert fan.locator(".chat-line .chat-who").nth(1).inner_text() == "Anna"
        assert fan.locator(".chat-line time").first.get_attribute("datetime")
        _say(fan, MARKUP)
        wait_app(host, "a.chatLines === 4")
        assert _lines(host)[-1] == MARKUP  # shown as the text it is
        assert host.locator("[data-chat-lines] img, [data-chat-lines] b").count() == 0
        assert host.evaluate("window.__owned") is None
        assert host.locator(".chat-from-spectator .chat-who").inner_text() == "Grandma (spectator)"
        # screen readers hear the new line, politely
        host.wait_for_function("document.querySelector('[data-chat-live]').textContent.includes('Grandma')")
        assert host.get_attribute("[data-chat-live]", "aria-live") == "polite"
        assert_accessible(fan, "the chat open on a phone")
        shoot(fan, "chat.png")
        # Escape closes the panel and gives the focus back to the tab
        fan.keyboard.press("Escape")
        assert fan.locator("#chat-panel").is_hidden()
        assert fan.evaluate("document.activeElement.dataset.action") == "chat-tab"
        # a reload shows the lines again
        guest.reload()
        wait_app(guest, "a.screen === 'game' && a.chatLines === 4")
        # the host closes the chat for spectators during play: the spectator cannot write, the players can
        host.uncheck("[data-field=chat-spectators]")
        wait_app(fan, "a.chatSpectators === false")
        fan.click("[data-action=chat-tab]")
        assert fan.locator("[data-chat-closed]").is_visible()
        assert fan.locator("[data-field=chat-text]").is_disabled()
        guest.click("[data-action=chat-tab]")
        assert guest.locator("[data-field=chat-spectators]").is_hidden()  # only the host decides
        _say(guest, "Thanks!")
        wait_app(fan, "a.chatLines === 5")
        fan.reload()
        wait_app(fan, "a.screen === 'game' && a.chatSpectators === false && a.chatLines === 5")
        host.check("[data-field=chat-spectators]")
        wait_app(fan, "a.chatSpectators === true")
        assert app(fan)["v"] == app(host)["v"]  # chat changed no version
        for p in (host, guest, fan):
            assert not real_errors(p), p.errors
    finally:
        for p in (host, guest, fan):
            p.context.close()

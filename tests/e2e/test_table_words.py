"""What the game screen writes follows the page's language and says what it did, against a real `rajas serve`: a
finished game's dice check and log after a switch of language, chat's line limit."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from tests.web.web_helpers import wait_app

from .conftest import new_page

CHECK = "[data-overlay=result] [data-dice-check]"


def _seat(page: Any, server: str, code: str, name: str, host_token: str | None = None) -> None:
    page.goto(f"{server}/?lang=en")
    if host_token:
        page.evaluate(f"localStorage.setItem('rajas.room.{code}', JSON.stringify({{host_token: '{host_token}'}}))")
    page.goto(f"{server}/?room={code}&lang=en")
    page.fill("[data-field=seat-name]", name)
    page.click("[data-action=take-seat]")
    wait_app(page, "a.role === 'player' && a.screen === 'lobby'")


@pytest.mark.timeout(600)  # a whole game played by the clock's bot: minutes on a loaded machine
def test_after_a_switch_of_language_the_dice_check_and_the_log_follow(server: str, browser: Any) -> None:
    created = httpx.post(
        f"{server}/api/rooms", json={"seats": 2, "turn_clock": 0.05, "grace": 600, "bot": "greedy"}
    ).json()
    code = created["code"]
    host, guest = new_page(browser), new_page(browser)
    try:
        _seat(host, server, code, "Anna", created["host_token"])
        _seat(guest, server, code, "Ben")
        deadline = time.monotonic() + 15
        while not all(s["contributed"] for s in httpx.get(f"{server}/api/rooms/{code}").json()["seats"]):
            assert time.monotonic() < deadline, "the pages did not contribute"
            time.sleep(0.1)
        host.click("[data-action=start]")
        host.wait_for_selector(f"{CHECK}[data-dice-check=ok]", timeout=300_000)
        assert host.inner_text(CHECK).startswith("Dice verified")
        last = host.locator("[data-log] li").last
        english = last.inner_text()
        for lang, heading, verified in (
            ("nl", "Eindstand", "Dobbelstenen gecontroleerd"),
            ("de", "Endwertung", "Würfel geprüft"),
            ("en", "Final scores", "Dice verified"),
        ):
            host.select_option(".game-bar .lang-select", lang)
            host.wait_for_selector(f"[data-overlay=result] h2:text-is('{heading}')")
            # the check and the log in the language chosen, at once (not one switch behind)
            assert host.inner_text(CHECK).startswith(verified), (lang, host.inner_text(CHECK))
            if lang != "en":
                assert host.locator("[data-log] li").last.inner_text() != english, lang
        assert host.locator("[data-log] li").last.inner_text() == english
    finally:
        for p in (host, guest):
            p.context.close()


def test_chat_says_when_a_line_was_cut_to_its_limit(server: str, browser: Any) -> None:
    created = httpx.post(f"{server}/api/rooms", json={"seats": 2}).json()
    page = new_page(browser)
    try:
        _seat(page, server, created["code"], "Anna", created["host_token"])
        page.click("[data-action=chat-tab]")
        count = page.locator("[data-chat-count]")
        assert count.is_visible() and count.inner_text() == "0 of 200 characters"
        page.fill("[data-field=chat-text]", "Hello")
        assert count.inner_text() == "5 of 200 characters"
        # a paste longer than a line: the input keeps 200 and says it cut the rest
        long = "x" * 250
        page.evaluate(
            """(text) => {
                const input = document.querySelector('[data-field=chat-text]');
                input.value = '';
                input.dispatchEvent(new Event('input'));
                const data = new DataTransfer();
                data.setData('text/plain', text);
                const paste = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
                input.dispatchEvent(paste);
            }""",
            long,
        )
        page.focus("[data-field=chat-text]")
        page.keyboard.insert_text(long)
        assert len(page.input_value("[data-field=chat-text]")) == 200
        assert count.inner_text().startswith("200 of 200 characters")
        assert "Cut to 200 characters" in count.inner_text()
        page.click("[data-action=chat-send]")
        page.wait_for_selector("[data-chat-line] .chat-text")
        assert page.locator("[data-chat-line] .chat-text").last.inner_text() == "x" * 200
        assert count.inner_text() == "0 of 200 characters"
    finally:
        page.context.close()

"""The card game in the browser against a real server: a room made for it on the home page, two players seated by
clicking and a spectator watching, a whole game played by clicking the glowing cards and the choices panel until the
end screen names the winner and shows where the points came from, the deal verified in every page, no console error;
no other seat's dice side in a page's DOM at any time; axe-core clean; and 3- and 4-player games with bots in the
other seats.

The tests of this module share one room and run in order (each step builds on the one before).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.web_helpers import app, real_errors, wait_app

from .conftest import new_page
from .test_access import assert_accessible
from .test_play_in_browser import shoot

SEED = 20261128
MAX_DECISIONS = 600


@pytest.fixture(scope="module")
def room(server: str, browser: Any) -> Iterator[dict[str, Any]]:
    host = new_page(browser, 1280, 900, motion=False)
    guest = new_page(browser, 390, 844, mobile=True, motion=False)  # the second player plays on a phone
    watcher = new_page(browser, 1280, 900)
    shared: dict[str, Any] = {"server": server, "host": host, "guest": guest, "watcher": watcher}
    try:
        yield shared
    finally:
        for p in (host, guest, watcher):
            p.context.close()


def create_card_room(page: Any, server: str, name: str, seats: int) -> str:
    page.goto(f"{server}/?lang=en")
    page.wait_for_selector("[data-screen=home]")
    page.select_option("[data-field=game]", "card_game")  # first: the players' menu follows the game
    page.fill("[data-field=create-name]", name)
    page.select_option("[data-field=seats]", str(seats))
    page.click("[data-action=create]")
    wait_app(page, "a.role === 'player' && a.seat === 0")
    return str(app(page)["code"])


def pick(page: Any, rng: random.Random) -> str:
    """One decision by clicking: a glowing card or a button of the choices panel; a card with several options is
    picked first, and one of its options is then clicked in the panel."""
    before = app(page)["decideSent"]
    for _ in range(20):
        options = page.locator("[data-option]")
        n = options.count()
        if n == 0:
            page.wait_for_selector("[data-option]", timeout=5_000)
            continue
        i = rng.randrange(n)
        kind = options.nth(i).get_attribute("data-option") or ""
        options.nth(i).click()
        if app(page)["decideSent"] > before:
            return kind
        wait_app(page, "true")
    raise AssertionError("no decision could be made by clicking")


def hidden_cards_stay_hidden(pages: dict[int, Any], watcher: Any | None) -> None:
    """Each page shows dice sides only on its own hand's cards and on the discard pile, which lies dice side up."""
    for seat, page in [*pages.items(), *([(None, watcher)] if watcher else [])]:
        bad = page.evaluate(
            """() => [...document.querySelectorAll('.cg-die')]
                 .filter((d) => !d.closest('.cg-mine .cg-hand') && !d.closest('[data-pile=discard]')).length"""
        )
        assert bad == 0, f"a dice side outside the own hand on seat {seat}'s page"
        # no card of another player's hand carries a number: neither drawn nor named
        for other, other_page in pages.items():
            if other == seat:
                continue
            mine = other_page.evaluate(
                "[...document.querySelectorAll('.cg-mine .cg-hand [data-card]')].map((n) => n.dataset.card)"
            )
            for card in set(mine):
                found = page.evaluate(
                    """(c) => [...document.querySelectorAll(`[data-card="${c}"]`)].some((n) =>
                         n.querySelector('.cg-die') || /dice side/i.test(n.outerHTML))""",
                    card,
                )
                assert not found, f"seat {other}'s card {card} shows its dice side on {seat}'s page"


@pytest.mark.timeout(180)  # a room, three pages and the first drawing of the board on a loaded machine
def test_a_card_game_room_is_made_and_two_players_sit_down_by_clicking(room: dict[str, Any]) -> None:
    host, guest, watcher, server = room["host"], room["guest"], room["watcher"], room["server"]
    code = create_card_room(host, server, "Anna", 2)
    host.wait_for_selector("[data-screen=lobby]")
    guest.goto(f"{server}/?room={code}&lang=en")
    guest.wait_for_selector("[data-form=seat]")
    guest.fill("[data-field=seat-name]", "Ben")
    guest.click("[data-action=take-seat]")
    wait_app(guest, "a.role === 'player' && a.seat === 1")
    host.wait_for_selector(".lobby-seats .seat[data-seat='1'][data-connected='1']")
    watcher.goto(host.get_attribute("[data-watch-link]", "value") + "&lang=en")
    wait_app(watcher, "a.role === 'spectator'")
    host.click("[data-action=start]")
    for p in (host, guest, watcher):
        p.wait_for_selector(".cg-board .cg-offer [data-card]")
    assert host.locator(".cg-mine .cg-hand .cg-die").count() == 4  # four cards dealt, dice sides seen by their owner
    assert watcher.locator(".cg-mine").count() == 0 and watcher.locator(".cg-other").count() == 2


@pytest.mark.timeout(900)  # minutes on a loaded machine
def test_a_whole_game_is_played_by_clicking(room: dict[str, Any]) -> None:
    host, guest, watcher = room["host"], room["guest"], room["watcher"]
    pages = {0: host, 1: guest}
    rng = random.Random(SEED)
    kinds: dict[str, int] = {}
    decisions = 0
    started = time.monotonic()
    while decisions < MAX_DECISIONS:
        who = app(host)["pendingPlayer"]
        if app(host)["over"] or who is None:
            break
        page = pages[who]
        wait_app(page, "a.ready || a.over", timeout=30_000)
        if app(page)["over"]:
            break
        if decisions % 25 == 0:
            hidden_cards_stay_hidden(pages, watcher)
        if who == 1 and "phone" not in room:
            # on the phone every option is a target of at least 44 px, with a name
            sizes = page.evaluate(
                """[...document.querySelectorAll('[data-option]')].map((n) => {
                     const r = n.getBoundingClientRect();
                     return [Math.min(r.width, r.height), (n.getAttribute('aria-label') || n.textContent).trim()];
                   })"""
            )
            assert sizes and all(side >= 44 and name for side, name in sizes), sizes
            room["phone"] = True
        if decisions == 10:
            assert_accessible(page, "the card game, the player to move")
            shoot(page, "card-game.png", docs=False)
        if who == 0 and "keyboard" not in room:
            # by keyboard alone: the focus is on the first option by itself, and Enter decides it
            page.wait_for_function("document.activeElement?.matches('[data-option]')")
            before = app(page)["decideSent"]
            page.keyboard.press("Enter")
            wait_app(page, f"a.decideSent > {before}")
            room["keyboard"] = True
            kind = "keyboard"
        else:
            kind = pick(page, rng)
        kinds[kind] = kinds.get(kind, 0) + 1
        decisions += 1
        wait_app(page, "!a.busy", timeout=30_000)
        for p in pages.values():
            wait_app(p, "a.v === a.netV && (a.over || a.pendingPlayer !== null)", timeout=30_000)
    room["decisions"] = decisions
    print(f"{decisions} decisions in {time.monotonic() - started:.0f} s: {kinds}")
    for p in (host, guest, watcher):
        wait_app(p, "a.over", timeout=30_000)
    assert decisions > 20 and kinds.get("dice")


@pytest.mark.timeout(180)  # three pages each fetch the log and check the deal
def test_the_end_shows_the_winner_where_points_came_from_and_the_deal_verified(room: dict[str, Any]) -> None:
    host, guest, watcher = room["host"], room["guest"], room["watcher"]
    for p in (host, guest, watcher):
        p.wait_for_selector("[data-overlay=result] [data-winner-text]")
        text = p.inner_text("[data-overlay=result] [data-winner-text]")
        assert "win" in text.lower(), text
        assert p.locator("[data-overlay=result] [data-breakdown=fame]").count() == 1
        assert p.locator("[data-overlay=result] [data-breakdown=coins]").count() == 1
        p.wait_for_selector("[data-dice-check=ok], [data-dice-check=failed]", timeout=30_000)
        assert p.locator("[data-dice-check=ok]").count() == 1, p.inner_text(".dice-check")
        assert "Deal verified" in p.inner_text("[data-dice-check=ok]")
    assert_accessible(host, "the card game's end screen")
    shoot(host, "card-game-over.png", docs=False)
    for p in (host, guest, watcher):
        assert real_errors(p) == [], real_errors(p)


@pytest.mark.timeout(900)  # minutes on a loaded machine
@pytest.mark.parametrize("seats", [3, 4])
def test_two_players_and_bots_in_the_other_seats_play_a_whole_game(server: str, browser: Any, seats: int) -> None:
    host = new_page(browser, 1280, 900, motion=False)
    guest = new_page(browser, 1280, 900, motion=False)
    try:
        code = create_card_room(host, server, "Anna", seats)
        guest.goto(f"{server}/?room={code}&lang=en")
        guest.wait_for_selector("[data-form=seat]")
        guest.fill("[data-field=seat-name]", "Ben")
        guest.click("[data-action=take-seat]")
        wait_app(guest, "a.role === 'player' && a.seat === 1")
        for seat in range(2, seats):
            host.click("[data-action=add-bot]")
            host.wait_for_selector(f".lobby-seats .seat[data-seat='{seat}']")
        host.click("[data-action=start]")
        pages = {0: host, 1: guest}
        rng = random.Random(SEED + seats)
        decisions = 0
        while decisions < MAX_DECISIONS:
            wait_app(host, "a.over || a.pendingPlayer === 0 || a.pendingPlayer === 1", timeout=60_000)
            if app(host)["over"]:
                break
            who = app(host)["pendingPlayer"]
            page = pages[who]
            wait_app(page, "a.ready || a.over || !a.myTurn", timeout=30_000)
            if not app(page)["ready"]:
                continue
            pick(page, rng)
            decisions += 1
            wait_app(page, "!a.busy", timeout=30_000)
            if decisions % 40 == 0:
                hidden_cards_stay_hidden(pages, None)
        for p in (host, guest):
            wait_app(p, "a.over", timeout=60_000)
            p.wait_for_selector("[data-overlay=result] [data-winner-text]")
            p.wait_for_selector("[data-dice-check=ok]", timeout=30_000)
            assert real_errors(p) == [], real_errors(p)
        assert decisions > 10
    finally:
        host.context.close()
        guest.context.close()

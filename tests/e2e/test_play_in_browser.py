"""The browser client against a real server: lobby, joining by code, spectating, a whole 2-player game played by
clicking highlighted options, a reload that comes back to the seat, illegal clicks that send nothing, and the final
score screen for everyone. Screenshots go to docs/screenshots/ and tests/artifacts/.

The tests of this module share one room and run in order (each step builds on the one before).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.web_helpers import app, real_errors, wait_app

from .conftest import ARTIFACTS, ROOT, SCREENSHOTS, create_room, new_page

SEED = 20240517
MAX_DECISIONS = 400
RELOAD_AT = 25  # decisions into the game: player 2 reloads the page
DROP_AT = 45  # ... and player 1's connection drops
SHOT_AT = 70  # ... and the mid-game screenshot is taken


def shoot(page: Any, name: str, docs: bool = True, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / name), full_page=full_page)
    if docs:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ARTIFACTS / name, SCREENSHOTS / name)


@pytest.fixture(scope="module")
def room(server: str, browser: Any) -> Iterator[dict[str, Any]]:
    # the players' pages ask for reduced motion: clicks need not wait for the animations to settle
    host = new_page(browser, 1280, 900, motion=False)
    guest = new_page(browser, 390, 844, mobile=True, motion=False)  # the second player plays on a phone
    watcher = new_page(browser, 1280, 900)
    shared: dict[str, Any] = {"server": server, "host": host, "guest": guest, "watcher": watcher, "log": []}
    try:
        yield shared
    finally:
        for p in (host, guest, watcher):
            p.context.close()


def test_protocol_constants_mirror_the_python_package() -> None:
    from rajas.protocol import PROTOCOL_VERSION
    from rajas.protocol.errors import ERROR_CODES
    from rajas.protocol.messages import CLIENT_TYPES

    src = (ROOT / "client_web" / "protocol.js").read_text()
    assert re.search(rf"PROTOCOL_VERSION = {PROTOCOL_VERSION};", src)

    def js_list(name: str) -> list[str]:
        m = re.search(rf"{name} = Object\.freeze\(\[(.*?)\]\)", src, re.S)
        assert m, name
        return re.findall(r'"([a-z_]+)"', m.group(1))

    assert js_list("CLIENT_TYPES") == list(CLIENT_TYPES)
    assert js_list("ERROR_CODES") == list(ERROR_CODES)


def test_an_unknown_room_says_so(server: str, browser: Any) -> None:
    page = new_page(browser)
    try:
        page.goto(f"{server}/?room=zzz-zzzz-zzzz")
        page.wait_for_selector("[data-screen=error]")
        assert "exist" in page.inner_text("[data-screen=error] h2")
    finally:
        page.context.close()


def test_create_a_room_and_two_players_join_by_code(room: dict[str, Any]) -> None:
    host, guest, server = room["host"], room["guest"], room["server"]
    host.goto(f"{server}/?lang=en")
    host.wait_for_selector("[data-screen=home]")
    shoot(host, "home.png", docs=False)
    code = create_room(host, "Anna", 2)
    host.wait_for_selector("[data-screen=lobby]")
    assert re.fullmatch(r"[a-z0-9]{3}-[a-z0-9]{4}-[a-z0-9]{4}", code)
    watch_link = host.get_attribute("[data-watch-link]", "value")
    assert watch_link and "watch=" in watch_link
    room["code"], room["watch_link"] = code, watch_link

    # the second player types the code as it was read aloud: capitals and spaces
    guest.goto(f"{server}/?lang=en")
    guest.wait_for_selector("[data-screen=home]")
    guest.fill("[data-field=join-code]", code.upper().replace("-", " "))
    guest.fill("[data-field=join-name]", "Ben")
    guest.click("[data-action=join]")
    guest.wait_for_selector("[data-screen=lobby]")
    wait_app(guest, "a.role === 'player' && a.seat === 1")
    host.wait_for_selector(".lobby-seats .seat[data-seat='1'][data-connected='1']")
    assert guest.locator("[data-action=start]").count() == 0  # only the host starts
    # the host switches to the Moon sheet in the lobby; the guest sees it read-only
    assert guest.locator("[data-form=settings]").count() == 0
    host.select_option("[data-setting-input=sheet]", "moon")
    guest.wait_for_selector("[data-setting=sheet]:has-text('Moon')")
    wait_app(host, "a.v !== null")
    assert host.locator("[data-setting-input=sheet]").input_value() == "moon"
    shoot(host, "lobby.png")
    shoot(guest, "lobby-phone.png", docs=False)


def test_a_spectator_joins_and_the_host_starts(room: dict[str, Any]) -> None:
    host, guest, watcher = room["host"], room["guest"], room["watcher"]
    watcher.goto(room["watch_link"])
    wait_app(watcher, "a.role === 'spectator' && a.screen === 'lobby'")
    host.wait_for_selector("[data-screen=lobby] [data-count=spectators][data-n='1']")
    host.click("[data-action=start]")
    for p in (host, guest, watcher):
        wait_app(p, "a.screen === 'game' && a.status === 'playing'")


def test_the_spectator_sees_the_live_view_without_controls(room: dict[str, Any]) -> None:
    watcher, host = room["watcher"], room["host"]
    watcher.wait_for_selector(".dice-tray")
    watcher.wait_for_selector(".big-sheet svg.sheet")
    assert watcher.locator("[data-badge=spectator]").count() == 1
    assert watcher.locator("[data-option]").count() == 0
    assert watcher.locator("[data-list=players] .player").count() == 2
    wait_app(host, "a.v !== null")
    assert app(watcher)["v"] == app(host)["v"]
    # another player's sheet opens large on a click, and closes again
    watcher.locator(".others-grid button.other").first.click()
    watcher.wait_for_selector("[data-overlay=sheet] svg.sheet")
    watcher.click("[data-overlay=sheet] [data-action=close]")
    assert watcher.locator("[data-overlay=sheet]").count() == 0
    _the_spectator_chooses_the_big_sheet(watcher)


def _the_spectator_chooses_the_big_sheet(watcher: Any) -> None:
    """The first seat's sheet is big, whoever is to move; on request the big sheet follows the player to move; the
    ⤢ of an enlarged sheet keeps that seat big. Only the sheet shown is in the page unless following."""
    shown = ".mine-box > .big-sheet:not(.parked)"
    assert watcher.locator(shown).get_attribute("data-seat") == "0"
    assert watcher.locator(".mine-box > .big-sheet").count() == 1
    follow = watcher.locator("[data-action=follow]")
    assert follow.get_attribute("aria-pressed") == "false"
    follow.click()
    watcher.wait_for_selector(f"{shown}[data-seat='{app(watcher)['pendingPlayer']}']")
    assert follow.get_attribute("aria-pressed") == "true"
    follow.click()
    watcher.wait_for_selector(f"{shown}[data-seat='0']")
    assert watcher.locator(".mine-box > .big-sheet").count() == 1
    watcher.locator(".others-grid button.other[data-seat='1']").click()
    watcher.click("[data-overlay=sheet] [data-action=watch-seat]")
    watcher.wait_for_selector(f"{shown}[data-seat='1']")
    assert watcher.locator(".mine-box > .big-sheet").count() == 1
    assert watcher.locator("[data-overlay=sheet]").count() == 0


def _pick(page: Any, rng: random.Random) -> str:
    """One decision by clicking: a random highlighted option; a road is turned sometimes and confirmed."""
    before = app(page)["decideSent"]
    for _ in range(40):
        options = page.locator("[data-option]")
        kinds = page.evaluate("[...document.querySelectorAll('[data-option]')].map((n) => n.dataset.option)")
        n = len(kinds)
        if n == 0:
            page.wait_for_selector("[data-option]", timeout=5_000)
            continue
        # a person rarely toggles the karma chooser back and forth
        weights = [0.3 if k == "karma-mode" else 1.0 for k in kinds]
        i = rng.choices(range(n), weights)[0]
        kind = kinds[i]
        options.nth(i).click()
        if kind == "road":
            rotate = page.locator(".choices [data-action=rotate]")
            if rotate.count() and rng.random() < 0.5:
                rotate.click()
            page.locator(".choices [data-action=confirm]").click()
        if app(page)["decideSent"] > before:
            return kind
    raise AssertionError("no decision could be made by clicking")


def _illegal_clicks_send_nothing(mover: Any, other: Any, watcher: Any) -> None:
    sent = {id(p): p.evaluate("[window.__decideSent, window.__net.sent.decide || 0]") for p in (mover, other, watcher)}
    # the player to move clicks places that are not options: the depots, a track space, area titles
    for sel in [".tray-depots .depot", ".big-sheet .track-space", ".big-sheet .area-title", ".big-sheet .karma-space"]:
        loc = mover.locator(sel)
        if loc.count():
            loc.first.click(force=True)
    # the other player and the spectator click every die and every province space
    for p in (other, watcher):
        places = [".tray-middle .die-slot", ".big-sheet .province-space", ".big-sheet .river-space"]
        places.append(".big-sheet .palace-row")
        for sel in places:
            loc = p.locator(sel)
            for i in range(min(loc.count(), 6)):
                loc.nth(i).click(force=True)
        assert p.locator("[data-option]").count() == 0
    for p in (mover, other, watcher):
        assert p.evaluate("[window.__decideSent, window.__net.sent.decide || 0]") == sent[id(p)]


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_play_a_whole_game_by_clicking(room: dict[str, Any]) -> None:
    host, guest, watcher = room["host"], room["guest"], room["watcher"]
    pages = {0: host, 1: guest}
    rng = random.Random(SEED)
    kinds: dict[str, int] = {}
    decisions = 0
    reloaded = dropped = shot = checked = False
    started = time.monotonic()
    who = app(host)["pendingPlayer"]
    while decisions < MAX_DECISIONS:
        page = pages[who]
        wait_app(page, "a.ready || a.over", timeout=20_000)
        if app(page)["over"]:
            break
        if not checked and decisions >= 3:
            _illegal_clicks_send_nothing(page, pages[1 - who], watcher)
            checked = True
        kind = _pick(page, rng)
        kinds[kind] = kinds.get(kind, 0) + 1
        decisions += 1
        wait_app(page, "!a.busy")
        state = app(page)
        if state["over"]:
            break
        who = state["pendingPlayer"]
        if decisions >= RELOAD_AT and not reloaded:
            seat_id = app(guest)["seatId"]
            guest.reload()
            wait_app(guest, "a.screen === 'game' && a.conn === 'online' && a.seat === 1")
            assert app(guest)["seatId"] == seat_id
            # the game log came back with the snapshot's recent updates, with their times
            wait_app(guest, "a.logLines > 20 && a.logFirstV !== null")
            assert guest.locator(".log-list .log-line time.log-time").count() > 10
            assert app(guest)["role"] == "player"
            reloaded = True
        if decisions >= DROP_AT and not dropped:
            host.evaluate("window.__net.drop()")
            wait_app(host, "a.conn !== 'online'", timeout=5_000)
            host.wait_for_selector(".conn-status[data-status=offline], .conn-status[data-status=connecting]")
            wait_app(host, "a.conn === 'online' && a.seat === 0 && a.v === a.netV", timeout=15_000)
            dropped = True
        if decisions >= SHOT_AT and not shot and who == 0:
            wait_app(host, "a.ready")
            shoot(host, "midgame.png")
            shoot(guest, "midgame-phone.png", docs=False)
            shoot(watcher, "midgame-spectator.png", docs=False)
            shot = True
    room["decisions"], room["kinds"] = decisions, kinds
    (ARTIFACTS / "e2e-game.json").write_text(
        json.dumps({"decisions": decisions, "kinds": kinds, "seconds": round(time.monotonic() - started, 1)}, indent=1)
    )
    assert reloaded and dropped and checked
    for p in (host, guest, watcher):
        wait_app(p, "a.over", timeout=20_000)
    assert decisions > 20
    assert watcher.locator("[data-option]").count() == 0


def test_the_log_shows_the_last_line_once_it_is_seen(room: dict[str, Any]) -> None:
    """The side column's log is written while it can be seen (game_side.js): out of sight it waits, and scrolled
    into view it catches up with every line of the game, the last update's included (the dice seed)."""
    for p in (room["host"], room["guest"], room["watcher"]):
        p.locator("[data-log]").scroll_into_view_if_needed()
        p.wait_for_selector(".log-list .log-line:has-text('The dice seed is revealed')")
        shown = p.locator(".log-list .log-line").count()
        assert min(150, app(p)["logLines"]) <= shown <= 200  # (the oldest lines go in batches of 50)


def test_the_final_scores_appear_for_everyone(room: dict[str, Any]) -> None:
    host, guest, watcher = room["host"], room["guest"], room["watcher"]
    for p in (host, guest, watcher):
        p.wait_for_selector("[data-overlay=result] .result-table")
        rows = p.locator("[data-overlay=result] table:not([data-breakdown]):not(.series-table) tbody tr")
        assert rows.count() == 2
        assert p.locator("[data-overlay=result] tr.winner").count() >= 1
        overlaps = [float(rows.nth(i).locator("[data-overlap]").get_attribute("data-overlap")) for i in range(2)]
        assert overlaps[0] >= overlaps[1]
        assert rows.nth(0).locator("[data-ahead-by]").get_attribute("data-ahead-by") in (
            "overlap", "karma_gained", "karma_used", "shared"
        )
    # where the points came from: each player's column of sources adds up to the fame and money above
    rows = host.locator("[data-overlay=result] table:not([data-breakdown]):not(.series-table) tbody tr")
    for track, col in (("fame", 2), ("money", 3)):
        totals = [int(rows.nth(i).locator("td").nth(col).inner_text()) for i in range(2)]
        table = host.locator(f"[data-overlay=result] table[data-breakdown={track}]")
        for i in range(2):
            cells = table.locator(f"tbody tr td:nth-of-type({i + 1})")
            summed = sum(int(cells.nth(k).inner_text()) for k in range(cells.count()))
            assert summed == totals[i] == int(table.locator(f"tfoot td:nth-of-type({i + 1})").inner_text())
    host.wait_for_timeout(400)  # let the overlay's fade-in finish for the picture
    shoot(host, "game-over.png")
    shoot(guest, "game-over-phone.png", docs=False)
    for p in (host, guest, watcher):
        assert real_errors(p) == [], real_errors(p)


def test_the_language_can_be_switched_live(room: dict[str, Any]) -> None:
    watcher = room["watcher"]
    for lang, heading in (("nl", "Eindstand"), ("de", "Endwertung"), ("en", "Final scores")):
        watcher.select_option(".game-bar .lang-select", lang)
        watcher.wait_for_selector(f"[data-overlay=result] h2:text-is('{heading}')")
        assert watcher.evaluate("document.documentElement.lang") == lang

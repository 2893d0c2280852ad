"""Rematch and bots in seats (issue 17) in real Chromium against a real `rajas serve`: two people play a game,
say "Play again", the host takes the table back to the lobby and starts the next game with the same seats,
and the series table counts both games (each game's dice checked on its own); one person fills a table with
three bots and plays it to the end."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from typing import Any

import httpx
import pytest
from rajas.protocol.client import Client

from tests.web.web_helpers import app, rajas_serve, real_errors, wait_app

from .conftest import create_room, new_page
from .test_access import assert_accessible, two_player_room
from .test_play_in_browser import _pick, shoot

CHECK = "[data-overlay=result] [data-dice-check]"


def seat_token(page: Any, code: str) -> str:
    token: str = page.evaluate(f"JSON.parse(localStorage.getItem('rajas.room.{code}')).token")
    return token


def play_out(server: str, code: str, tokens: list[str], seed: int) -> None:
    """Plays the game to its end for these seats, as each player's second connection to their own seat (the
    pages follow every decision): quicker than clicking, and the pages' part here is what comes after."""

    async def run() -> None:
        clients = [await Client(server).connect() for _ in tokens]
        try:
            for c, token in zip(clients, tokens, strict=True):
                await c.join(code, token=token)
            rng = random.Random(seed)
            for _ in range(5000):
                v = max(c.v for c in clients)
                for c in clients:  # every connection at the same version: they agree whose turn it is
                    await c.wait_for(lambda c, v=v: c.v >= v)
                if clients[0].over:
                    return
                movers = [c for c in clients if c.my_turn]
                if not movers:  # (the start is still on its way)
                    await clients[0].wait_for(lambda c, v=v: c.v > v)
                    continue
                mover = movers[0]
                await mover.decide(rng.choice(mover.pending["options"]), v=mover.v)  # type: ignore[index]
        finally:
            await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)

    failed: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(run())
        except BaseException as e:  # (re-raised in the test's thread)
            failed.append(e)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive() and not failed, failed


def contributed(server: str, code: str) -> None:
    deadline = time.monotonic() + 15
    while not all(s["contributed"] for s in httpx.get(f"{server}/api/rooms/{code}").json()["seats"]):
        assert time.monotonic() < deadline, "the pages did not contribute"
        time.sleep(0.1)


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_a_rematch_keeps_the_table_and_the_series_counts_both_games(server: str, browser: Any) -> None:
    host, guest = new_page(browser), new_page(browser)
    try:
        two_player_room(server, host, guest)
        code = app(host)["code"]
        seats = [app(host)["seatId"], app(guest)["seatId"]]
        tokens = [seat_token(host, code), seat_token(guest, code)]
        contributed(server, code)
        host.click("[data-action=start]")
        play_out(server, code, tokens, seed=1)
        for p in (host, guest):
            wait_app(p, "a.over", timeout=90_000)  # (the pages draw every decision: give them time)
            p.wait_for_selector("[data-overlay=result] [data-play-again]")
            p.wait_for_selector("[data-overlay=result] [data-series][data-played='1']")
            p.wait_for_selector(f"{CHECK}[data-dice-check=ok]", timeout=30_000)  # game 1's dice
        # only the host has the button that takes the table back to the lobby
        assert guest.locator("[data-action=rematch]").count() == 0
        # the guest says "play again"; the host sees it in the list of who is ready
        # (with the keyboard: the button keeps the focus while the room changes around it)
        guest.focus("[data-overlay=result] [data-action=ready]")
        guest.keyboard.press("Enter")
        host.wait_for_selector(f"[data-list=ready] li[data-seat-id='{seats[1]}'][data-ready='1']")
        guest.wait_for_selector("[data-overlay=result] [data-action=ready][aria-pressed=true]")
        assert guest.evaluate("document.activeElement.dataset.action") == "ready"
        assert host.get_attribute("[data-overlay=result] [data-ready-count]", "data-ready-count") == "1"
        host.click("[data-overlay=result] [data-action=rematch]")
        for p, seat in ((host, 0), (guest, 1)):
            wait_app(p, f"a.screen === 'lobby' && a.status === 'lobby' && a.seat === {seat}")
            p.wait_for_selector(".lobby [data-series][data-played='1']")
        assert [app(host)["seatId"], app(guest)["seatId"]] == seats  # the same seats, the same tokens
        assert app(guest)["code"] == code
        host.wait_for_selector(".lobby-seats .seat[data-seat='1'] [data-ready='1']")
        assert_accessible(host, "the lobby after a rematch, with the series table")
        shoot(host, "rematch-lobby.png", docs=False)
        contributed(server, code)  # the pages contribute again, to the new commitment
        host.click("[data-action=start]")
        wait_app(guest, "a.status === 'playing'")
        play_out(server, code, tokens, seed=2)
        for p in (host, guest):
            wait_app(p, "a.over", timeout=90_000)  # (the pages draw every decision: give them time)
            p.wait_for_selector("[data-overlay=result] [data-series][data-played='2']")
            p.wait_for_selector(f"{CHECK}[data-dice-check=ok]", timeout=30_000)  # game 2's dice, on their own
        rows = host.locator("[data-overlay=result] [data-series-seat]")
        assert rows.count() == 2
        wins = [int(rows.nth(i).get_attribute("data-wins") or 0) for i in range(2)]
        assert sum(wins) >= 2  # (a shared win counts for each winner)
        log = httpx.get(f"{server}/api/rooms/{code}/log").json()
        assert log["game_number"] == 2
        assert_accessible(host, "the end of the second game with the series table")
        shoot(host, "series.png")
        assert not real_errors(host) and not real_errors(guest)
    finally:
        host.context.close()
        guest.context.close()


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_one_person_plays_three_bots_to_the_end(browser: Any) -> None:
    with rajas_serve("e2e-bots.log", env={"RAJAS_BOT_PACE": "0.05", "RAJAS_BOT_THINK": "0.2"}) as server:
        page = new_page(browser)
        try:
            page.goto(f"{server}/?lang=en")
            create_room(page, "Anita", 4)
            # the menu lists the bots the room's game offers: the engine's two and the Dice Charmers' levels
            offered = page.eval_on_selector_all("[data-field=bot-kind] option", "(os) => os.map((o) => o.value)")
            assert set(offered) == {"random", "greedy", "easy", "normal", "expert"}
            assert page.locator("[data-field=bot-kind] option[value=expert]").inner_text() == "Expert"
            for kind in ("random", "expert", "greedy"):
                page.select_option("[data-field=bot-kind]", kind)
                page.click("[data-action=add-bot]")
            page.wait_for_selector(".lobby-seats .seat[data-seat='3'] [data-bot-kind=greedy]")
            assert page.is_disabled("[data-action=add-bot]")  # the table is full
            # the host takes one bot out and seats another kind in its place, with the keyboard
            page.click(".lobby-seats .seat[data-seat='3'] [data-action=remove-bot]")
            page.wait_for_function("document.querySelectorAll('.lobby-seats [data-bot-kind]').length === 2")
            page.select_option("[data-field=bot-kind]", "random")
            page.focus("[data-action=add-bot]")
            page.keyboard.press("Enter")
            page.wait_for_selector(".lobby-seats .seat[data-seat='3'] [data-bot-kind=random]")
            kinds = page.eval_on_selector_all(
                ".lobby-seats [data-bot-kind]", "(ns) => ns.map((n) => n.dataset.botKind)"
            )
            assert kinds == ["random", "expert", "random"]
            assert_accessible(page, "the lobby with bot seats")
            shoot(page, "bots-lobby.png")
            page.click("[data-action=start]")
            rng = random.Random(3)
            for _ in range(400):
                wait_app(page, "a.over || a.ready", timeout=30_000)
                if app(page)["over"]:
                    break
                _pick(page, rng)
                wait_app(page, "!a.busy")
            wait_app(page, "a.over")
            page.wait_for_selector("[data-overlay=result] [data-play-again]")
            log = httpx.get(f"{server}/api/rooms/{app(page)['code']}/log").json()
            by = {d[2] for d in log["decisions"]}
            assert by == {"player", "bot"}
            assert [c["by"] for c in log["contributions"]][1:] == ["bot", "bot", "bot"]
            assert not real_errors(page)
        finally:
            page.context.close()

"""Fair dice in the browser (docs/fairness.md): each player's page contributes a random value in the lobby,
remembers it with the commitment it saw, and at the end of the game checks every roll of the log itself.

Two players' pages and a spectator's against a real `rajas serve`; a turn clock of 0.05 s lets the bot finish
every turn, so the game plays itself to the end without clicks."""

from __future__ import annotations

import hashlib
import json
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


def _stored(page: Any, watch: str) -> dict[str, Any]:
    got: dict[str, Any] = json.loads(page.evaluate(f"localStorage.getItem('rajas.dice.{watch}')"))
    return got


def _serve_log(page: Any, change: Any) -> None:
    """Every later fetch of the game log by this page gets the log as `change` rewrites it."""

    def handle(route: Any) -> None:
        log = route.fetch().json()
        change(log)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(log))

    page.route("**/api/rooms/*/log", handle)


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_a_played_game_says_dice_verified_and_a_tampered_log_names_the_roll(server: str, browser: Any) -> None:
    settings = {"seats": 2, "turn_clock": 0.05, "grace": 600, "bot": "greedy"}
    created = httpx.post(f"{server}/api/rooms", json=settings).json()
    code, watch = created["code"], created["watch"]
    host, guest, watcher = new_page(browser), new_page(browser), new_page(browser)
    try:
        _seat(host, server, code, "Anna", created["host_token"])
        _seat(guest, server, code, "Ben")
        watcher.goto(f"{server}/?watch={watch}&lang=en")
        wait_app(watcher, "a.role === 'spectator'")
        deadline = time.monotonic() + 15
        while not all(s["contributed"] for s in httpx.get(f"{server}/api/rooms/{code}").json()["seats"]):
            assert time.monotonic() < deadline, "the pages did not contribute"
            time.sleep(0.1)
        commitment = httpx.get(f"{server}/api/rooms/{code}").json()["commitment"]
        host.click("[data-action=start]")

        for p in (host, guest, watcher):
            p.wait_for_selector(f"{CHECK}[data-dice-check=ok]", timeout=180_000)
            assert p.inner_text(CHECK).startswith("Dice verified")
        log = httpx.get(f"{server}/api/rooms/{code}/log").json()
        mine = [_stored(host, watch), _stored(guest, watch)]
        assert [m["commitment"] for m in mine] == [commitment, commitment] == [log["commitment"]] * 2
        assert _stored(watcher, watch)["value"] is None  # a spectator checks with the commitment alone
        assert log["contributions"] == [{"value": m["value"], "by": "player"} for m in mine]
        assert all(m["accepted"] for m in mine)

        # One die face changed in the log: the page names the roll, when it came, and the die.
        at = next(i for i, d in enumerate(log["decisions"]) if d[3])
        roll_number = len(log["start_rolls"]) + sum(len(d[3]) for d in log["decisions"][:at]) + 1

        def one_face(log: dict[str, Any]) -> None:
            log["decisions"][at][3][0]["faces"][0] = (log["decisions"][at][3][0]["faces"][0] + 1) % 6

        _serve_log(host, one_face)
        host.reload()
        host.wait_for_selector(f"{CHECK}[data-dice-check=failed]")
        text = host.inner_text(CHECK)
        assert f"roll {roll_number} (after decision {at + 1})" in text and "die " in text, text

        # A consistent game from another seed, with its own commitment: not the commitment this page saw.
        def other_game(log: dict[str, Any]) -> None:
            log["seed"] = "1" * 64
            log["commitment"] = hashlib.sha256(log["seed"].encode()).hexdigest()

        for p in (guest, watcher):
            _serve_log(p, other_game)
            p.reload()
            p.wait_for_selector(f"{CHECK}[data-dice-check=failed]")
            assert "is not the one you saw at the start" in p.inner_text(CHECK)
        for p in (host, guest, watcher):
            assert not [e for e in p.errors if "WebSocket" not in e and "ERR_" not in e]
    finally:
        for p in (host, guest, watcher):
            p.context.close()

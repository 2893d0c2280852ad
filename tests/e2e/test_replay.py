"""The replay viewer (issue 19) in real Chromium against a real `rajas serve`: a finished game's replay opened by
its link, stepped to a given decision with the buttons and the keyboard, and the sheets shown checked against
the engine's state at that step (replayed here from the archived log with the engine); the end-of-game table,
the download, a shared link to a step, and an unknown game."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from rajas.server.fairness import log_game

from tests.server.conftest import Clients, play_random, seated_room

from .conftest import new_page
from .test_access import assert_accessible
from .test_play_in_browser import shoot

STEP = 23  # the decision the test steps to


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.loads(resp.read())


async def _finished_game(url: str) -> tuple[str, str]:
    clients = Clients()
    try:
        created, seated = await seated_room(clients, url, players=3)
        await play_random(seated, seed=7)
    finally:
        await clients.close()
    for _ in range(100):
        games = _get(f"{url}/api/rooms/{created['code']}/games")["games"]
        if games:
            return created["watch"], games[0]["id"]
        await asyncio.sleep(0.05)
    raise AssertionError("the game was not archived")


def engine_players(record: dict[str, Any], step: int) -> list[dict[str, Any]]:
    """Every player's sheet as the engine has it after the log's first `step` decisions (as clients see it)."""
    game, components = log_game(record)
    values = [c["value"] for c in record["contributions"]]
    state, _ = game.setup(len(record["players"]), record["seed"], values, components)
    for seat, wire, _, _ in record["decisions"][:step]:
        state, _ = game.apply(state, game.decision(wire), seat)
    return [json.loads(json.dumps(p)) for p in game.view(state, None)["state"]["players"]]


def _key(mark: list[int], by_round: bool) -> tuple[int, ...]:
    return (mark[0],) if by_round else (mark[0], mark[1])


def step_after(marks: list[list[int]], at: int, by_round: bool = False) -> int:
    """The first step of the next turn (or round): where [round, seat to decide] (or the round) changes."""
    return next((i for i in range(at + 1, len(marks)) if _key(marks[i], by_round) != _key(marks[at], by_round)),
                len(marks) - 1)  # fmt: skip


def turn_start(marks: list[list[int]], at: int) -> int:
    while at > 0 and marks[at - 1] == marks[at]:
        at -= 1
    return at


# each sheet on the page, with the player the page drew it from (the step's state it shows) and its header's words
SHOWN = """() => [...document.querySelectorAll('.replay-sheet')].map((box) => {
  const svg = box.querySelector('svg.sheet');
  const seat = Number(box.dataset.seat);
  return { seat, player: window.__replay.steps.get(window.__replayShown).state.players[seat],
           header: svg.querySelector('[data-area=header]').textContent };
})"""


@pytest.mark.timeout(600)  # minutes on a loaded machine
def test_the_replay_steps_to_a_decision_and_shows_the_engines_sheets(server: str, browser: Any) -> None:
    with ThreadPoolExecutor(1) as pool:  # (Playwright's sync API holds this thread's event loop)
        watch, gid = pool.submit(asyncio.run, _finished_game(server)).result()
    record = _get(f"{server}/api/games/{gid}")
    page = new_page(browser)
    try:
        # the finished room's end-of-game screen links its games' replays
        page.goto(f"{server}/?watch={watch}&lang=en")
        page.click(f"[data-room-games] a[data-game='{gid}']")
        page.wait_for_url(f"**/games/{gid}")
        page.wait_for_function("window.__replayReady === true")
        last = len(record["decisions"])
        page.wait_for_function(f"window.__replayShown === {last}")  # opens at the end of the game
        assert page.locator("[data-replay-result] tbody tr").count() == 3
        # to the start, then decision by decision with the button and the keyboard
        page.click("[data-go=first]")
        page.wait_for_function("window.__replayShown === 0")
        for _ in range(3):
            page.click("[data-go=next_step]")
        page.wait_for_function("window.__replayShown === 3")
        page.focus("[data-go=next_step]")
        for _ in range(STEP - 3):
            page.keyboard.press("ArrowRight")
        page.wait_for_function(f"window.__replayShown === {STEP}")
        assert page.evaluate("location.hash") == f"#step={STEP}"
        shown = page.evaluate(SHOWN)
        want = engine_players(record, STEP)
        assert [s["seat"] for s in shown] == [0, 1, 2]
        for s in shown:
            assert s["player"] == want[s["seat"]], f"seat {s['seat']}'s sheet is not the engine's at step {STEP}"
            assert str(want[s["seat"]]["fame"]) in s["header"] and str(want[s["seat"]]["money"]) in s["header"]
        assert page.locator(f".replay-log li.current[data-step='{STEP}']").count() >= 1
        status = page.inner_text("[data-replay-status]")
        assert f"Step {STEP} of {last}" in status
        assert_accessible(page, "the replay viewer")
        shoot(page, "replay.png")
        # a turn forward: the seat to move changes (or the round does)
        marks = _get(f"{server}/api/games/{gid}/replay")["marks"]
        page.click("[data-go=next_turn]")
        after = next(i for i in range(STEP + 1, len(marks)) if marks[i] != marks[STEP])
        page.wait_for_function(f"window.__replayShown === {after}")
        # a round forward by the keyboard, then back to the start of the turn before
        page.keyboard.press("PageDown")
        rnd = step_after(marks, after, by_round=True)
        page.wait_for_function(f"window.__replayShown === {rnd}")
        assert marks[rnd][0] == marks[after][0] + 1 and marks[rnd - 1][0] == marks[after][0]
        page.click("[data-go=prev_turn]")
        back = turn_start(marks, rnd - 1)
        page.wait_for_function(f"window.__replayShown === {back}")
        # the download is the same log `rajas verify` reads
        with page.expect_download() as dl:
            page.click(".replay-download")
        assert json.loads(open(dl.value.path()).read()) == record  # noqa: SIM115
    finally:
        page.context.close()

    # a shared link opens at its step, in another browser
    other = new_page(browser)
    try:
        other.goto(f"{server}/games/{gid}#step=5")
        other.wait_for_function("window.__replayShown === 5")
        assert other.evaluate(SHOWN)[1]["player"] == engine_players(record, 5)[1]
        assert not other.errors, other.errors
    finally:
        other.context.close()


def test_an_unknown_game_says_so(server: str, browser: Any) -> None:
    page = new_page(browser)
    try:
        page.goto(f"{server}/games/{'0' * 24}")
        page.wait_for_function("window.__replayReady === true")
        assert "No archived game" in page.inner_text("[role=alert]")
    finally:
        page.context.close()

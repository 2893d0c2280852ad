"""The game history against attack (issue 19): hostile game ids and step ranges are refused with the documented
codes before anything is looked up or replayed, a flood of them leaves the node responsive, asking for the same
game's steps again and again replays it once, and nothing in the history routes can change a game."""

from __future__ import annotations

import asyncio
import time

import httpx

from tests.server.conftest import Clients, play_random, seated_room

from .node import Node, Probe, metric

# A decision in another room is answered within this while the flood goes on: a loose bound, as the test machine
# is shared (the assertions that matter are that nothing is replayed twice and nothing hostile is looked up).
LATE_MS = 5000
BAD_IDS = [
    "x", "0" * 23, "0" * 25, "G" * 24, "A" * 24, "é" * 24, "%00" * 8, "..%2F..%2Fetc%2Fpasswd", "a" * 5000,
    "0" * 24,  # well formed, but no such game
]  # fmt: skip
BAD_RANGES = [
    {"from": "-1"}, {"from": "abc"}, {"from": "1e3"}, {"from": "9" * 40}, {"from": "٣"},  # (an Arabic-Indic 3)
    {"from": "10", "to": "2"}, {"from": "0", "to": "10000"}, {"to": "9999999"},
]  # fmt: skip


async def finished(node: Node) -> str:
    clients = Clients()
    try:
        created, seated = await seated_room(clients, node.url, players=2)
        await play_random(seated, seed=1)
    finally:
        await clients.close()
    async with httpx.AsyncClient(base_url=node.url) as http:
        for _ in range(100):
            games = (await http.get(f"/api/rooms/{created['code']}/games")).json()["games"]
            if games:
                return str(games[0]["id"])
            await asyncio.sleep(0.05)
    raise AssertionError("not archived")


async def test_hostile_ids_and_ranges_are_refused_and_cost_nothing(node: Node) -> None:
    gid = await finished(node)
    async with httpx.AsyncClient(base_url=node.url, timeout=10) as http:
        before = (await http.get(f"/api/games/{gid}")).json()
        for bad in BAD_IDS:
            for route in (f"/api/games/{bad}", f"/api/games/{bad}/steps", f"/api/games/{bad}/replay"):
                r = await http.get(route)
                assert r.status_code == 404, (route, r.status_code)
                if r.headers["content-type"].startswith("application/json"):
                    assert r.json()["code"] == "game_not_found"
        for q in BAD_RANGES:
            r = await http.get(f"/api/games/{gid}/steps", params=q)
            assert (r.status_code, r.json()["code"]) == (400, "bad_range"), q
        for method in ("POST", "PUT", "DELETE", "PATCH"):  # read-only: nothing here changes a game
            assert (await http.request(method, f"/api/games/{gid}")).status_code == 405
            assert (await http.request(method, f"/api/games/{gid}/steps")).status_code == 405
        refused = metric(node, "rajas_history_refused")
        assert refused >= len(BAD_RANGES) + 2 * len(BAD_IDS)
        assert metric(node, "rajas_replays_computed") == 0  # refused before anything was looked up or replayed
        past = await http.get(f"/api/games/{gid}/steps", params={"from": "5000"})  # well formed, past the game's end
        assert (past.status_code, past.json()["code"]) == (400, "bad_range")

        # A flood of unknown ids and of one game's steps while another room plays on: the node answers it in time,
        # and the game is replayed once, however often its steps are asked for.
        # (Eight connections at a time, each closed after its answer: the test's own HTTP client, not the node, is
        # the bottleneck past that, and a kept connection can be closed by the node just as it is reused.)
        limits = httpx.Limits(max_connections=8)
        close = {"connection": "close"}
        async with (
            Probe(node.url) as probe,
            httpx.AsyncClient(base_url=node.url, timeout=30, limits=limits, headers=close) as flood,
        ):
            started = time.monotonic()
            asks = [flood.get(f"/api/games/{i:024x}") for i in range(300)]
            # (steps from 0, 10 and 20: a random 2-player game can be shorter than 100 steps, past which is bad_range)
            asks += [flood.get(f"/api/games/{gid}/steps", params={"from": 10 * (i % 3)}) for i in range(60)]
            pending = asyncio.gather(*asks)
            while not pending.done():
                assert await probe.decide() < LATE_MS
            answers = await pending
            assert time.monotonic() - started < 30
        assert sorted({r.status_code for r in answers}) == [200, 404]
        assert metric(node, "rajas_replays_computed") == 1
        assert metric(node, "rajas_replays_cached") == 1
        assert (await http.get(f"/api/games/{gid}")).json() == before  # unchanged
        assert (await http.get("/health")).status_code == 200

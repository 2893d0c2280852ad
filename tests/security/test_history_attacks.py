"""The game history against attack (issue 19): hostile game ids and step ranges are refused with the documented
codes before anything is looked up or replayed, a flood of them leaves the node responsive, asking for the same
game's steps again and again replays it once, and nothing in the history routes can change a game."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

import httpx
import pytest

from tests.server.conftest import Clients, play_random, seated_room

from .node import Node, Probe, assert_responsive, metric, probe_while, rajas_node, warm

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


@pytest.mark.alone  # (timed against another room's latency: with nothing else running)
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


def _get_all(url: str, paths: list[str], headers: dict[str, str]) -> list[int]:
    async def run() -> list[int]:
        async with httpx.AsyncClient(base_url=url, timeout=30, headers=headers) as http:
            statuses = []
            for k in range(0, len(paths), 8):  # eight at a time
                statuses += [r.status_code for r in await asyncio.gather(*(http.get(p) for p in paths[k : k + 8]))]
            return statuses

    return asyncio.run(run())


@pytest.mark.alone  # (timed against another room's latency: with nothing else running)
async def test_8_one_address_cannot_flood_the_history_or_thrash_the_replay_cache() -> None:
    """Issue 27, row 8: bytes and replays are charged to the asking address (RAJAS_HISTORY_BYTES_PER_MINUTE,
    RAJAS_REPLAYS_PER_MINUTE, 429 rate_limited), and an address holds at most a quarter of the replay cache (at
    least one), so another address's replay stays cached; a game's record is sent as kept (deflated)."""
    env = {"RAJAS_HISTORY_BYTES_PER_MINUTE": "300000", "RAJAS_REPLAYS_PER_MINUTE": "3", "RAJAS_REPLAY_CACHE": "2"}
    with rajas_node(env=env) as node:
        gids = [await finished(node) for _ in range(5)]
        victim, attacker = {"X-Forwarded-For": "203.0.113.5"}, {"X-Forwarded-For": "198.51.100.9"}
        async with httpx.AsyncClient(base_url=node.url, timeout=30) as http, Probe(node.url) as probe:
            await warm(probe)
            assert (await http.get(f"/api/games/{gids[0]}/steps", headers=victim)).status_code == 200
            computed = metric(node, "rajas_replays_computed")
            codes = [(await http.get(f"/api/games/{g}/steps", headers=attacker)).status_code for g in gids[1:]]
            assert codes == [200, 200, 200, 429]  # three replays a minute
            assert (await http.get(f"/api/games/{gids[0]}/steps", headers=victim)).status_code == 200
            assert metric(node, "rajas_replays_computed") == computed + 3  # the victim's replay was still cached
            # A flood of whole records from the attacker (a process of its own, so that the probe's times are the
            # node's): past its bytes a minute, refused; everyone else served.
            plain = {**attacker, "accept-encoding": "identity"}
            paths = [f"/api/games/{gids[i % 5]}" for i in range(200)]
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
                flood = asyncio.get_running_loop().run_in_executor(pool, _get_all, node.url, paths, plain)
                await probe_while(probe, flood)
                statuses = await flood
            assert 200 in statuses and statuses.count(429) > 100, statuses
            assert (await http.get(f"/api/games/{gids[0]}", headers=victim)).status_code == 200
            kept = await http.get(f"/api/games/{gids[1]}", headers={**victim, "accept-encoding": "deflate"})
            assert kept.headers["content-encoding"] == "deflate" and kept.json()["id"] == gids[1]
        assert_responsive(probe, "row 8, the history flooded from one address")

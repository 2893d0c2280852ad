"""Attack 4 (the cache): the parsed custom-sheet cache was never emptied: every distinct sheet a node ever loaded
stayed in memory, rooms long swept. Now it keeps RAJAS_SHEET_CACHE sheets by content hash, the least recently
used going first, and /metrics shows its size and evictions."""

from __future__ import annotations

import asyncio

import httpx
from rajas.games.dice_charmers.engine import load_sheet
from rajas.protocol.messages import RoomSettings
from rajas.server.rooms.hub import Hub
from rajas.server.storage.redis_store import RedisStore

from .node import Probe, metric, rajas_node, rss_mb
from .own_redis import own_redis

CACHE = 8
SHEETS = 120


async def rooms_on_distinct_sheets(url: str, n: int) -> list[str]:
    """`n` rooms, each on a custom sheet of its own, made by a hub of this process on the node's Redis."""
    store = RedisStore(url)
    await store.start()
    try:
        hub = Hub(store)
        base = load_sheet("sun").to_json()
        codes = []
        for i in range(n):
            sheet = {**base, "name": "custom", "title": f"Sheet {i}", "reconstruction_note": "n" * 1000}
            codes.append((await hub.create_room(RoomSettings(seats=2, sheet=sheet))).code)
        return codes
    finally:
        await store.close()


async def test_a_node_keeps_only_so_many_parsed_sheets() -> None:
    with own_redis() as redis, rajas_node({"RAJAS_SHEET_CACHE": str(CACHE)}, redis_url=redis.url) as node:
        codes = await rooms_on_distinct_sheets(redis.url, SHEETS)
        async with httpx.AsyncClient(base_url=node.url, timeout=10) as http, Probe(node.url) as probe:
            before = rss_mb(node)
            for start in range(0, SHEETS, 10):  # every room looked at: every sheet parsed by the node
                got = await asyncio.gather(*(http.get(f"/api/rooms/{c}") for c in codes[start : start + 10]))
                assert all(r.status_code == 200 and r.json()["settings"]["sheet"]["custom"] == "custom" for r in got)
                assert await probe.decide() < 1000
                assert metric(node, "rajas_sheet_cache_entries") <= CACHE
            grown = rss_mb(node) - before
        assert metric(node, "rajas_sheet_cache_entries") == CACHE
        assert metric(node, "rajas_sheet_cache_evictions") >= SHEETS - CACHE
        assert grown < 40, f"memory grew {grown:.0f} MB for {SHEETS} sheets"

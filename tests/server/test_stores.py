"""Both RoomStores keep the same contract; Redis lets several nodes serve one room."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from rajas.protocol import pack, unpack
from rajas.server.storage.redis_store import RedisStore
from rajas.server.storage.store import SPECTATORS, RoomStore

from .conftest import Clients, make_store, play_random, run_server


@pytest.fixture
async def store(store_kind: str, request: pytest.FixtureRequest) -> AsyncIterator[RoomStore]:
    url = request.getfixturevalue("redis_url") if store_kind == "redis" else None
    s = make_store(store_kind, url)
    await s.start()
    try:
        yield s
    finally:
        await s.close()


async def test_store_contract(store: RoomStore) -> None:
    code, watch = f"t-{id(store)}-{asyncio.get_running_loop().time()}", f"w-{id(store)}"
    assert await store.create(code, watch, b"rec1", public=False)
    assert not await store.create(code, "other", b"again", public=False)  # codes are unique
    assert await store.resolve(code) == (code, False)
    assert await store.resolve(watch) == (code, True)
    assert await store.resolve("nope") is None
    seen: list[bytes] = []
    loaded_when_published: list[bytes | None] = []

    def listener(message: bytes) -> None:
        seen.append(message)

    await store.subscribe(code, listener)
    # Persist first, then publish: when the update arrives the record is already stored.
    assert await store.commit(code, 1, b"rec2", pack([0, ["die", [1], -1]]), pack({"v": 2}))
    assert not await store.commit(code, 1, b"rec2-loser", None, pack({"v": 2}))  # version check
    assert await store.commit(code, 2, b"rec3", None, pack({"v": 3}))
    for _ in range(100):
        if len(seen) >= 2:
            break
        await asyncio.sleep(0.01)
    loaded_when_published.append(await store.load(code))
    assert [unpack(m)["v"] for m in seen] == [2, 3]  # the loser published nothing
    assert loaded_when_published == [b"rec3"]
    assert [unpack(e) for e in await store.log(code)] == [[0, ["die", [1], -1]]]
    assert await store.presence(code, "seat-a", +1) == {"seat-a": 1}
    assert await store.presence(code, SPECTATORS, +2) == {"seat-a": 1, SPECTATORS: 2}
    assert await store.presence(code, "seat-a", -1) == {SPECTATORS: 2}
    await store.unsubscribe(code, listener)


async def test_concurrent_commits_exactly_one_wins(store: RoomStore) -> None:
    code = f"race-{asyncio.get_running_loop().time()}"
    assert await store.create(code, code + "-w", b"r", public=False)
    results = await asyncio.gather(*(store.commit(code, 1, f"r{i}".encode(), None, b"\x80") for i in range(10)))
    assert sum(results) == 1


async def test_two_nodes_serve_one_room(redis_url: str) -> None:
    """Players on different server nodes, a spectator on a third connection: one game, one truth."""
    async with run_server(RedisStore(redis_url)) as node_a, run_server(RedisStore(redis_url)) as node_b:
        clients = Clients()
        try:
            host = await clients.open(node_a.url)
            created = await host.create_room(seats=3)
            await host.join(created["code"], name="on-a", host_token=created["host_token"])
            b1 = await clients.open(node_b.url)
            await b1.join(created["code"], name="on-b")
            a2 = await clients.open(node_a.url, binary=False)
            await a2.join(created["code"], name="also-on-a")
            watcher = await clients.open(node_b.url)
            await watcher.join(created["watch"])
            await host.start()
            seated = [host, b1, a2]
            for c in [*seated, watcher]:
                await c.wait_for(lambda c: c.game is not None)
            await play_random(seated, seed=5)
            await watcher.wait_for(lambda c: c.over)
            assert host.game == b1.game == a2.game == watcher.game
            assert host.v == b1.v == watcher.v
            assert sorted(watcher.presence["connected"]) == sorted(c.seat_id for c in seated)  # type: ignore[index]
        finally:
            await clients.close()

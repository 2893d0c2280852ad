"""Both RoomStores keep the same contract; Redis lets several nodes serve one room, its commits go in batches, and
its channels and scripts come back after a lost connection or a flushed script cache."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis
from rajas.protocol import pack, unpack
from rajas.server.storage.redis_batches import BATCH_BYTES
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
            # (presence frames of a room go out at most once a second per node: the last may follow the game's end)
            everyone = sorted(c.seat_id for c in seated)
            await watcher.wait_for(lambda c: c.presence is not None and sorted(c.presence["connected"]) == everyone)
        finally:
            await clients.close()


@pytest.fixture
async def redis_store(redis_url: str) -> AsyncIterator[RedisStore]:
    s = RedisStore(redis_url)
    await s.start()
    try:
        yield s
    finally:
        await s.close()


async def test_commits_made_together_go_in_batches_and_each_gets_its_answer(redis_store: RedisStore) -> None:
    store = redis_store
    codes = [f"batch-{i}-{asyncio.get_running_loop().time()}" for i in range(40)]
    for code in codes:
        assert await store.create(code, code + "-w", pack({"v": 1}), public=False)
    big = b"x" * (BATCH_BYTES // 3)  # (several pipelines in one pass of the event loop)
    sent: list[tuple[str, int]] = [(code, 1) for code in codes] + [(codes[0], 1), (codes[1], 7)]
    got = await asyncio.gather(*(store.commit(code, v, big + code.encode(), None, pack({"v": v + 1}))
                                 for code, v in sent))  # fmt: skip
    assert got[:40] == [True] * 40 and got[40:] == [False, False]  # (the version checks held inside the batches)
    assert [await store.load(code) for code in codes] == [big + code.encode() for code in codes]
    await store.redis.delete(*(store._room(code) for code in codes))


async def test_commits_still_land_when_the_script_cache_is_flushed(redis_store: RedisStore) -> None:
    # After a Redis restart the commit script is gone: the batch's EVALSHA is answered NOSCRIPT, and the
    # script is loaded again.
    store = redis_store
    assert await store.create("scripttest", "scriptwatch", pack({"v": 1}), public=False)
    assert await store.create("scripttest2", "scriptwatch2", pack({"v": 1}), public=False)
    await store.redis.script_flush()
    assert await asyncio.gather(
        store.commit("scripttest", 1, pack({"v": 2}), None, pack({"type": "update", "v": 2})),
        store.commit("scripttest2", 1, pack({"v": 2}), None, pack({"type": "update", "v": 2})),
        store.commit("scripttest2", 1, pack({"v": 2}), None, pack({"type": "update", "v": 2})),
    ) == [True, True, False]
    assert await store.commit("scripttest", 2, pack({"v": 3}), None, pack({"type": "update", "v": 3}))
    assert not await store.commit("scripttest", 2, pack({"v": 3}), None, pack({"type": "update", "v": 3}))
    assert await store.load("scripttest") == pack({"v": 3})
    await store.redis.delete(store._room("scripttest"), store._room("scripttest2"), "rajas:watch:scriptwatch",
                             "rajas:watch:scriptwatch2")  # fmt: skip


@pytest.mark.parametrize("sharded", [False, True])
async def test_a_room_channel_is_heard_again_after_a_lost_connection(redis_url: str, sharded: bool) -> None:
    store = RedisStore(redis_url)
    await store.start()
    store.sharded = sharded  # (a Redis 7 has both kinds of channel; the store takes the shard ones)
    store._publish = "SPUBLISH" if sharded else "PUBLISH"
    store.channels.sharded = sharded
    plain = aioredis.Redis.from_url(redis_url)
    heard: list[tuple[str, bytes]] = []
    try:
        for code in ("lost-a", "lost-b"):
            await store.subscribe(code, lambda m, code=code: heard.append((code, m)))

        async def publish_until_heard(code: str, data: bytes) -> None:
            for _ in range(200):  # (a subscription takes effect when Redis has read it)
                await plain.execute_command(store._publish, store.channel(code), data)
                await asyncio.sleep(0.02)
                if (code, data) in heard:
                    return
            raise AssertionError(f"nothing heard on {code}")

        await publish_until_heard("lost-a", b"\x00one")
        await store.unsubscribe("lost-a", store.channels.listeners["lost-a"][0])
        await publish_until_heard("lost-b", b"two")
        heard.clear()
        await plain.execute_command(store._publish, store.channel("lost-a"), b"not for us")
        await plain.execute_command("CLIENT", "KILL", "TYPE", "pubsub")  # the connection drops
        await publish_until_heard("lost-b", b"three")  # back, and subscribed again
        assert ("lost-a", b"not for us") not in heard
    finally:
        await plain.aclose()
        await store.close()

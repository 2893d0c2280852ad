"""The Redis store on a Redis Cluster of three masters: the same contract as on one Redis, each room's keys on the
master owning its hash tag's slot, commits run by that master, rooms' channels sharded, and a stale slot map
corrected by itself. Also: sharded channels fall back to plain ones on a server without them,
and a node's presence counts go with its deadline, kept in each room's own hash."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable

import pytest
import redis.asyncio as aioredis
from rajas.protocol import pack
from rajas.server.config import ServeSettings
from rajas.server.storage.redis_cluster import ClusterUrl, key_slot
from rajas.server.storage.redis_lobby import LOBBY
from rajas.server.storage.redis_store import RedisStore
from redis.asyncio.cluster import RedisCluster

from tests.scale.cluster import Cluster

from . import test_stores
from .conftest import own_redis_server


def test_a_key_slot_is_crc16_of_its_hash_tag_as_redis_computes_it(cluster: Cluster) -> None:
    for key in ["rajas:{AB12}:room", "rajas:{lobby}:public", "rajas:watch:xyz", "a{}b", "{}{x}", "plain", "{x"]:
        assert key_slot(key.encode()) == int(cluster.cli("cluster", "keyslot", key))
    code = "K7Q2"
    keys = [RedisStore._room(code), RedisStore._log(code), RedisStore._recent(code), RedisStore.channel(code)]
    assert len({key_slot(k.encode()) for k in keys}) == 1  # a room, its lists and its channel: one slot
    assert key_slot(f"{LOBBY}public".encode()) == key_slot(f"{LOBBY}lines".encode())


def test_a_cluster_url_names_its_seed_masters_and_credentials() -> None:
    url = ClusterUrl("redis+cluster://me:p%40ss@10.0.0.1:7000,10.0.0.2:7001")
    assert url.seeds == [("10.0.0.1", 7000), ("10.0.0.2", 7001)]
    assert (url.username, url.password) == ("me", "p@ss")
    plain = ClusterUrl("redis+cluster://h:1")
    assert (plain.seeds, plain.username, plain.password) == ([("h", 1)], None, None)
    for bad in ["redis://h:1", "redis+cluster://h", "redis+cluster://h:1,h2:x"]:
        with pytest.raises(ValueError):
            ClusterUrl(bad)
    assert ServeSettings(redis="redis+cluster://10.0.0.1:7000,10.0.0.2:7001").redis  # the node's settings take it


async def test_the_store_contract_holds_on_a_cluster(cluster_store: RedisStore) -> None:
    await test_stores.test_store_contract(cluster_store)
    await test_stores.test_concurrent_commits_exactly_one_wins(cluster_store)
    assert cluster_store.sharded  # (Redis 7: rooms' channels are shard channels)


async def test_rooms_spread_over_the_masters_and_commit_there(cluster_store: RedisStore, cluster: Cluster) -> None:
    codes = [f"spread{i}" for i in range(24)]
    for code in codes:
        assert await cluster_store.create(code, code + "-w", pack({"v": 1}), public=False)
    # All at once: one batch of commits, which redis-py's cluster pipeline splits among the masters.
    assert all(await asyncio.gather(*(
        cluster_store.commit(code, 1, pack({"v": 2}), pack([0]), pack({"v": 2})) for code in codes
    )))  # fmt: skip
    assert all([await cluster_store.version(code) == 2 for code in codes])
    for port in cluster.ports:  # each master holds whole rooms: its keys all under its own slots
        keys = cluster.cli("--scan", "--pattern", "rajas:{spread*", port=port).split()
        assert keys
        assert all(int(cluster.cli("cluster", "countkeysinslot", str(key_slot(k.encode())), port=port)) for k in keys)


async def test_a_stale_slot_map_is_followed_and_corrected(cluster_store: RedisStore) -> None:
    redis = cluster_store.redis
    assert isinstance(redis, RedisCluster)
    code = "moved-room"
    slot = key_slot(cluster_store._room(code).encode())
    cache = redis.nodes_manager.slots_cache
    truth = cache[slot][0].name
    masters = redis.get_primaries()
    wrong = next(m for m in masters if m.name != truth)
    for s in cache:  # every slot wrong, as after a resharding this node has not heard of
        cache[s] = [wrong if cache[s][0].name != wrong.name else next(m for m in masters if m.name != wrong.name)]
    assert await cluster_store.create(code, code + "-w", pack({"v": 1}), public=False)
    for v in range(1, 4):  # MOVED, inside the commits' pipeline too: redis-py follows it and fixes its map
        assert await cluster_store.commit(code, v, pack({"v": v + 1}), None, pack({"v": v + 1}))
    assert redis.nodes_manager.slots_cache[slot][0].name == truth
    assert await cluster_store.version(code) == 4


async def test_two_nodes_serve_one_room_on_a_cluster(cluster: Cluster) -> None:
    await test_stores.test_two_nodes_serve_one_room(cluster.url)


async def test_the_lobby_index_on_a_cluster(cluster_store: RedisStore) -> None:
    line = pack({"code": "lobby-c"})
    assert await cluster_store.create("lobby-c", "lobby-c-w", pack({"v": 1}), True, b"", line)
    assert line in await cluster_store.listed(50) and "lobby-c" in await cluster_store.public_rooms()
    assert await cluster_store.commit("lobby-c", 1, pack({"v": 2}), None, b"\x80", listing=b"")  # the game started
    assert line not in await cluster_store.listed(50)
    short = RedisStore(cluster_store.url, ttl=1)
    await short.start()
    try:  # an expired room (its keys on whichever master) leaves the index when next met
        gone = pack({"code": "lobby-x"})
        assert await short.create("lobby-x", "lobby-x-w", pack({"v": 1}), True, b"", gone)
        assert gone in await cluster_store.listed(50)
        await asyncio.sleep(2.1)
        assert gone not in await cluster_store.listed(50)
        assert await cluster_store.redis.zscore(f"{LOBBY}public", "lobby-x") is None
        assert await cluster_store.redis.hget(f"{LOBBY}lines", "lobby-x") is None
    finally:
        await short.close()


def redis_without_shard_channels() -> contextlib.AbstractContextManager[str]:
    """A redis-server with SPUBLISH taken away, as on a Redis older than 7."""
    return own_redis_server("--rename-command", "SPUBLISH", "")


async def test_rooms_use_plain_channels_on_a_server_without_shard_channels(redis_url: str) -> None:
    with redis_without_shard_channels() as url:
        old = RedisStore(url)
        await old.start()
        try:
            assert not old.sharded
            await test_stores.test_store_contract(old)  # (updates reach the listener over PUBLISH/SUBSCRIBE)
        finally:
            await old.close()
    new = RedisStore(redis_url)
    await new.start()
    try:
        assert new.sharded
        await new.subscribe("shard-check", lambda m: None)
        plain = aioredis.Redis.from_url(redis_url)
        for _ in range(100):
            if new.channel("shard-check").encode() in await plain.execute_command("PUBSUB", "SHARDCHANNELS"):
                break
            await asyncio.sleep(0.01)
        assert new.channel("shard-check").encode() in await plain.execute_command("PUBSUB", "SHARDCHANNELS")
        await plain.aclose()
    finally:
        await new.close()


@pytest.mark.parametrize("where", ["single", "cluster"])
async def test_a_silent_node_loses_its_presence_and_a_closed_one_at_once(
    where: str, redis_url: str, request: pytest.FixtureRequest
) -> None:
    url = redis_url if where == "single" else request.getfixturevalue("cluster").url
    code = f"gone-{where}"
    dead, closing, alive = RedisStore(url, node="dead", node_ttl=1), RedisStore(url, node="closing"), RedisStore(url)
    for s in (dead, closing, alive):
        await s.start()
    try:
        assert await alive.create(code, code + "-w", pack({"v": 1}), public=False)
        await dead.presence(code, "seat-a", +1)
        await closing.presence(code, "seat-b", +1)
        assert await alive.presence(code, "seat-c", +1) == {"seat-a": 1, "seat-b": 1, "seat-c": 1}
        dead._present.clear()  # (as if killed: it will not take its counts back)
        await dead.close()
        await closing.close()  # a clean stop takes its counts back at once
        assert await alive.presence(code, "seat-c", 0) == {"seat-a": 1, "seat-c": 1}
        await asyncio.sleep(1.2)  # past the dead node's deadline, which nothing moved on
        assert await alive.presence(code, "seat-c", 0) == {"seat-c": 1}
    finally:
        await alive.close()


async def test_a_unix_socket_url_with_shard_channels() -> None:
    tmp = tempfile.mkdtemp(prefix="rajas-unix-")
    sock = f"{tmp}/redis.sock"
    cmd = [shutil.which("redis-server") or "/usr/bin/redis-server", "--port", "0", "--unixsocket", sock,
           "--dir", tmp, "--save", ""]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while subprocess.run(["redis-cli", "-s", sock, "ping"], capture_output=True).stdout != b"PONG\n":
            assert time.monotonic() < deadline and proc.poll() is None, "redis-server did not start"
            time.sleep(0.05)
        store = RedisStore(f"unix://{sock}")
        await store.start()
        try:
            assert store.sharded
            await test_stores.test_store_contract(store)
        finally:
            await store.close()
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


async def test_a_room_moved_to_another_master_is_still_heard(cluster: Cluster) -> None:
    """Its slot migrated (keys and all) while the node listens: the heartbeat sees the new slot map, redis-py moves
    the room's shard channel to the new master, and the hub is told to catch up."""
    store = RedisStore(cluster.url, heartbeat=0.2)
    await store.start()
    caught_up: list[int] = []
    store.on_reconnect = lambda: caught_up.append(1)
    heard: list[bytes] = []
    code = "migrating"
    slot = key_slot(store._room(code).encode())
    ids = {int(p): cluster.cli("cluster", "myid", port=p).strip() for p in cluster.ports}
    source = next(p for p in cluster.ports if slot in _slots_of(cluster, p))
    target = next(p for p in cluster.ports if p != source)
    try:
        assert await store.create(code, code + "-w", pack({"v": 1}), public=False)
        await store.subscribe(code, heard.append)
        assert await store.commit(code, 1, pack({"v": 2}), None, pack({"v": 2}))
        await _until(lambda: pack({"v": 2}) in heard)
        cluster.cli("cluster", "setslot", str(slot), "importing", ids[source], port=target)
        cluster.cli("cluster", "setslot", str(slot), "migrating", ids[target], port=source)
        keys = cluster.cli("cluster", "getkeysinslot", str(slot), "100", port=source).split()
        cluster.cli("migrate", "127.0.0.1", str(target), "", "0", "5000", "keys", *keys, port=source)
        for p in cluster.ports:
            cluster.cli("cluster", "setslot", str(slot), "node", ids[target], port=p)
        await _until(lambda: bool(caught_up))  # the heartbeat saw the slot move
        assert await store.commit(code, 2, pack({"v": 3}), None, pack({"v": 3}))  # (run by the new master)
        await _until(lambda: pack({"v": 3}) in heard)
        assert int(cluster.cli("cluster", "countkeysinslot", str(slot), port=target)) >= 1
    finally:
        await store.close()


def _slots_of(cluster: Cluster, port: int) -> set[int]:
    """The slots master `port` serves, by its own CLUSTER NODES line."""
    line = next(x for x in cluster.cli("cluster", "nodes", port=port).splitlines() if "myself" in x)
    out: set[int] = set()
    for part in line.split()[8:]:
        if part[0].isdigit():
            first, _, last = part.partition("-")
            out.update(range(int(first), int(last or first) + 1))
    return out


async def _until(done: Callable[[], bool], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if done():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not in time")

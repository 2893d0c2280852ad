"""The game history on a Redis Cluster of three masters: each archived game's record lives on the master owning
its own hash tag (games spread over the masters), a room's list beside the room's keys, and archiving, listing,
reading and pruning all work with single-key commands."""

from __future__ import annotations

import time

from rajas.server.storage.archive import HistorySettings
from rajas.server.storage.archive_redis import INDEX, RedisArchive, game_key, room_key
from rajas.server.storage.redis_cluster import key_slot
from rajas.server.storage.redis_store import RedisStore


async def test_the_history_on_a_cluster(cluster_store: RedisStore) -> None:
    archive = RedisArchive(cluster_store.redis, HistorySettings(retention=60.0, prune_batch=4))
    now = time.time()
    ids = [f"{i * 7919:024x}" for i in range(12)]
    for i, gid in enumerate(ids):
        record = {"id": gid, "finished": now - (3600 if i < 6 else 0), "players": ["a", "b"], "result": None}
        assert await archive.put("ROOMC", record)
    assert len({key_slot(game_key(g).encode()) // 5462 for g in ids}) >= 2  # the records spread over the masters
    assert key_slot(room_key("ROOMC").encode()) == key_slot(cluster_store._room("ROOMC").encode())  # beside the room
    assert len(await archive.of_room("ROOMC")) == 6  # those past the retention are not listed, even unpruned
    assert await archive.prune(now) == 4 and await archive.prune(now) == 2 and await archive.prune(now) == 0
    assert [s["id"] for s in await archive.of_room("ROOMC")] == ids[6:][::-1]
    assert await archive.get(ids[0]) is None and (await archive.get(ids[-1]) or {})["id"] == ids[-1]
    assert await cluster_store.redis.zcard(INDEX) == 6

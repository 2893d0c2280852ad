"""Finished games in Redis (or a Redis Cluster), shared by every node.

Keys: `rajas:game:{ID}` holds one game's record (compressed JSON; its own hash tag, so games spread over a
cluster's masters), `rajas:{games}:index` a sorted set of the ids by finish time (one key, so pruning reads the
oldest without scanning), and `rajas:{CODE}:games` a room's newest summaries (the room's hash tag, beside its
other keys). No record has a TTL: a pruning pass reads the index's oldest ids past the retention, a batch at a
time, and deletes them. The index entry is written before the record, so a record is never left unindexed.
"""

from __future__ import annotations

import json
import time
from typing import Any, cast

import redis.asyncio as aioredis
from rajas.server.storage import redis_keys
from rajas.server.storage.archive import Archive, HistorySettings, pack_record, summary
from rajas.server.storage.redis_keys import PREFIX
from redis.asyncio.cluster import RedisCluster

INDEX = f"{PREFIX}{{games}}:index"
ROOM_LIST_FOREVER = 400 * 86400  # a room's list outlives any room when games are kept for ever


def game_key(gid: str) -> str:
    return f"{PREFIX}game:{{{gid}}}"


def room_key(room: str) -> str:
    return redis_keys.room_key(room, "games")


class RedisArchive(Archive):
    def __init__(self, redis: aioredis.Redis | RedisCluster, settings: HistorySettings) -> None:
        super().__init__(settings)
        self.redis = redis

    async def put(self, room: str, record: dict[str, Any]) -> bool:
        gid = record["id"]
        await self.redis.zadd(INDEX, {gid: float(record["finished"])}, nx=True)
        if not await self.redis.set(game_key(gid), pack_record(record), nx=True):
            return False  # another node archived this game first
        key = room_key(room)
        await self.redis.lpush(key, json.dumps(summary(record)))
        await self.redis.ltrim(key, 0, self.settings.per_room - 1)
        retention = int(self.settings.retention)
        await self.redis.expire(key, retention if retention > 0 else ROOM_LIST_FOREVER)
        return True

    async def get_raw(self, gid: str) -> bytes | None:
        """The game, unless it is past the retention (then it is gone for the reader before a pass prunes it)."""
        finished = await self.redis.zscore(INDEX, gid)
        cut = self.cutoff(time.time())
        if finished is None or (cut is not None and finished < cut):
            return None
        return cast("bytes | None", await self.redis.get(game_key(gid)))

    async def of_room(self, room: str) -> list[dict[str, Any]]:
        raw = cast("list[bytes]", await self.redis.lrange(room_key(room), 0, self.settings.per_room - 1))
        listed = [json.loads(x) for x in raw]
        if not listed:
            return []
        # A pruned game stays in its room's list until the list expires: list only the games still kept.
        scores = await self.redis.zmscore(INDEX, [s["id"] for s in listed])
        cut = self.cutoff(time.time())
        return [s for s, f in zip(listed, scores, strict=True) if f is not None and (cut is None or f >= cut)]

    async def prune(self, now: float) -> int:
        cut = self.cutoff(now)
        if cut is None:
            return 0
        old = cast(
            "list[bytes]",
            await self.redis.zrangebyscore(INDEX, "-inf", f"({cut}", start=0, num=self.settings.prune_batch),
        )
        for gid in old:  # one key at a time: each record lives in its own slot on a cluster
            await self.redis.delete(game_key(gid.decode()))
        if old:
            await self.redis.zrem(INDEX, *old)
        self.pruned += len(old)
        return len(old)

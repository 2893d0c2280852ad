"""The lobby index on Redis: public rooms in the lobby, newest first, each with its line.

It lives under one fixed hash tag of its own, `{lobby}` (redis_scripts.INDEX), so on a Redis Cluster it is one
slot; whether a listed room still exists is asked per room key, each on its own master.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import cast

import redis.asyncio as aioredis
from rajas.server.storage.redis_scripts import CANDIDATES, INDEX
from redis.asyncio.cluster import RedisCluster

LOBBY = "rajas:{lobby}:"
PUBLIC = LOBBY + "public"  # zset: code -> created time
LINES = LOBBY + "lines"  # hash: code -> its line


class RedisLobby:
    def __init__(
        self,
        redis: aioredis.Redis | RedisCluster,
        room_key: Callable[[str], str],
        exists: Callable[[list[str]], Awaitable[list[bool]]],
    ) -> None:
        self.redis = redis
        self.room_key = room_key
        self.exists = exists  # which of these keys exist: one key each (a cluster has each room on its own master)
        self._index = redis.register_script(INDEX)
        self._candidates = redis.register_script(CANDIDATES)

    async def put(self, code: str, line: bytes) -> None:
        """The room's line in the index (b"": out of it)."""
        await self._index(keys=[PUBLIC, LINES], args=[code, line or b"-", time.time()])

    async def order(self, code: str) -> None:
        """A public room without its line yet: ordered in the index, shown once it has one."""
        await self.redis.zadd(PUBLIC, {code: time.time()}, nx=True)

    async def public_rooms(self) -> list[str]:
        codes = [c.decode() for c in cast("list[bytes]", await self.redis.zrange(PUBLIC, 0, -1))]
        alive = [c for c, ok in zip(codes, await self.exists([self.room_key(c) for c in codes]), strict=True) if ok]
        stale = set(codes) - set(alive)
        if stale:
            await self.redis.zrem(PUBLIC, *stale)
        return alive

    async def listed(self, limit: int) -> list[bytes]:
        # Rooms that expired (or lost their line) leave the index as they are met. The candidates are checked a few
        # more than still wanted at a time, so usually `limit` rooms are asked about; never more than 4 * limit.
        flat = cast("list[bytes]", await self._candidates(keys=[PUBLIC, LINES], args=[4 * limit]))
        codes, lines = [c.decode() for c in flat[0::2]], flat[1::2]
        out: list[bytes] = []
        stale: list[str] = []
        at = 0
        while at < len(codes) and len(out) < limit:
            chunk = range(at, min(len(codes), at + limit - len(out) + 4))
            alive = await self.exists([self.room_key(codes[i]) for i in chunk])
            for i, ok in zip(chunk, alive, strict=True):
                if not (ok and lines[i]):
                    stale.append(codes[i])
                elif len(out) < limit:
                    out.append(lines[i])
            at = chunk.stop
        if stale:
            await self.redis.zrem(PUBLIC, *stale)
            await self.redis.hdel(LINES, *stale)
        return out

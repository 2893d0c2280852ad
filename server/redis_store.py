"""The Redis RoomStore: any number of server nodes share rooms through one Redis.

Every change is one Lua script (version check, write, log append, publish) so a commit is atomic and
an acknowledged decision is never lost; the update is published only after it is stored. Each node
subscribes to the channels of the rooms its clients are in.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from typing import Any

import redis.asyncio as aioredis

from .store import Listener, RoomStore

PREFIX = "rajas:"

# KEYS: room hash, watch key, public zset. ARGV: record, code, ttl, public flag, created time.
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '1', 'rec', ARGV[1], 'w', KEYS[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
if ARGV[4] == '1' then redis.call('ZADD', KEYS[3], ARGV[5], ARGV[2]) end
return 1
"""

# KEYS: room hash, log list. ARGV: expected version, record, log entry ('' for none), message, channel, ttl.
# The watch key is read from the room hash (single-instance Redis allows that; it only refreshes a TTL).
COMMIT = """
local v = redis.call('HGET', KEYS[1], 'v')
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(v) + 1), 'rec', ARGV[2])
if ARGV[3] ~= '' then redis.call('RPUSH', KEYS[2], ARGV[3]) end
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[6])
local w = redis.call('HGET', KEYS[1], 'w')
if w then redis.call('EXPIRE', w, ARGV[6]) end
redis.call('PUBLISH', ARGV[5], ARGV[4])
return 1
"""

# KEYS: presence hash, room hash. ARGV: key, delta, channel, ttl. Publishes all counts (msgpack).
PRESENCE = """
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('EXPIRE', KEYS[1], ARGV[4])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
local all = redis.call('HGETALL', KEYS[1])
local counts = {}
for i = 1, #all, 2 do counts[all[i]] = tonumber(all[i + 1]) end
redis.call('PUBLISH', ARGV[3], cmsgpack.pack({type = '_presence', counts = counts}))
return all
"""


class RedisStore(RoomStore):
    def __init__(self, url: str, ttl: float = 7200.0) -> None:
        self.url = url
        self.ttl = int(ttl)
        self.redis: aioredis.Redis = aioredis.from_url(url, decode_responses=False)
        self._create = self.redis.register_script(CREATE)
        self._commit = self.redis.register_script(COMMIT)
        self._presence = self.redis.register_script(PRESENCE)
        self.pubsub: Any = None
        self.listeners: dict[str, list[Listener]] = {}
        self._reader: asyncio.Task[None] | None = None

    @staticmethod
    def _room(code: str) -> str:
        return f"{PREFIX}room:{code}"

    @staticmethod
    def _log(code: str) -> str:
        return f"{PREFIX}log:{code}"

    @staticmethod
    def channel(code: str) -> str:
        return f"{PREFIX}ch:{code}"

    async def start(self) -> None:
        await self.redis.ping()
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        # A node channel first, so the reader always has a subscribed connection to listen on.
        await self.pubsub.subscribe(f"{PREFIX}node:{uuid.uuid4().hex}")
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
        await self.redis.aclose()

    async def _read(self) -> None:
        start = len(self.channel(""))
        while True:
            try:
                async for m in self.pubsub.listen():
                    if m["type"] != "message":
                        continue
                    code = m["channel"][start:].decode()
                    for listener in list(self.listeners.get(code, ())):
                        listener(m["data"])
            except asyncio.CancelledError:
                raise
            except Exception:  # a dropped Redis connection: retry; redis-py resubscribes on reconnect
                await asyncio.sleep(0.2)

    async def create(self, code: str, watch: str, record: bytes, public: bool) -> bool:
        keys = [self._room(code), f"{PREFIX}watch:{watch}", f"{PREFIX}public"]
        args = [record, code, self.ttl, "1" if public else "0", time.time()]
        return bool(await self._create(keys=keys, args=args))

    async def load(self, code: str) -> bytes | None:
        got: bytes | None = await self.redis.hget(self._room(code), "rec")
        return got

    async def resolve(self, code: str) -> tuple[str, bool] | None:
        if await self.redis.exists(self._room(code)):
            return code, False
        room = await self.redis.get(f"{PREFIX}watch:{code}")
        if room is not None and await self.redis.exists(self._room(room.decode())):
            return room.decode(), True
        return None

    async def commit(self, code: str, expected: int, record: bytes, log_entry: bytes | None, message: bytes) -> bool:
        keys = [self._room(code), self._log(code)]
        args = [str(expected), record, log_entry or b"", message, self.channel(code), self.ttl]
        return bool(await self._commit(keys=keys, args=args))

    async def log(self, code: str) -> list[bytes]:
        got: list[bytes] = await self.redis.lrange(self._log(code), 0, -1)
        return got

    async def presence(self, code: str, key: str, delta: int) -> dict[str, int]:
        keys = [f"{PREFIX}presence:{code}", self._room(code)]
        flat = await self._presence(keys=keys, args=[key, delta, self.channel(code), self.ttl])
        return {flat[i].decode(): int(flat[i + 1]) for i in range(0, len(flat), 2) if int(flat[i + 1]) > 0}

    async def subscribe(self, code: str, listener: Listener) -> None:
        first = code not in self.listeners
        self.listeners.setdefault(code, []).append(listener)
        if first:
            await self.pubsub.subscribe(self.channel(code))

    async def unsubscribe(self, code: str, listener: Listener) -> None:
        got = self.listeners.get(code)
        if got and listener in got:
            got.remove(listener)
            if not got:
                del self.listeners[code]
                await self.pubsub.unsubscribe(self.channel(code))

    async def public_rooms(self) -> list[str]:
        codes = [c.decode() for c in await self.redis.zrange(f"{PREFIX}public", 0, -1)]
        alive = [c for c in codes if await self.redis.exists(self._room(c))]
        stale = set(codes) - set(alive)
        if stale:
            await self.redis.zrem(f"{PREFIX}public", *stale)
        return alive

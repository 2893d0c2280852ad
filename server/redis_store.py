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
from typing import Any, cast

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .encoding import Packed, as_bytes, merge_maps
from .redis_pipe import Pipe, PipeError, Subscriber
from .store import RECENT, Listener, RoomStore

PREFIX = "rajas:"

# A room is a hash: 'v' (version), 'rec' (the record's changing part, or all of it), 'fix' (the fixed part: settings
# with a custom sheet, game, host token; written when it changes, not on every commit), 'w' (the watch key).
# The lobby index: zset 'public' (code -> created time, for order) and hash 'lobby' (code -> its line).

# KEYS: room hash, watch key, public zset, lobby hash. ARGV: record, code, ttl, public flag, created time, fixed part
# ('' for none), lobby line ('' for none).
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '1', 'rec', ARGV[1], 'w', KEYS[2])
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'fix', ARGV[6]) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
if ARGV[4] == '1' then
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[2])
  if ARGV[7] ~= '' then redis.call('HSET', KEYS[4], ARGV[2], ARGV[7]) end
end
return 1
"""

# KEYS: room hash, log list, recent list, public zset, lobby hash. ARGV: expected version, record, log entry ('' for
# none), message, channel, ttl, recent entry ('' for none), how many recent entries to keep, mode ('f': the record
# is all of it; 's': its changing part, the fixed part unchanged; 'S': changing part and a new fixed part), fixed
# part, lobby line ('' unchanged, '-' out of the index, else the line), time, code.
# The watch key is read from the room hash (single-instance Redis allows that; it only refreshes a TTL).
# Returns 1 (written), 0 (another writer was first), 2 (mode 's' on a record without a fixed part: send it).
COMMIT = """
local v = redis.call('HGET', KEYS[1], 'v')
if v ~= ARGV[1] then return 0 end
if ARGV[9] == 's' and redis.call('HEXISTS', KEYS[1], 'fix') == 0 then return 2 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(v) + 1), 'rec', ARGV[2])
if ARGV[9] == 'S' then
  redis.call('HSET', KEYS[1], 'fix', ARGV[10])
elseif ARGV[9] == 'f' and redis.call('HEXISTS', KEYS[1], 'fix') == 1 then
  redis.call('HDEL', KEYS[1], 'fix')
end
if ARGV[3] ~= '' then redis.call('RPUSH', KEYS[2], ARGV[3]) end
if ARGV[7] ~= '' then
  redis.call('RPUSH', KEYS[3], ARGV[7])
  redis.call('LTRIM', KEYS[3], -tonumber(ARGV[8]), -1)
  redis.call('EXPIRE', KEYS[3], ARGV[6])
end
if ARGV[11] == '-' then
  redis.call('ZREM', KEYS[4], ARGV[13])
  redis.call('HDEL', KEYS[5], ARGV[13])
elseif ARGV[11] ~= '' then
  redis.call('ZADD', KEYS[4], 'NX', ARGV[12], ARGV[13])
  redis.call('HSET', KEYS[5], ARGV[13], ARGV[11])
end
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('EXPIRE', KEYS[2], ARGV[6])
local w = redis.call('HGET', KEYS[1], 'w')
if w then redis.call('EXPIRE', w, ARGV[6]) end
redis.call('PUBLISH', ARGV[5], ARGV[4])
return 1
"""

# KEYS: public zset, lobby hash. ARGV: how many lines, room key prefix, how many index entries to look at (newest
# first: a room waiting for players was most likely made lately).
# Rooms that expired (or lost their line) leave the index as they are met; the work is bounded by ARGV[3].
LISTED = """
local codes = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[3]) - 1)
local out = {}
for _, c in ipairs(codes) do
  if #out >= tonumber(ARGV[1]) then break end
  local line = redis.call('HGET', KEYS[2], c)
  if line and redis.call('EXISTS', ARGV[2] .. c) == 1 then
    out[#out + 1] = line
  else
    redis.call('ZREM', KEYS[1], c)
    redis.call('HDEL', KEYS[2], c)
  end
end
return out
"""

# Presence is kept per node: field "<seat id or ~spectators>|<node>" = that node's open connections, so
# a node that dies (kill -9, no goodbye) cannot leave counts behind: its heartbeat key expires and the
# next presence call of any node drops its fields. KEYS: presence hash, room hash, log list.
# ARGV: node, ttl, channel, alive-key prefix, mode, then pairs. Mode 'd': pairs = key, delta (a connection
# came or went). Mode 's': pairs = key, count for every key this node has (restates the node's truth).
# Publishes the totals (msgpack) when anything changed; returns {room version, flat totals}.
REFRESH_BATCH = 25
PIPES = 8

PRESENCE = """
local suffix = '|' .. ARGV[1]
local changed = false
if ARGV[5] == 'd' then
  local f = ARGV[6] .. suffix
  local n = redis.call('HINCRBY', KEYS[1], f, ARGV[7])
  if n <= 0 then redis.call('HDEL', KEYS[1], f) end
  changed = true
else
  local want = {}
  for i = 6, #ARGV, 2 do want[ARGV[i] .. suffix] = ARGV[i + 1] end
  local cur = redis.call('HGETALL', KEYS[1])
  for i = 1, #cur, 2 do
    if string.sub(cur[i], -#suffix) == suffix and want[cur[i]] ~= cur[i + 1] then
      redis.call('HDEL', KEYS[1], cur[i])
      changed = true
    end
  end
  for f, n in pairs(want) do
    if redis.call('HSETNX', KEYS[1], f, n) == 1 then changed = true end
  end
end
local all = redis.call('HGETALL', KEYS[1])
local counts, alive, flat = {}, {}, {}
for i = 1, #all, 2 do
  local key, owner = string.match(all[i], '^(.*)|([^|]*)$')
  if key ~= nil and alive[owner] == nil then alive[owner] = redis.call('EXISTS', ARGV[4] .. owner) == 1 end
  if key ~= nil and alive[owner] then
    counts[key] = (counts[key] or 0) + tonumber(all[i + 1])
  else
    redis.call('HDEL', KEYS[1], all[i])
    changed = true
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[2])
local v = redis.call('HGET', KEYS[2], 'v')
if v then
  redis.call('EXPIRE', KEYS[2], ARGV[2])
  if redis.call('EXISTS', KEYS[3]) == 1 then redis.call('EXPIRE', KEYS[3], ARGV[2]) end
  local w = redis.call('HGET', KEYS[2], 'w')
  if w then redis.call('EXPIRE', w, ARGV[2]) end
end
for k, n in pairs(counts) do
  if n > 0 then
    flat[#flat + 1] = k
    flat[#flat + 1] = n
  end
end
if changed then redis.call('PUBLISH', ARGV[3], cmsgpack.pack({type = '_presence', counts = counts})) end
return {v or '0', flat}
"""


class RedisStore(RoomStore):
    def __init__(
        self, url: str, ttl: float = 7200.0, node: str | None = None, heartbeat: float = 2.0, node_ttl: float = 6.0
    ) -> None:
        self.url = url
        self.ttl = int(ttl)
        self.node = node or uuid.uuid4().hex[:12]
        self.heartbeat = heartbeat
        self.node_ttl = max(1, round(node_ttl))
        # A bounded pool: a burst of commits queues for a connection instead of opening hundreds. Pooled sockets
        # die with a Redis restart: every command reconnects and retries a few times before it fails (a retried
        # commit is safe: the script checks the version, and accepted decision ids are remembered).
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=64,
            timeout=30,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.02), retries=4),
            retry_on_error=[RedisConnectionError, RedisTimeoutError],
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self._create = self.redis.register_script(CREATE)
        self._commit = self.redis.register_script(COMMIT)
        self._listed = self.redis.register_script(LISTED)
        self._presence = self.redis.register_script(PRESENCE)
        # Several pipes, taken in turn: Redis reads a connection 16 KiB at a time per pass of its event loop and
        # (appendfsync always) syncs the file once per pass, so commits of ~6 KiB on one connection would be
        # synced two or three at a time.
        self._pipes: list[Pipe] = []
        self._turn = 0
        self._prefix = len(self.channel(""))
        self._subscriber: Subscriber | None = None
        with contextlib.suppress(ValueError):  # (a unix socket or TLS url: all goes through redis-py)
            self._pipes = [Pipe(url) for _ in range(PIPES)]
            self._subscriber = Subscriber(url, self._dispatch)
        self.pubsub: Any = None
        self.listeners: dict[str, list[Listener]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._beater: asyncio.Task[None] | None = None

    @property
    def alive_key(self) -> str:
        return f"{PREFIX}alive:{self.node}"

    @staticmethod
    def _room(code: str) -> str:
        return f"{PREFIX}room:{code}"

    @staticmethod
    def _log(code: str) -> str:
        return f"{PREFIX}log:{code}"

    @staticmethod
    def _recent(code: str) -> str:
        return f"{PREFIX}recent:{code}"

    @staticmethod
    def channel(code: str) -> str:
        return f"{PREFIX}ch:{code}"

    async def start(self) -> None:
        await self.redis.ping()
        await self.redis.script_load(COMMIT)  # so the pipe's first EVALSHA finds it
        await self.redis.set(self.alive_key, b"1", ex=self.node_ttl)  # before any presence of ours counts
        self._beater = asyncio.create_task(self._beat())
        if self._subscriber is not None:
            await self._subscriber.start()
            return
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        # A node channel first, so the reader always has a subscribed connection to listen on.
        await self.pubsub.subscribe(f"{PREFIX}node:{self.node}")
        self._reader = asyncio.create_task(self._read())

    async def _beat(self) -> None:
        """This node is alive as long as this key is: other nodes drop our presence counts when it expires.
        Each beat also notices a Redis restart (a new run_id), which clients no longer see: commands retry."""
        run_id = await self._run_id()
        while True:
            await asyncio.sleep(self.heartbeat)
            with contextlib.suppress(Exception):  # Redis away: retried next beat; the key comes back with it
                await self.redis.set(self.alive_key, b"1", ex=self.node_ttl)
                now = await self._run_id()
                if now is not None:
                    if run_id is not None and now != run_id and self.on_reconnect is not None:
                        self.on_reconnect()
                    run_id = now

    async def _run_id(self) -> str | None:
        with contextlib.suppress(Exception):
            info = await self.redis.info("server")
            return str(info.get("run_id"))
        return None

    async def close(self) -> None:
        for task in (self._reader, self._beater):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for pipe in self._pipes:
            pipe.close()
        if self._subscriber is not None:
            self._subscriber.close()
        with contextlib.suppress(Exception):
            await self.redis.delete(self.alive_key)  # a clean stop: our counts go at once
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
        await self.redis.aclose()

    def _dispatch(self, channel: bytes, data: bytes) -> None:
        for listener in list(self.listeners.get(channel[self._prefix :].decode(), ())):
            listener(data)

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

    async def create(
        self,
        code: str,
        watch: str,
        record: bytes,
        public: bool,
        fixed: bytes = b"",
        listing: bytes | None = None,
    ) -> bool:
        keys = [self._room(code), f"{PREFIX}watch:{watch}", f"{PREFIX}public", f"{PREFIX}lobby"]
        args: list[bytes | str | int | float] = [
            record, code, self.ttl, "1" if public else "0", time.time(), fixed, listing or b""
        ]  # fmt: skip
        return bool(await self._create(keys=keys, args=args))

    async def load(self, code: str) -> bytes | None:
        fixed, rec = cast("list[bytes | None]", await self.redis.hmget(self._room(code), ["fix", "rec"]))
        if rec is None or fixed is None:
            return rec
        return merge_maps([fixed, rec], [])

    async def version(self, code: str) -> int | None:
        got = cast("bytes | None", await self.redis.hget(self._room(code), "v"))
        return int(got) if got is not None else None

    async def resolve(self, code: str) -> tuple[str, bool] | None:
        if await self.redis.exists(self._room(code)):
            return code, False
        room = cast("bytes | None", await self.redis.get(f"{PREFIX}watch:{code}"))
        if room is not None and await self.redis.exists(self._room(room.decode())):
            return room.decode(), True
        return None

    async def commit(
        self,
        code: str,
        expected: int,
        record: Packed,
        log_entry: Packed | None,
        message: bytes,
        recent: Packed | None = None,
        fixed: bytes = b"",
        fixed_changed: bool = True,
        listing: bytes | None = None,
    ) -> bool:
        keys = [self._room(code), self._log(code), self._recent(code), f"{PREFIX}public", f"{PREFIX}lobby"]
        entry = as_bytes(log_entry) if log_entry is not None else b""
        last = as_bytes(recent) if recent is not None else b""
        mode = "f" if not fixed else "S" if fixed_changed else "s"
        line = b"" if listing is None else listing or b"-"
        args: list[bytes | str | int | float] = [
            str(expected), as_bytes(record), entry, message, self.channel(code), self.ttl, last, RECENT,
            mode, fixed if mode == "S" else b"", line, time.time() if line else 0, code,
        ]  # fmt: skip
        got = await self._eval_commit(keys, args)
        if got == 2:  # a record written before records had a fixed part: this commit writes it
            args[8], args[9] = "S", fixed
            got = await self._eval_commit(keys, args)
        return got == 1

    async def _eval_commit(self, keys: list[str], args: list[bytes | str | int | float]) -> int:
        if self._pipes:
            self._turn = (self._turn + 1) % len(self._pipes)
            try:
                pipe = self._pipes[self._turn]
                return int(await pipe.call(["EVALSHA", self._commit.sha, len(keys), *keys, *args]))
            except PipeError:
                pass  # (e.g. Redis restarted: the script is gone, or the connection) redis-py reloads and retries
        return int(await self._commit(keys=keys, args=args))

    async def log(self, code: str) -> list[bytes]:
        return cast("list[bytes]", await self.redis.lrange(self._log(code), 0, -1))

    async def recent(self, code: str) -> list[bytes]:
        return cast("list[bytes]", await self.redis.lrange(self._recent(code), 0, -1))

    def _presence_keys(self, code: str) -> list[str]:
        return [f"{PREFIX}presence:{code}", self._room(code), self._log(code)]

    def _presence_args(self, code: str, mode: str, pairs: list[Any]) -> list[Any]:
        return [self.node, self.ttl, self.channel(code), f"{PREFIX}alive:", mode, *pairs]

    async def presence(self, code: str, key: str, delta: int) -> dict[str, int]:
        got = await self._presence(keys=self._presence_keys(code), args=self._presence_args(code, "d", [key, delta]))
        flat = got[1]
        return {flat[i].decode(): int(flat[i + 1]) for i in range(0, len(flat), 2)}

    async def refresh(self, here: dict[str, dict[str, int]]) -> dict[str, int]:
        versions: dict[str, int] = {}
        codes = list(here)
        # Pipelined in batches of REFRESH_BATCH rooms, one round trip each, letting the event loop serve
        # decisions between batches: one batch for every room at once was a 100 ms pause every heartbeat.
        for start in range(0, len(codes), REFRESH_BATCH):
            if start:
                await asyncio.sleep(0)
            batch = codes[start : start + REFRESH_BATCH]
            pipe = self.redis.pipeline(transaction=False)
            for code in batch:
                pairs = [x for key, n in here[code].items() if n > 0 for x in (key, n)]
                await self._presence(
                    keys=self._presence_keys(code), args=self._presence_args(code, "s", pairs), client=pipe
                )
            for code, got in zip(batch, await pipe.execute(), strict=True):
                versions[code] = int(got[0])
        return versions

    async def subscribe(self, code: str, listener: Listener) -> None:
        first = code not in self.listeners
        self.listeners.setdefault(code, []).append(listener)
        if first and self._subscriber is not None:
            self._subscriber.subscribe(self.channel(code))
        elif first:
            await self.pubsub.subscribe(self.channel(code))

    async def unsubscribe(self, code: str, listener: Listener) -> None:
        got = self.listeners.get(code)
        if got and listener in got:
            got.remove(listener)
            if not got:
                del self.listeners[code]
                if self._subscriber is not None:
                    self._subscriber.unsubscribe(self.channel(code))
                else:
                    await self.pubsub.unsubscribe(self.channel(code))

    async def set_public(self, code: str, public: bool) -> None:
        if not public:  # (a room becomes listed through its commit, which brings its line)
            await self.redis.zrem(f"{PREFIX}public", code)
            await self.redis.hdel(f"{PREFIX}lobby", code)

    async def public_rooms(self) -> list[str]:
        codes = [c.decode() for c in cast("list[bytes]", await self.redis.zrange(f"{PREFIX}public", 0, -1))]
        alive = [c for c in codes if await self.redis.exists(self._room(c))]
        stale = set(codes) - set(alive)
        if stale:
            await self.redis.zrem(f"{PREFIX}public", *stale)
        return alive

    async def listed(self, limit: int) -> list[bytes]:
        keys = [f"{PREFIX}public", f"{PREFIX}lobby"]
        return cast("list[bytes]", await self._listed(keys=keys, args=[limit, self._room(""), 4 * limit]))

"""The Redis RoomStore: any number of server nodes share rooms through one Redis, or a Redis Cluster.

Every change is one Lua script (version check, write, log append, publish) so a commit is atomic and
an acknowledged decision is never lost; the update is published only after it is stored. Each node
subscribes to the channels of the rooms its clients are in. A room's keys and channel carry its hash tag, so
on a cluster (`redis+cluster://host:port,...`) a room lives on one master and its scripts run there.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import uuid
from typing import Any, cast

import redis.asyncio as aioredis
from rajas.server.frames import Packed, as_bytes
from rajas.server.storage.archive import Archive, HistorySettings
from rajas.server.storage.chat_store import RedisChat
from rajas.server.storage.redis_channels import Channels, channel
from rajas.server.storage.redis_cluster import ClusterPipes, ClusterUrl, SlotMap, is_cluster
from rajas.server.storage.redis_keys import PREFIX, room_key
from rajas.server.storage.redis_lobby import RedisLobby
from rajas.server.storage.redis_pipe import Pipe, PipeError
from rajas.server.storage.redis_scripts import COMMIT, CREATE, PRESENCE, WATCH_SLACK
from rajas.server.storage.store import RECENT, STATE_TTL, Consent, Listener, RoomStore, TurnIndex, merge_records, today
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

REFRESH_BATCH = 25
PIPES = 8


class RedisStore(RoomStore):
    def __init__(
        self, url: str, ttl: float = 7200.0, node: str | None = None, heartbeat: float = 2.0, node_ttl: float = 6.0,
        unjoined_ttl: float | None = None,
    ) -> None:
        self.url = url
        self.turns: TurnIndex = RedisTurns(self)
        self.consent: Consent = RedisConsent(self)
        self.ttl = int(ttl)
        # A new room lives this long until someone joins it: the first presence or commit extends it to `ttl`.
        self.unjoined_ttl = self.ttl if unjoined_ttl is None else max(1, min(self.ttl, round(unjoined_ttl)))
        self.node = node or uuid.uuid4().hex[:12]
        self.heartbeat = heartbeat
        self.node_ttl = max(1, round(node_ttl))
        # Pooled sockets die with a Redis restart: every command reconnects and retries a few times before it
        # fails (a retried commit is safe: the script checks the version, and accepted decision ids are remembered).
        retry = Retry(ExponentialBackoff(cap=0.5, base=0.02), retries=4)
        self.cluster: ClusterUrl | None = ClusterUrl(url) if is_cluster(url) else None
        self.redis: aioredis.Redis | RedisCluster
        self._slots: SlotMap | None = None
        self._routed: ClusterPipes | None = None
        # Several pipes, taken in turn: Redis reads a connection 16 KiB at a time per pass of its event loop and
        # (appendfsync always) syncs the file once per pass, so commits of ~6 KiB on one connection would be
        # synced two or three at a time.
        self._pipes: list[Pipe] = []
        if self.cluster is not None:
            nodes = [ClusterNode(host, port) for host, port in self.cluster.seeds]
            self.redis = RedisCluster(
                startup_nodes=nodes, username=self.cluster.username, password=self.cluster.password, retry=retry
            )
            self._slots = SlotMap(self.cluster)
            self._routed = ClusterPipes(self._slots, max(1, PIPES // 4))
        else:
            # A bounded pool: a burst of commits queues for a connection instead of opening hundreds.
            pool = aioredis.BlockingConnectionPool.from_url(
                url,
                max_connections=64,
                timeout=30,
                retry=retry,
                retry_on_error=[RedisConnectionError, RedisTimeoutError],
            )
            self.redis = aioredis.Redis(connection_pool=pool)
            with contextlib.suppress(ValueError):  # (a unix socket or TLS url: all goes through redis-py)
                self._pipes = [Pipe(url) for _ in range(PIPES)]
        self._create = self.redis.register_script(CREATE)
        self._commit = self.redis.register_script(COMMIT)
        self.lobby = RedisLobby(self.redis, self._room, self._exists)
        self._presence = self.redis.register_script(PRESENCE)
        self.chat = RedisChat(self.redis, lambda: self._publish, channel)
        self._turn = 0
        # Sharded channels (SPUBLISH/SSUBSCRIBE, Redis 7) where the server has them: on a cluster a message then
        # stays on the master owning the room's slot instead of reaching every node of the cluster.
        self.sharded = False
        self._publish = "PUBLISH"
        self.channels = Channels()
        self._present: set[str] = set()  # rooms where this node may have presence counts (taken back at close)
        self._beater: asyncio.Task[None] | None = None

    @staticmethod
    def _room(code: str) -> str:
        return room_key(code, "room")

    @staticmethod
    def _log(code: str) -> str:
        return room_key(code, "log")

    @staticmethod
    def _recent(code: str) -> str:
        return room_key(code, "recent")

    @staticmethod
    def _watch(watch: str) -> str:
        return f"{PREFIX}watch:{watch}"

    @staticmethod
    def channel(code: str) -> str:
        return channel(code)

    async def start(self) -> None:
        await self.redis.ping()
        self.sharded = await self._has_spublish()
        self._publish = "SPUBLISH" if self.sharded else "PUBLISH"
        await self.redis.script_load(COMMIT)  # so the pipe's first EVALSHA finds it (on every master of a cluster)
        if self._slots is not None:
            await self._slots.read()
        await self.channels.start(self.redis, self.url, self.sharded, self._slots, bool(self._pipes), self.node)
        self._beater = asyncio.create_task(self._beat())

    async def _has_spublish(self) -> bool:
        try:
            await self.redis.execute_command("SPUBLISH", self.channel(""), b"")
        except ResponseError:  # (an unknown command: Redis before 7)
            return False
        return True

    async def _beat(self) -> None:
        """Each beat notices a Redis restart (a new run_id) or, on a cluster, a slot that changed master, which
        clients no longer see (commands retry): the hub then catches up on updates it may have missed."""
        run_id = await self._run_id()
        while True:
            await asyncio.sleep(self.heartbeat)
            with contextlib.suppress(Exception):  # Redis away: retried next beat
                moved = False
                if self._slots is not None:
                    moved = await self._slots.read()
                    if moved:
                        self.channels.moved()
                now = await self._run_id()
                if now is not None:
                    if ((run_id is not None and now != run_id) or moved) and self.on_reconnect is not None:
                        self.on_reconnect()
                    run_id = now

    async def _run_id(self) -> str | None:
        with contextlib.suppress(Exception):
            if isinstance(self.redis, RedisCluster):
                infos = await self.redis.info("server", target_nodes=RedisCluster.PRIMARIES)
                return ",".join(sorted(str(i.get("run_id")) for i in infos.values()))
            info = await self.redis.info("server")
            return str(info.get("run_id"))
        return None

    async def close(self) -> None:
        if self._beater is not None:
            self._beater.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._beater
        with contextlib.suppress(Exception):  # a clean stop: our presence counts go at once
            await asyncio.wait_for(self._leave(), 2)
        for pipe in self._pipes:
            pipe.close()
        if self._routed is not None:
            self._routed.close()
        if self._slots is not None:
            self._slots.close()
        await self.channels.close()
        await self.redis.aclose()

    async def _leave(self) -> None:
        for code in list(self._present):
            await self._presence(keys=self._presence_keys(code), args=self._presence_args(code, "s", []))

    async def create(
        self,
        code: str,
        watch: str,
        record: bytes,
        public: bool,
        fixed: bytes = b"",
        listing: bytes | None = None,
    ) -> bool:
        # The watch key is looked up by the spectator code alone, so it has a slot of its own: taken first, and
        # given back if the room's code is taken.
        wkey = self._watch(watch)
        if not await self.redis.set(wkey, code, ex=round(self.ttl * WATCH_SLACK), nx=True):
            return False
        if not await self._create(keys=[self._room(code)], args=[record, self.unjoined_ttl, fixed, wkey]):
            await self.redis.delete(wkey)
            return False
        if public and listing:
            await self.lobby.put(code, listing)
        elif public:
            await self.lobby.order(code)
        return True

    async def load(self, code: str) -> bytes | None:
        fixed, rec = cast("list[bytes | None]", await self.redis.hmget(self._room(code), ["fix", "rec"]))
        if rec is None or fixed is None:
            return rec
        return merge_records(fixed, rec)

    async def version(self, code: str) -> int | None:
        got = cast("bytes | None", await self.redis.hget(self._room(code), "v"))
        return int(got) if got is not None else None

    async def resolve(self, code: str) -> tuple[str, bool] | None:
        if await self.redis.exists(self._room(code)):
            return code, False
        room = cast("bytes | None", await self.redis.get(self._watch(code)))
        if room is not None and await self.redis.exists(self._room(room.decode())):
            return room.decode(), True
        return None

    async def commit(
        self,
        code: str,
        expected: int,
        record: Packed,
        log_entry: Packed | None,
        message: Packed,
        recent: Packed | None = None,
        fixed: bytes = b"",
        fixed_changed: bool = True,
        listing: bytes | None = None,
    ) -> bool:
        keys = [self._room(code), self._log(code), self._recent(code)]
        entry = as_bytes(log_entry) if log_entry is not None else b""
        last = as_bytes(recent) if recent is not None else b""
        mode = "f" if not fixed else "S" if fixed_changed else "s"
        args: list[bytes | str | int | float] = [
            str(expected), as_bytes(record), entry, as_bytes(message), channel(code), self.ttl, last, RECENT,
            mode, fixed if mode == "S" else b"", self._publish,
        ]  # fmt: skip
        got = await self._eval_commit(keys, args)
        if got == 2:  # a record written before records had a fixed part: this commit writes it
            args[8], args[9] = "S", fixed
            got = await self._eval_commit(keys, args)
        if isinstance(got, bytes):  # written, and the watch key is due for a longer life
            await self.redis.expire(got, round(self.ttl * WATCH_SLACK), gt=True)
            got = 1
        if got == 1 and listing is not None:
            await self.lobby.put(code, listing)
        return got == 1

    async def _eval_commit(self, keys: list[str], args: list[bytes | str | int | float]) -> int | bytes:
        try:
            if self._routed is not None:
                got = await self._routed.call(keys[0], ["EVALSHA", self._commit.sha, len(keys), *keys, *args])
                return got if isinstance(got, bytes) else int(got)
            if self._pipes:
                self._turn = (self._turn + 1) % len(self._pipes)
                got = await self._pipes[self._turn].call(["EVALSHA", self._commit.sha, len(keys), *keys, *args])
                return got if isinstance(got, bytes) else int(got)
        except PipeError:
            pass  # (e.g. Redis restarted: the script is gone, or a slot moved) redis-py reloads, follows and retries
        got = await self._commit(keys=keys, args=args)
        return got if isinstance(got, bytes) else int(got)

    async def _exists(self, keys: list[str]) -> list[bool]:
        """Which of these keys exist, asked in one write per master over the lean connections where there are."""
        try:
            if self._routed is not None:
                return [bool(n) for n in await self._routed.call_many([(k, ["EXISTS", k]) for k in keys])]
            if self._pipes:
                return [bool(n) for n in await self._pipes[0].call_many([["EXISTS", k] for k in keys])]
        except PipeError:
            pass  # (Redis restarted, a slot moved) redis-py reconnects and follows
        pipe = self.redis.pipeline(transaction=False)
        for k in keys:
            pipe.exists(k)
        return [bool(n) for n in await pipe.execute()]

    async def log(self, code: str) -> list[bytes]:
        return cast("list[bytes]", await self.redis.lrange(self._log(code), 0, -1))

    async def trim_log(self, code: str, first: int) -> None:
        if first > 0:
            await self.redis.ltrim(self._log(code), first, -1)

    async def drop(self, code: str) -> None:
        watch = cast("bytes | None", await self.redis.hget(self._room(code), "w"))
        for part in ("room", "log", "recent", "presence", "chat"):  # (one key at a time: a cluster slot each call)
            await self.redis.delete(room_key(code, part))
        if watch is not None:
            await self.redis.delete(watch.decode())

    async def recent(self, code: str) -> list[bytes]:
        return cast("list[bytes]", await self.redis.lrange(self._recent(code), 0, -1))

    def _presence_keys(self, code: str) -> list[str]:
        return [room_key(code, "presence"), self._room(code), self._log(code)]

    def _presence_args(self, code: str, mode: str, pairs: list[Any]) -> list[Any]:
        return [self.node, self.ttl, self.channel(code), self.node_ttl * 1000, mode, self._publish, *pairs]

    async def _presence_done(self, code: str, got: Any, mine: bool) -> list[Any]:
        """Notes whether this node has counts in the room, and extends the watch key's life when it is due."""
        if mine:
            self._present.add(code)
        else:
            self._present.discard(code)
        if got[2]:
            await self.redis.expire(got[2], round(self.ttl * WATCH_SLACK), gt=True)
        return cast("list[Any]", got)

    async def presence(self, code: str, key: str, delta: int) -> dict[str, int]:
        got = await self._presence(keys=self._presence_keys(code), args=self._presence_args(code, "d", [key, delta]))
        got = await self._presence_done(code, got, mine=True)
        flat = got[1]
        return {flat[i].decode(): int(flat[i + 1]) for i in range(0, len(flat), 2)}

    async def refresh(self, here: dict[str, dict[str, int]]) -> dict[str, int]:
        versions: dict[str, int] = {}
        codes = list(here)
        # In batches of REFRESH_BATCH rooms, one round trip each, letting the event loop serve decisions between
        # batches: one batch for every room at once was a 100 ms pause every heartbeat.
        for start in range(0, len(codes), REFRESH_BATCH):
            if start:
                await asyncio.sleep(0)
            batch = codes[start : start + REFRESH_BATCH]
            pairs = {code: [x for key, n in here[code].items() if n > 0 for x in (key, n)] for code in batch}
            calls = [(self._presence_keys(code), self._presence_args(code, "s", pairs[code])) for code in batch]
            if isinstance(self.redis, RedisCluster):
                # (a cluster pipeline would not reload a script a restarted master lost; each call does)
                results = await asyncio.gather(*(self._presence(keys=k, args=a) for k, a in calls))
            else:
                pipe = self.redis.pipeline(transaction=False)
                for k, a in calls:
                    await self._presence(keys=k, args=a, client=pipe)
                results = await pipe.execute()
            for code, got in zip(batch, results, strict=True):
                await self._presence_done(code, got, mine=bool(pairs[code]))
                versions[code] = int(got[0])
        return versions

    async def subscribe(self, code: str, listener: Listener) -> None:
        await self.channels.subscribe(code, listener)

    async def unsubscribe(self, code: str, listener: Listener) -> None:
        await self.channels.unsubscribe(code, listener)

    async def set_public(self, code: str, public: bool) -> None:
        if not public:  # (a room becomes listed through its commit, which brings its line)
            await self.lobby.put(code, b"")

    async def public_rooms(self) -> list[str]:
        return await self.lobby.public_rooms()

    async def listed(self, limit: int) -> list[bytes]:
        return await self.lobby.listed(limit)

    def archive(self, settings: HistorySettings) -> Archive:
        from rajas.server.storage.archive_redis import RedisArchive

        return RedisArchive(self.redis, settings)


class RedisTurns(TurnIndex):
    """A sorted set of its own (code -> due time). On a cluster it lives in one slot; it is advisory: the node
    that reads an entry loads the room and checks it, so an entry left behind by a dead node costs one load."""

    KEY = f"{PREFIX}turns"
    ACTED = f"{PREFIX}turns:acted"  # (a hash of its own: room -> when a person last acted)

    def __init__(self, store: RedisStore) -> None:
        self.store = store

    async def schedule(self, code: str, at: float | None) -> None:
        if at is None:
            await self.store.redis.zrem(self.KEY, code)
        else:
            await self.store.redis.zadd(self.KEY, {code: at})

    async def due(self, now: float, limit: int) -> list[str]:
        got = cast("list[bytes]", await self.store.redis.zrangebyscore(self.KEY, "-inf", now, start=0, num=limit))
        return [c.decode() for c in got]

    async def keep(self, code: str, seconds: float | None) -> None:
        r = self.store.redis
        ttl = round(seconds) if seconds is not None else self.store.ttl
        for key in (room_key(code, part) for part in ("room", "log", "recent", "presence", "mail")):
            await r.expire(key, ttl)
        watch = cast("bytes | None", await r.hget(room_key(code, "room"), "w"))
        if watch is not None:
            await r.expire(watch.decode(), round(ttl * WATCH_SLACK))

    async def acted(self, code: str, at: float) -> None:
        await self.store.redis.hset(self.ACTED, code, str(at))

    async def last_acted(self, code: str) -> float | None:
        got = cast("bytes | None", await self.store.redis.hget(self.ACTED, code))
        return float(got) if got is not None else None

    async def forget_acted(self, code: str) -> None:
        await self.store.redis.hdel(self.ACTED, code)


class RedisConsent(Consent):
    SECRET = f"{PREFIX}mail:secret"

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self._secret: bytes | None = None
        self._lock = asyncio.Lock()

    async def set_address(self, code: str, seat_id: str, address: str | None, life: float) -> None:
        r = self.store.redis
        key = room_key(code, "mail")
        if address is None:
            await r.hdel(key, seat_id)
            return
        await r.hset(key, seat_id, address)
        left = int(await r.pttl(room_key(code, "room")))
        await r.pexpire(key, max(left, int(life * 1000)))

    async def address(self, code: str, seat_id: str) -> str | None:
        got = cast("bytes | None", await self.store.redis.hget(room_key(code, "mail"), seat_id))
        return got.decode() if got is not None else None

    async def state(self, aid: str) -> str | None:
        got = cast("bytes | None", await self.store.redis.get(f"{PREFIX}mail:addr:{aid}"))
        return got.decode() if got is not None else None

    async def set_state(self, aid: str, state: str) -> None:
        await self.store.redis.set(f"{PREFIX}mail:addr:{aid}", state, ex=STATE_TTL)

    async def count(self, kind: str, key: str) -> int:
        k = f"{PREFIX}mail:n:{kind}:{key}:{today()}"
        n = int(await self.store.redis.incr(k))
        if n == 1:
            await self.store.redis.expire(k, 2 * 86400)
        return n

    async def secret(self) -> bytes:
        if self._secret is None:
            async with self._lock:
                r = self.store.redis
                await r.set(self.SECRET, secrets.token_hex(32), nx=True)
                got = cast("bytes | None", await r.get(self.SECRET))
                assert got is not None
                self._secret = got
        return self._secret

"""Where turn-based rooms wait: an index of rooms in play by the time something is next due to them (a reminder
or a deadline), which every node reads, so a turn's timer outlives the node that armed it; the longer life
of such a room while its game runs (RAJAS_TURN_ROOM_TTL) instead of the store's TTL for quiet rooms; and when a
person last acted in each game (a game nobody acts in stops: server/turns/service.py)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import cast

from rajas.server.storage.memory_store import MemoryStore
from rajas.server.storage.redis_keys import PREFIX, room_key
from rajas.server.storage.redis_scripts import WATCH_SLACK
from rajas.server.storage.redis_store import RedisStore
from rajas.server.storage.store import RoomStore


class TurnIndex(ABC):
    @abstractmethod
    async def schedule(self, code: str, at: float | None) -> None:
        """Something is due to room `code` at unix time `at` (None: nothing; out of the index)."""

    @abstractmethod
    async def due(self, now: float, limit: int) -> list[str]:
        """Up to `limit` rooms with something due by `now`, the most overdue first."""

    @abstractmethod
    async def keep(self, code: str, seconds: float | None) -> None:
        """The room and its parts live `seconds` from now (None: the store's TTL again, from now)."""

    @abstractmethod
    async def acted(self, code: str, at: float) -> None:
        """A person acted in the room's game at unix time `at`."""

    @abstractmethod
    async def last_acted(self, code: str) -> float | None: ...

    @abstractmethod
    async def forget_acted(self, code: str) -> None: ...


class MemoryTurns(TurnIndex):
    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.at: dict[str, float] = {}
        self.acts: dict[str, float] = {}  # (one per room in play; forgotten when its game stops)

    async def schedule(self, code: str, at: float | None) -> None:
        if at is None:
            self.at.pop(code, None)
        else:
            self.at[code] = at

    async def due(self, now: float, limit: int) -> list[str]:
        return [c for c, t in sorted(self.at.items(), key=lambda x: x[1]) if t <= now][:limit]

    async def keep(self, code: str, seconds: float | None) -> None:
        if seconds is None:
            self.store.keep.pop(code, None)
        else:
            self.store.keep[code] = seconds

    async def acted(self, code: str, at: float) -> None:
        self.acts[code] = at
        if len(self.acts) > 2 * len(self.store.records) + 100:  # (rooms the store dropped go too)
            self.acts = {c: t for c, t in self.acts.items() if c in self.store.records}

    async def last_acted(self, code: str) -> float | None:
        return self.acts.get(code)

    async def forget_acted(self, code: str) -> None:
        self.acts.pop(code, None)


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


def index_for(store: RoomStore) -> TurnIndex | None:
    if isinstance(store, RedisStore):
        return RedisTurns(store)
    if isinstance(store, MemoryStore):
        return MemoryTurns(store)
    return None

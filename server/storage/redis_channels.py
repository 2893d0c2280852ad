"""The rooms' channels a node listens to: a lean subscriber connection (one per master on a Redis Cluster), or
redis-py's pub/sub where the lean connection cannot go (a unix socket, TLS). Shard channels (SSUBSCRIBE) where the
server has them, plain ones otherwise; each message goes to the listeners of its room."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from rajas.server.storage.redis_cluster import ClusterSubscriber, SlotMap
from rajas.server.storage.redis_keys import PREFIX, room_key
from rajas.server.storage.redis_pipe import Subscriber
from rajas.server.storage.store import Listener


def channel(code: str) -> str:
    return room_key(code, "ch")


_START = len(PREFIX) + 1  # where the room's code starts in a channel's name



class Channels:
    def __init__(self) -> None:
        self.listeners: dict[str, list[Listener]] = {}
        self.sharded = False
        self.lean: Subscriber | ClusterSubscriber | None = None
        self.pubsub: Any = None  # redis-py's PubSub, when no lean connection is possible
        self._reader: asyncio.Task[None] | None = None

    async def start(self, redis: Any, url: str, sharded: bool, slots: SlotMap | None, lean: bool, node: str) -> None:
        self.sharded = sharded
        if slots is not None:
            self.lean = ClusterSubscriber(slots, self.dispatch)
            await self.lean.start(sharded)
        elif lean:
            self.lean = Subscriber(url, self.dispatch, sharded=sharded)
            await self.lean.start()
        else:
            self.pubsub = redis.pubsub(ignore_subscribe_messages=True)
            # A node channel first, so the reader always has a subscribed connection to listen on.
            await self.pubsub.subscribe(f"{PREFIX}node:{node}")
            self._reader = asyncio.create_task(self._read())

    def moved(self) -> None:
        """The cluster's slot map changed: channels follow their slots."""
        if isinstance(self.lean, ClusterSubscriber):
            self.lean.moved()

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self.lean is not None:
            self.lean.close()
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()

    def dispatch(self, name: bytes, data: bytes) -> None:
        got = self.listeners.get(name[_START:-4].decode())
        if got:
            for listener in list(got):
                listener(data)

    async def _read(self) -> None:
        while True:
            dropped = False
            try:
                async for m in self.pubsub.listen():
                    if m["type"] in ("message", "smessage"):
                        self.dispatch(m["channel"], m["data"])
            except asyncio.CancelledError:
                raise
            except Exception:  # a dropped Redis connection: retry; redis-py resubscribes on reconnect
                dropped = True
            if dropped:  # (waited outside the `except`: see tests/server/test_compiled_modules.py)
                await asyncio.sleep(0.2)

    async def subscribe(self, code: str, listener: Listener) -> None:
        first = code not in self.listeners
        self.listeners.setdefault(code, []).append(listener)
        if not first:
            return
        if self.lean is not None:
            self.lean.subscribe(channel(code))
        elif self.sharded:
            await self.pubsub.ssubscribe(channel(code))
        else:
            await self.pubsub.subscribe(channel(code))

    async def unsubscribe(self, code: str, listener: Listener) -> None:
        got = self.listeners.get(code)
        if not got or listener not in got:
            return
        got.remove(listener)
        if got:
            return
        del self.listeners[code]
        if self.lean is not None:
            self.lean.unsubscribe(channel(code))
        elif self.sharded:
            await self.pubsub.sunsubscribe(channel(code))
        else:
            await self.pubsub.unsubscribe(channel(code))

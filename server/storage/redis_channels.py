"""The rooms' channels a node listens to, through redis-py's pub/sub: shard channels (SSUBSCRIBE, Redis 7) where the
server has them, plain ones otherwise; each message goes to the listeners of its room.

On one Redis, one connection carries every subscription. On a Redis Cluster with shard channels, redis-py's
`ClusterPubSub` subscribes each channel at the master owning its slot (one connection per master) and moves it when
redis-py's slot map changes; a task per master reads what comes. (Without shard channels a cluster sends every
message to every node, so one connection to any master hears them all.) A dropped connection is redis-py's to bring
back, subscribed again to every channel; updates published meanwhile are caught by the hub's heartbeat, which
compares room versions.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import redis.asyncio as aioredis
from rajas.server.storage.redis_keys import PREFIX, room_key
from rajas.server.storage.store import Listener
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import ClusterPubSub, RedisCluster


def channel(code: str) -> str:
    return room_key(code, "ch")


_START = len(PREFIX) + 1  # where the room's code starts in a channel's name
_RETRY = 0.2  # seconds between tries to read again from a connection that stayed lost through redis-py's retries
_LOOK = 1.0  # seconds a master's reader waits for a message before it checks its PubSub is still the master's


async def _as_is(message: Any) -> Any:
    """Redis 7.0 sends a shard channel's messages as push messages even to a RESP2 connection; redis-py's default
    handler for those writes each one out for its debug log (about 20 us a message, debug on or not)."""
    return message


class Channels:
    def __init__(self) -> None:
        self.listeners: dict[str, list[Listener]] = {}
        self.sharded = False
        self.pubsub: PubSub | None = None
        self.cluster: RedisCluster | None = None  # on a cluster with shard channels: one reader per master
        self._readers: dict[str, tuple[PubSub, asyncio.Task[None]]] = {}  # master -> its PubSub, its reader

    async def start(self, redis: aioredis.Redis | RedisCluster, sharded: bool, node: str) -> None:
        self.sharded = sharded
        self.pubsub = redis.pubsub(ignore_subscribe_messages=True, push_handler_func=_as_is)
        if isinstance(redis, RedisCluster) and sharded:
            self.cluster = redis
            return
        # A channel of the node's own first, so the reader always has a subscribed connection to listen on.
        await self.pubsub.subscribe(f"{PREFIX}node:{node}")
        self._readers[""] = (self.pubsub, asyncio.create_task(self._read(self.pubsub)))

    def moved(self) -> None:
        """Readers for the masters that hold the node's channels now (the cluster's slot map changed, or a channel
        was subscribed at a master first met)."""
        pubsub, cluster = self.pubsub, self.cluster
        if not isinstance(pubsub, ClusterPubSub) or cluster is None:
            return
        current = dict(pubsub.node_pubsub_mapping)
        for name, (ps, task) in list(self._readers.items()):
            if current.get(name) is not ps or task.done():
                task.cancel()
                del self._readers[name]
        for name, ps in current.items():
            if name not in self._readers:
                self._readers[name] = (ps, asyncio.create_task(self._read_master(pubsub, cluster, name, ps)))

    async def close(self) -> None:
        for _, task in self._readers.values():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._readers.clear()
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()  # type: ignore[no-untyped-call]  # (not annotated in redis-py)

    def dispatch(self, name: bytes, data: bytes) -> None:
        got = self.listeners.get(name[_START:-4].decode())
        if got:
            for listener in list(got):
                listener(data)

    async def _read(self, pubsub: PubSub) -> None:
        while True:
            dropped = False
            try:
                async for m in pubsub.listen():
                    if m["type"] in ("message", "smessage"):
                        self.dispatch(m["channel"], m["data"])
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away past redis-py's retries: listening again reconnects and resubscribes
                dropped = True
            if dropped:  # (waited outside the `except`: see tests/server/test_compiled_modules.py)
                await asyncio.sleep(_RETRY)

    async def _read_master(self, cluster_pubsub: ClusterPubSub, cluster: RedisCluster, name: str, ps: PubSub) -> None:
        """One master's shard channels, while `ps` is the PubSub redis-py keeps for that master (when redis-py moves
        the channels elsewhere it closes `ps`, and `moved()` starts a reader for the master they went to)."""
        while cluster_pubsub.node_pubsub_mapping.get(name) is ps:
            node = cluster.get_node(node_name=name)
            dropped = False
            try:
                m = await cluster_pubsub.get_sharded_message(ignore_subscribe_messages=True, timeout=_LOOK,
                                                             target_node=node)  # fmt: skip
                if m is not None and m["type"] == "smessage":
                    self.dispatch(m["channel"], m["data"])
            except asyncio.CancelledError:
                raise
            except Exception:  # (the master away past redis-py's retries; or its subscriptions moved elsewhere)
                dropped = True
            if dropped:
                await asyncio.sleep(_RETRY)

    async def subscribe(self, code: str, listener: Listener) -> None:
        first = code not in self.listeners
        self.listeners.setdefault(code, []).append(listener)
        if not first or self.pubsub is None:
            return
        if self.sharded:
            await self.pubsub.ssubscribe(channel(code))
            self.moved()  # (its master may be one this node had no channel at yet)
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
        if self.pubsub is None:
            return
        if self.sharded:
            await self.pubsub.sunsubscribe(channel(code))
        else:
            await self.pubsub.unsubscribe(channel(code))

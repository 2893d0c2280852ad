"""Routing by key slot for a Redis Cluster: the lean connections of redis_pipe, one set per master.

A key's slot is CRC16 (XMODEM) of its hash tag (the text between the first '{' and the next '}', when not empty)
mod 16384; `CLUSTER SLOTS` says which master owns each slot. A command sent to a master that no longer owns the
slot (a slot moved, a failover) comes back as a MOVED or ASK error: the pipe raises `PipeError`, the map is read
again, and the caller goes through redis-py's cluster client, which follows the redirection itself.
"""

from __future__ import annotations

import asyncio
import binascii
import contextlib
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote, unquote, urlparse

from rajas.server.storage.redis_pipe import Pipe, PipeError, Subscriber

SLOTS = 16384
SCHEME = "redis+cluster"


def key_slot(key: bytes) -> int:
    start = key.find(b"{")
    if start >= 0:
        end = key.find(b"}", start + 1)
        if end > start + 1:
            key = key[start + 1 : end]
    return binascii.crc_hqx(key, 0) % SLOTS


def is_cluster(url: str) -> bool:
    return url.startswith(SCHEME + "://")


class ClusterUrl:
    """`redis+cluster://[user:password@]host:port[,host:port...]`: any masters of the cluster to start from."""

    def __init__(self, url: str) -> None:
        u = urlparse(url)
        if u.scheme != SCHEME:
            raise ValueError(f"a cluster url starts with {SCHEME}://")
        auth, _, hosts = u.netloc.rpartition("@")
        self.username: str | None = None
        self.password: str | None = None
        if auth:
            user, _, password = auth.partition(":")
            self.username = unquote(user) or None
            self.password = unquote(password) if password else None
        self.seeds: list[tuple[str, int]] = []
        for part in hosts.split(","):
            host, _, port = part.strip().rpartition(":")
            if not host or not port.isdigit():
                raise ValueError(f"{url!r}: each cluster node is host:port")
            self.seeds.append((host, int(port)))

    def node_url(self, host: str, port: int) -> str:
        """The plain url of one master, for a lean connection to it."""
        auth = ""
        if self.password is not None:
            auth = (quote(self.username, safe="") if self.username else "") + ":" + quote(self.password, safe="") + "@"
        return f"redis://{auth}{host}:{port}/0"


class SlotMap:
    def __init__(self, url: ClusterUrl) -> None:
        self.url = url
        self.owner: list[tuple[str, int]] = []  # slot -> master
        self._pipe: Pipe | None = None
        self._at: tuple[str, int] | None = None

    async def read(self) -> bool:
        """Reads the slots' masters (over one kept connection, to the first node that answers); True if the map
        changed."""
        last: Exception | None = None
        for address in [*([self._at] if self._at else []), *sorted(set(self.owner)), *self.url.seeds]:
            if self._pipe is None or self._at != address:
                self.close()
                self._pipe, self._at = Pipe(self.url.node_url(*address)), address
            try:
                got = await asyncio.wait_for(self._pipe.call(["CLUSTER", "SLOTS"]), 5)
            except (PipeError, TimeoutError) as e:
                last = e
                self.close()
                continue
            owner = [self.url.seeds[0]] * SLOTS
            for entry in got:
                first, end, master = int(entry[0]), int(entry[1]), entry[2]
                at = (master[0].decode() or address[0], int(master[1]))
                owner[first : end + 1] = [at] * (end + 1 - first)
            changed = owner != self.owner
            self.owner = owner
            return changed
        raise PipeError(f"no cluster node answered CLUSTER SLOTS: {last}")

    def close(self) -> None:
        if self._pipe is not None:
            self._pipe.close()
        self._pipe, self._at = None, None

    def master(self, key: bytes) -> tuple[str, int]:
        return self.owner[key_slot(key)]

    def masters(self) -> list[tuple[str, int]]:
        return sorted(set(self.owner))


class ClusterPipes:
    """`per` pipes to each master, taken in turn; a command goes to the master of its first key's slot."""

    def __init__(self, slots: SlotMap, per: int) -> None:
        self.slots = slots
        self.per = per
        self.pipes: dict[tuple[str, int], list[Pipe]] = {}
        self._turn = 0
        self._rereading: asyncio.Task[bool] | None = None

    async def call(self, key: str, args: Sequence[bytes | str | int | float]) -> Any:
        master = self.slots.master(key.encode())
        pipes = self.pipes.get(master)
        if pipes is None:
            pipes = self.pipes[master] = [Pipe(self.slots.url.node_url(*master)) for _ in range(self.per)]
        self._turn = (self._turn + 1) % self.per
        try:
            return await pipes[self._turn].call(args)
        except PipeError as e:
            if not str(e).startswith("NOSCRIPT"):  # (a moved slot, a master away: the map may have changed)
                self.reread()
            raise

    async def call_many(self, keyed: Sequence[tuple[str, Sequence[bytes | str | int | float]]]) -> list[Any]:
        """Commands (each with its key) grouped by master, one write to each; the answers in the given order."""
        groups: dict[tuple[str, int], list[int]] = {}
        for i, (key, _) in enumerate(keyed):
            groups.setdefault(self.slots.master(key.encode()), []).append(i)
        out: list[Any] = [None] * len(keyed)
        for master, where in groups.items():
            pipes = self.pipes.get(master)
            if pipes is None:
                pipes = self.pipes[master] = [Pipe(self.slots.url.node_url(*master)) for _ in range(self.per)]
            try:
                got = await pipes[0].call_many([keyed[i][1] for i in where])
            except PipeError:
                self.reread()
                raise
            for i, answer in zip(where, got, strict=True):
                out[i] = answer
        return out

    def reread(self) -> None:
        """Reads the slot map again in the background (once at a time)."""
        if self._rereading is None or self._rereading.done():
            self._rereading = asyncio.ensure_future(self.slots.read())
            self._rereading.add_done_callback(lambda t: t.cancelled() or t.exception())

    def close(self) -> None:
        if self._rereading is not None:
            self._rereading.cancel()
        for pipes in self.pipes.values():
            for pipe in pipes:
                pipe.close()
        self.pipes.clear()


class ClusterSubscriber:
    """One shard-channel subscriber per master; each channel subscribed at the master owning its slot. `moved()`
    after the slot map changed moves the channels whose slot changed master."""

    def __init__(self, slots: SlotMap, on_message: Callable[[bytes, bytes], None]) -> None:
        self.slots = slots
        self.on_message = on_message
        self.subs: dict[tuple[str, int], Subscriber] = {}
        self.where: dict[str, tuple[str, int]] = {}
        self.sharded = True

    async def start(self, sharded: bool) -> None:
        """`sharded`: SSUBSCRIBE; else (Redis before 7, where PUBLISH reaches every node) plain SUBSCRIBE."""
        self.sharded = sharded
        for master in self.slots.masters():
            await self._sub(master).start()

    def _sub(self, master: tuple[str, int]) -> Subscriber:
        sub = self.subs.get(master)
        if sub is None:
            sub = self.subs[master] = Subscriber(self.slots.url.node_url(*master), self.on_message, self.sharded)
        return sub

    def subscribe(self, channel: str) -> None:
        master = self.slots.master(channel.encode())
        sub = self._sub(master)
        sub.connect_soon()  # (a master first met now: it connects in the background, then subscribes)
        self.where[channel] = master
        sub.subscribe(channel)

    def unsubscribe(self, channel: str) -> None:
        master = self.where.pop(channel, None)
        if master is not None:
            self._sub(master).unsubscribe(channel)

    def moved(self) -> None:
        for channel, master in list(self.where.items()):
            if self.slots.master(channel.encode()) != master:
                self.unsubscribe(channel)
                self.subscribe(channel)

    def close(self) -> None:
        for sub in self.subs.values():
            with contextlib.suppress(Exception):
                sub.close()
        self.subs.clear()

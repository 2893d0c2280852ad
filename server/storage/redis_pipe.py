"""One pipelined connection to Redis for the commit script, the command every decision makes.

Through redis-py a command takes a pooled connection (a lock and a condition), wraps the call in a retry and a
timeout, encodes its arguments and parses the answer in Python: about half the node's CPU per decision went
there. Here a command is one RESP frame written to a single connection shared by every room, and answers,
parsed by hiredis, settle the waiting futures in order. Anything unusual (no connection, a lost one, an
error answer such as NOSCRIPT after a Redis restart) raises `PipeError`; the caller then goes through
redis-py, which reconnects, reloads scripts and retries, and the pipe reconnects on its next call.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from typing import Protocol as TypingProtocol
from urllib.parse import unquote, urlparse

import hiredis


class PipeError(Exception):
    pass


def encode(args: Sequence[bytes | str | int | float]) -> bytes:
    """A command as RESP: an array of bulk strings."""
    parts = [b"*%d\r\n" % len(args)]
    for a in args:
        b = a if isinstance(a, bytes) else str(a).encode()
        parts.append(b"$%d\r\n" % len(b))
        parts.append(b)
        parts.append(b"\r\n")
    return b"".join(parts)


def _replies(reader: hiredis.Reader, data: bytes) -> Iterator[Any]:
    """The whole answers (or pushed messages) that `data` completes."""
    reader.feed(data)
    while (reply := reader.gets()) is not False:
        yield reply


class _Conn(TypingProtocol):
    def _received(self, data: bytes) -> None: ...
    def _lost(self) -> None: ...


class _Protocol(asyncio.Protocol):
    def __init__(self, pipe: _Conn) -> None:
        self.pipe = pipe

    def data_received(self, data: bytes) -> None:
        self.pipe._received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.pipe._lost()


class _Address:
    def __init__(self, url: str) -> None:
        u = urlparse(url)
        if u.scheme != "redis" or not u.hostname:
            raise ValueError("only redis://host:port/db urls take the lean connections")
        self.host, self.port = u.hostname, u.port or 6379
        self.db = int(u.path.lstrip("/") or 0)
        self.username = unquote(u.username) if u.username else None
        self.password = unquote(u.password) if u.password else None

    def auth(self) -> list[bytes | str | int] | None:
        if self.password is None:
            return None
        return ["AUTH", *([self.username] if self.username else []), self.password]

    async def connect(self, conn: _Conn) -> asyncio.Transport:
        loop = asyncio.get_running_loop()
        try:
            transport, _ = await asyncio.wait_for(
                loop.create_connection(lambda: _Protocol(conn), self.host, self.port), 5
            )
        except (TimeoutError, OSError) as e:
            raise PipeError(f"cannot reach Redis: {e}") from None
        return transport


class Pipe(_Address):
    def __init__(self, url: str) -> None:
        super().__init__(url)
        self._transport: asyncio.Transport | None = None
        self._reader = hiredis.Reader()
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self._connecting: asyncio.Future[None] | None = None

    async def call(self, args: Sequence[bytes | str | int | float]) -> Any:
        if self._transport is None:
            await self._connect()
        assert self._transport is not None
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(fut)
        self._transport.write(encode(args))
        return await fut

    async def call_many(self, commands: Sequence[Sequence[bytes | str | int | float]]) -> list[Any]:
        """Several commands in one write; their answers in order (PipeError if any failed)."""
        if self._transport is None:
            await self._connect()
        assert self._transport is not None
        loop = asyncio.get_running_loop()
        futs: list[asyncio.Future[Any]] = [loop.create_future() for _ in commands]
        self._waiting.extend(futs)
        self._transport.write(b"".join(encode(c) for c in commands))
        return list(await asyncio.gather(*futs))

    async def _connect(self) -> None:
        if self._connecting is None:
            self._connecting = asyncio.ensure_future(self._open())
        connecting = self._connecting
        try:
            await asyncio.shield(connecting)
        finally:
            if connecting.done():
                self._connecting = None

    async def _open(self) -> None:
        transport = await self.connect(self)
        self._reader = hiredis.Reader()
        self._waiting.clear()
        self._transport = transport
        auth = self.auth()
        for command in [auth] if auth else []:
            await self.call(command)
        if self.db:
            await self.call(["SELECT", self.db])

    def _received(self, data: bytes) -> None:
        for reply in _replies(self._reader, data):
            if not self._waiting:  # an answer nobody asked for: the stream is out of step
                self.close()
                return
            fut = self._waiting.popleft()
            if fut.done():
                continue
            if isinstance(reply, hiredis.ReplyError):
                fut.set_exception(PipeError(str(reply)))
            else:
                fut.set_result(reply)

    def _lost(self) -> None:
        self._transport = None
        waiting, self._waiting = self._waiting, deque()
        for fut in waiting:
            if not fut.done():
                fut.set_exception(PipeError("connection to Redis lost"))

    def close(self) -> None:
        transport = self._transport
        if transport is not None:
            with contextlib.suppress(Exception):
                transport.close()
        self._lost()


class Subscriber(_Address):
    """One connection subscribed to the rooms' channels; each message goes to `on_message(channel, data)` as
    soon as hiredis has parsed it (redis-py's reader made a dict and ran its parser and health checks per
    message). A lost connection comes back by itself, with backoff, subscribed again to every channel;
    updates published meanwhile are caught by the hub's heartbeat, which compares room versions.
    `sharded`: shard channels (SSUBSCRIBE, Redis 7), which a Redis Cluster keeps on the master owning the channel's
    slot instead of sending every message to every node."""

    def __init__(self, url: str, on_message: Callable[[bytes, bytes], None], sharded: bool = False) -> None:
        super().__init__(url)
        self._on_message = on_message
        self._sub, self._unsub = (b"SSUBSCRIBE", b"SUNSUBSCRIBE") if sharded else (b"SUBSCRIBE", b"UNSUBSCRIBE")
        self._kind = b"smessage" if sharded else b"message"
        self.channels: set[bytes] = set()
        self._transport: asyncio.Transport | None = None
        self._reader = hiredis.Reader()
        self._again: asyncio.Task[None] | None = None
        self._closed = False

    async def start(self) -> None:
        await self._open()

    async def _open(self) -> None:
        transport = await self.connect(self)
        self._reader = hiredis.Reader()
        self._transport = transport
        auth = self.auth()
        if auth:
            transport.write(encode(auth))
        if self.channels:
            # One command per channel: a cluster refuses SSUBSCRIBE of channels in different slots at once.
            transport.write(b"".join(encode([self._sub, c]) for c in self.channels) if self._sub == b"SSUBSCRIBE"
                            else encode([self._sub, *self.channels]))

    def subscribe(self, channel: str) -> None:
        name = channel.encode()
        if name not in self.channels:
            self.channels.add(name)
            if self._transport is not None:
                self._transport.write(encode([self._sub, name]))

    def unsubscribe(self, channel: str) -> None:
        name = channel.encode()
        if name in self.channels:
            self.channels.discard(name)
            if self._transport is not None:
                self._transport.write(encode([self._unsub, name]))

    def _received(self, data: bytes) -> None:
        for reply in _replies(self._reader, data):
            if type(reply) is list and len(reply) == 3 and reply[0] == self._kind:
                self._on_message(reply[1], reply[2])

    def connect_soon(self) -> None:
        """Connects in the background (then subscribes to every channel) unless connected or connecting."""
        if self._transport is None:
            self._lost()

    def _lost(self) -> None:
        self._transport = None
        if not self._closed and self._again is None:
            self._again = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        delay = 0.05
        try:
            while not self._closed:
                await asyncio.sleep(delay)
                try:
                    await self._open()
                    return
                except PipeError:
                    delay = min(1.0, delay * 2)
        finally:
            self._again = None

    def close(self) -> None:
        self._closed = True
        if self._again is not None:
            self._again.cancel()
        if self._transport is not None:
            with contextlib.suppress(Exception):
                self._transport.close()
            self._transport = None

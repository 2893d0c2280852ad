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
from typing import Any
from urllib.parse import unquote, urlparse

import hiredis


class PipeError(Exception):
    pass


def encode(args: list[bytes | str | int]) -> bytes:
    """A command as RESP: an array of bulk strings."""
    parts = [b"*%d\r\n" % len(args)]
    for a in args:
        b = a if isinstance(a, bytes) else str(a).encode()
        parts.append(b"$%d\r\n" % len(b))
        parts.append(b)
        parts.append(b"\r\n")
    return b"".join(parts)


class _Protocol(asyncio.Protocol):
    def __init__(self, pipe: Pipe) -> None:
        self.pipe = pipe

    def data_received(self, data: bytes) -> None:
        self.pipe._received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.pipe._lost()


class Pipe:
    def __init__(self, url: str) -> None:
        u = urlparse(url)
        if u.scheme != "redis" or not u.hostname:
            raise ValueError("only redis://host:port/db urls take the pipe")
        self.host, self.port = u.hostname, u.port or 6379
        self.db = int(u.path.lstrip("/") or 0)
        self.username = unquote(u.username) if u.username else None
        self.password = unquote(u.password) if u.password else None
        self._transport: asyncio.Transport | None = None
        self._reader = hiredis.Reader()
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self._connecting: asyncio.Future[None] | None = None

    async def call(self, args: list[bytes | str | int]) -> Any:
        if self._transport is None:
            await self._connect()
        assert self._transport is not None
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(fut)
        self._transport.write(encode(args))
        return await fut

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
        loop = asyncio.get_running_loop()
        try:
            transport, _ = await asyncio.wait_for(
                loop.create_connection(lambda: _Protocol(self), self.host, self.port), 5
            )
        except (TimeoutError, OSError) as e:
            raise PipeError(f"cannot reach Redis: {e}") from None
        self._reader = hiredis.Reader()
        self._waiting.clear()
        self._transport = transport  # type: ignore[assignment]
        setup: list[list[bytes | str | int]] = []
        if self.password is not None:
            setup.append(["AUTH", *([self.username] if self.username else []), self.password])
        if self.db:
            setup.append(["SELECT", self.db])
        for command in setup:
            await self.call(command)

    def _received(self, data: bytes) -> None:
        reader = self._reader
        reader.feed(data)
        while True:
            reply = reader.gets()
            if reply is False:
                return
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

"""The commit script's calls, sent to Redis in batches: the calls made in one pass of the event loop leave together
as redis-py pipelines.

One command on its own through redis-py takes a pooled connection, writes it (a system call that wakes Redis) and
holds the connection until its answer is read: measured, about 250 us of a node's CPU per commit, against well under
a hundred in a pipeline. So a call waits for the end of the pass of the event loop it was made in, and the pass's
calls go as pipelines of at most BATCH_BYTES of arguments, each on a pooled connection of its own. Not one pipeline
for all: Redis reads 16 KiB of a connection per pass of its own event loop and (appendfsync always) syncs its
append-only file once per pass, so one long pipeline is read, and synced, two or three commits at a time, while
pipelines on several connections share each fsync. Not many short ones either: each costs the node a pooled
connection and its own write. In a closed loop of 300 rooms' commits of about 5 KiB against `appendfsync always`:
one pipeline per pass, about 300 commits/s; 16 KiB pipelines, 330-560/s at 175-240 us of CPU per commit; 64 KiB,
835-865/s at 115-120 us (redis-py packing the commands in Python; with hiredis packing, redis_client.py, 70-95 us).

An answer NOSCRIPT (Redis restarted and lost its scripts) sends that call again through the script's `AsyncScript`,
which loads it first; any other error is the caller's, as for a command of its own. A lost connection is redis-py's
to retry (the pool's Retry): the whole pipeline is sent again, which is safe, since the script checks the version.
On a Redis Cluster the pipeline is redis-py's cluster pipeline: each master gets its commands, and a command
answered MOVED or ASK is sent again where the answer says.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

BATCH_BYTES = 65536

Arg = bytes | str | int | float
_Call = tuple[Sequence[str], Sequence[Arg], "asyncio.Future[Any]"]


class Batches:
    def __init__(self, redis: aioredis.Redis | RedisCluster, script: AsyncScript, limit: int = BATCH_BYTES) -> None:
        self.redis = redis
        self.script = script
        self.limit = limit
        self._full: list[list[_Call]] = []  # this pass's batches that reached the limit
        self._open: list[_Call] = []
        self._size = 0
        self._due = False  # a flush is scheduled
        self._sending: set[asyncio.Task[None]] = set()

    def __call__(self, keys: Sequence[str], args: Sequence[Arg]) -> asyncio.Future[Any]:
        """The script's answer for `keys` and `args`, once the batch it joins has been answered."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        size = sum(len(a) for a in args if isinstance(a, bytes))
        if self._open and self._size + size > self.limit:
            self._full.append(self._open)
            self._open, self._size = [], 0
        self._open.append((keys, args, fut))
        self._size += size
        if not self._due:
            self._due = True
            loop.call_soon(self._flush)  # (runs after the callbacks of this pass: their calls join the batch)
        return fut

    def _flush(self) -> None:
        batches = [*self._full, self._open] if self._open else self._full
        self._full, self._open, self._size, self._due = [], [], 0, False
        for batch in batches:
            task = asyncio.ensure_future(self._send(batch))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _send(self, batch: list[_Call]) -> None:
        try:
            pipe = self.redis.pipeline(transaction=False)
            for keys, args, _ in batch:
                # (as a plain command: a cluster pipeline refuses `evalsha()`, lest a master lack the script)
                pipe.execute_command("EVALSHA", self.script.sha, len(keys), *keys, *args)
            answers = await pipe.execute(raise_on_error=False)
        except Exception as e:  # (e.g. the connection stayed lost through redis-py's retries)
            for _, _, fut in batch:
                if not fut.done():
                    fut.set_exception(e)
            return
        again: list[_Call] = []
        for call, answer in zip(batch, answers, strict=True):
            fut = call[2]
            if fut.done():  # (its caller was cancelled)
                continue
            if isinstance(answer, NoScriptError):
                again.append(call)
            elif isinstance(answer, Exception):
                fut.set_exception(answer)
            else:
                fut.set_result(answer)
        if again:
            got = await asyncio.gather(*(self.script(keys=k, args=a) for k, a, _ in again), return_exceptions=True)
            for (_, _, fut), answer in zip(again, got, strict=True):
                if fut.done():
                    continue
                if isinstance(answer, BaseException):
                    fut.set_exception(answer)
                else:
                    fut.set_result(answer)

    async def close(self) -> None:
        """Waits for the batches under way."""
        if self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)

"""A connection's incoming messages, handed from the fast transport's protocol straight to the session.

The fast transport (server/transport/fast.py) hands a message to the connection's `Inbox` as soon as it is
read, instead of through uvicorn's queue to the app's task. The inbox handles messages one at a time, in
order. With a store that answers without waiting (the in-process one), a message is handled right there,
with no task switch; when handling has to wait (Redis, or a room's lock held by a bot), a task carries on
and later messages queue behind it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from rajas.server.edge.transport.base import EAGER_TASKS, start

Message = bytes | str
Handler = Callable[[Message], Coroutine[Any, Any, None]]
PAUSE_AT = 32  # messages waiting before the socket stops being read (the client is sending faster than we handle)
EAGER = 8  # messages of one read handled straight away; the rest wait for a task that lets other sockets in


class Inbox:
    def __init__(self, handle: Handler, eager: bool, pause: Callable[[bool], None] | None = None) -> None:
        self._handle = handle
        # May a message be started in the caller: always on 3.12+ (an eager task is a task, asyncio.timeout works
        # in it); on 3.11 only when handling needs no task (no asyncio.timeout inside, e.g. redis-py's).
        self._eager = eager or EAGER_TASKS
        self._pause = pause
        self._paused = False
        self._queue: deque[Message] = deque()
        self._task: asyncio.Task[None] | None = None
        self._run = 0  # messages of the current read handled straight away
        self.closed = False

    def new_read(self) -> None:
        self._run = 0

    def feed(self, message: Message) -> None:
        if self.closed:
            return
        if self._task is not None:
            self._queue.append(message)
            if len(self._queue) >= PAUSE_AT and self._pause is not None and not self._paused:
                self._paused = True
                self._pause(True)
            return
        if not self._eager or self._run >= EAGER:
            # (A read full of costly messages, handled all at once, would hold up every other socket.)
            self._queue.append(message)
            self._task = asyncio.get_running_loop().create_task(self._drain())
            return
        self._run += 1
        rest = start(self._handle(message))
        if rest is not None:
            self._task = asyncio.get_running_loop().create_task(self._finish(rest))

    async def _finish(self, rest: Awaitable[None]) -> None:
        try:
            await rest
        except BaseException:
            self._task = None
            raise
        await self._drain()

    async def _drain(self) -> None:
        try:
            n = 0
            while self._queue and not self.closed:
                await self._handle(self._queue.popleft())
                n += 1
                if n % EAGER == 0:
                    await asyncio.sleep(0)  # other sockets' messages in between
        finally:
            self._task = None
            if self._paused and self._pause is not None:
                self._paused = False
                self._pause(False)

    def stop(self) -> None:
        """No more messages from now on (the connection is being dropped): what is queued is not carried out."""
        self.closed = True
        self._queue.clear()

    async def close(self) -> None:
        """No more messages; waits for the one being handled (so a join finishes before the leave)."""
        self.closed = True
        self._queue.clear()
        task = self._task
        if task is not None:
            await asyncio.wait([task])

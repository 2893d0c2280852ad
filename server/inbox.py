"""A connection's incoming messages, handed from the websocket protocol straight to the session.

uvicorn passes each message through a queue to the app's task: a task switch and a pause and resume of the
socket (two system calls) per message. `DirectProtocol` hands a message to the connection's `Inbox` as soon
as it is parsed. The inbox handles messages one at a time, in order. With a store that answers without
waiting (the in-process one), a message is handled right there, with no task at all; when handling has to
wait (Redis, or a room's lock held by a bot), a task carries on and later messages queue behind it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .connection import resume

Message = bytes | str
Handler = Callable[[Message], Coroutine[Any, Any, None]]
PAUSE_AT = 32  # messages waiting before the socket stops being read (the client is sending faster than we handle)


class Inbox:
    def __init__(self, handle: Handler, eager: bool, pause: Callable[[bool], None] | None = None) -> None:
        self._handle = handle
        self._eager = eager  # may messages be handled outside a task (no asyncio.timeout inside, e.g. redis-py)
        self._pause = pause
        self._paused = False
        self._queue: deque[Message] = deque()
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    def feed(self, message: Message) -> None:
        if self.closed:
            return
        if self._task is not None:
            self._queue.append(message)
            if len(self._queue) >= PAUSE_AT and self._pause is not None and not self._paused:
                self._paused = True
                self._pause(True)
            return
        if not self._eager:
            self._queue.append(message)
            self._task = asyncio.get_running_loop().create_task(self._drain())
            return
        coro = self._handle(message)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return
        self._task = asyncio.get_running_loop().create_task(self._finish(coro, waiting))

    async def _finish(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        try:
            await resume(coro, waiting)
        except BaseException:
            self._task = None
            raise
        await self._drain()

    async def _drain(self) -> None:
        try:
            while self._queue and not self.closed:
                await self._handle(self._queue.popleft())
        finally:
            self._task = None
            if self._paused and self._pause is not None:
                self._paused = False
                self._pause(False)

    async def close(self) -> None:
        """No more messages; waits for the one being handled (so a join finishes before the leave)."""
        self.closed = True
        self._queue.clear()
        task = self._task
        if task is not None:
            await asyncio.wait([task])


class DirectProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol; once the app sets `inbox`, messages go to it instead of the queue."""

    inbox: Inbox | None = None

    def send_receive_event_to_app(self) -> None:
        inbox = self.inbox
        if inbox is None or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.curr_msg_data_type == "text":
            try:
                text = data.decode()
            except UnicodeDecodeError:
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
            inbox.feed(text)
        else:
            inbox.feed(data)

    def pause(self, on: bool) -> None:
        if on:
            self.transport.pause_reading()
        elif not self.transport.is_closing():
            self.transport.resume_reading()

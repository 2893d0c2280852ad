"""The websocket as a connection sees it, whatever the transport: write a whole frame or say it cannot now,
send through the ASGI `send` when it cannot, close. And how a coroutine is started eagerly (run to its first
wait in the caller, a task only if it has to wait): on Python 3.12+ with asyncio's eager tasks, on 3.11 by
stepping it by hand (the one place that sets an asyncio-private flag)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from typing import Any, cast

Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]  # ASGI's (uvicorn's is a coroutine function)


async def _nowhere(message: MutableMapping[str, Any]) -> None:
    return None


class Socket:
    """One websocket. `write` takes whole frames (`ws_frame`) straight to the socket when the transport
    lets it (the fast transport sets `transport` and keeps `paused` and `close_sent` right); otherwise, and
    whenever it says False, the connection goes through the ASGI `send`, which waits for room."""

    def __init__(self, send: Send = _nowhere) -> None:
        self.send = send
        self.transport: Any = None  # (Any: a compiled field typed with asyncio's class would check uvloop's)
        # Fields of a compiled class (a broadcast reads them for every socket), kept by the fast protocol.
        self.paused = False  # the transport's buffer is over its high-water mark
        self.close_sent = False

    def write(self, data: bytes) -> bool:
        """Writes a whole frame, or says False whenever `send` would not simply write: the buffer is full, the
        connection is closing, or this transport does not write frames itself. (Whatever takes the websocket out
        of OPEN also sets `close_sent` or closes the transport in the same call: these checks are all of them.)"""
        transport = self.transport
        if transport is None or self.close_sent or self.paused or transport.is_closing():
            return False
        transport.write(data)
        return True

    def send_bytes(self, data: bytes) -> Coroutine[Any, Any, None]:
        return cast(Coroutine[Any, Any, None], self.send({"type": "websocket.send", "bytes": data}))

    def send_text(self, data: str) -> Coroutine[Any, Any, None]:
        return cast(Coroutine[Any, Any, None], self.send({"type": "websocket.send", "text": data}))

    async def close(self, code: int, reason: str) -> None:
        await self.send({"type": "websocket.close", "code": code, "reason": reason})


EAGER_TASKS = sys.version_info >= (3, 12)


def start(coro: Coroutine[Any, Any, None]) -> Awaitable[None] | None:
    """Runs `coro` in the caller until it first has to wait (without a task switch: a send that finds room,
    a message the store answers at once). None when it finished (its exception, if any, is raised here);
    otherwise an awaitable that carries it on to its end."""
    if EAGER_TASKS:
        task = asyncio.eager_task_factory(asyncio.get_running_loop(), coro)  # type: ignore[attr-defined,unused-ignore]
        if task.done():
            task.result()
            return None
        return task  # type: ignore[no-any-return,unused-ignore]
    try:
        waiting = coro.send(None)
    except StopIteration:
        return None
    return asyncio.get_running_loop().create_task(_resume(coro, waiting))


async def _resume(coro: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Carries on, inside a task, with a coroutine stepped by hand and suspended on `waiting` (what it yielded:
    a future, or None for a bare yield), as the task running it would have (Python 3.11)."""
    while True:
        if waiting is None:
            await asyncio.sleep(0)
        else:
            waiting._asyncio_future_blocking = False  # (what asyncio's Task does with a future it is given)
            await asyncio.wait([waiting])
        try:
            waiting = coro.send(None)
        except StopIteration:
            return

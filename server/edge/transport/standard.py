"""A connection's receive loop on the ASGI websocket interface alone (uvicorn's and Starlette's public API):
the standard transport's whole way in, and under the fast one the way its close (and any frame the fast
protocol hands to uvicorn's queue) arrives."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (connection.py and inbox.py import this package: no import at run time)
    from rajas.server.edge.connection import Conn
    from rajas.server.edge.inbox import Handler
    from starlette.types import Receive


async def receive_loop(receive: Receive, conn: Conn, handle: Handler) -> None:
    """Hands each message to `handle`, one at a time, until the client goes or the connection is dropped.
    A dropped connection (too slow, too many refusals) stops waiting at once: the wait is cancelled, since
    a client that does not read may never let the close handshake finish."""
    task = asyncio.current_task()
    waiting = False

    def dropped() -> None:
        if waiting and task is not None:
            task.cancel()

    if conn.on_drop is None:
        conn.on_drop = dropped
    while not conn.closed:
        waiting = True
        try:
            message: Any = await receive()
        except asyncio.CancelledError:
            if conn.closed and task is not None and task.uncancel() == 0:
                return  # (our own cancel, from `dropped`)
            raise
        finally:
            waiting = False
        if message["type"] == "websocket.disconnect" or conn.closed:
            return  # (nothing received after a close is carried out)
        data = message.get("bytes")
        if data is None:
            data = message.get("text")
        if data is not None:
            await handle(data)

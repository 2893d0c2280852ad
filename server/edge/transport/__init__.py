"""The websocket transport: the only place that names uvicorn's, websockets' or asyncio's internals.

A connection (`Conn`) and its inbox see a `Socket` (base.py): write a whole frame or say it cannot now, send
through ASGI when it cannot, close; and the fast protocol asks the connection to count each control frame
against its rate. Two modes (`rajas serve --transport`, RAJAS_TRANSPORT):

- *standard*: uvicorn's own websockets-sansio and h11 protocols, through the ASGI receive/send interface
  only (standard.py). Works with any uvicorn and websockets release.
- *fast* (the default): the private overrides below (fast.py, http.py). Used only with the uvicorn and
  websockets releases they were read from; with any other, `choose` logs a warning and runs standard.

What each private override buys (docs/benchmarks.md has the measured table), and the limits that need it:

- frames cut and read by `DirectProtocol.data_received` (fast.py): no websockets generator parser and Frame
  per message, and messages reach the inbox without uvicorn's queue, a task switch and a pause/resume of
  reading per message. Needed by: control frames (pings, pongs) counted against RAJAS_RATE, nothing of a closed
  connection read but its close frame (RAJAS_CLOSE_TIMEOUT), a frame dribbled a byte at a time read once.
- whole frames written by `Socket.write` (base.py; fast.py keeps its fields): a broadcast frames a message
  once and writes the same bytes to every socket, with no `send` coroutine per socket.
- the keepalive ping written by `send_keepalive_ping` (fast.py): no websockets general framing per ping.
- `GuardedHttp` (http.py): needed by RAJAS_HANDSHAKE_TIMEOUT (408), RAJAS_MAX_HEAD answered 431 and
  RAJAS_HTTP_CONNS_PER_ADDRESS
  (the standard transport bounds the head by uvicorn's h11 setting, answered 400, and has no deadline).
- `_resume` (base.py, Python 3.11 only): a send or a message handled in the caller without a task switch;
  on 3.12+ asyncio's eager tasks do the same through a public API.

Measured together (fast against standard, `rajas bench`): see the report of issue 15 and docs/benchmarks.md.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rajas.server.edge.transport.base import Send, Socket
from rajas.server.edge.transport.standard import receive_loop

if TYPE_CHECKING:  # (connection.py and inbox.py import this package's base: no import at run time)
    from rajas.server.budget import Ledger
    from rajas.server.config import ServeSettings
    from rajas.server.edge.connection import Conn
    from rajas.server.edge.inbox import Handler
    from starlette.types import Receive

__all__ = ["FAST", "MODES", "STANDARD", "Link", "Socket", "choose", "uvicorn_options"]
FAST, STANDARD = "fast", "standard"
MODES = (FAST, STANDARD)
log = logging.getLogger("rajas.server")
_fast: Any = None  # the fast module, once a server runs it (it imports uvicorn's internals)


def choose(mode: str | None = None) -> str:
    """The transport to run: `mode` (default RAJAS_TRANSPORT, else fast), except that fast falls back to
    standard, with a warning, on a uvicorn or websockets release its overrides were not read from."""
    mode = mode or os.environ.get("RAJAS_TRANSPORT") or FAST
    if mode not in MODES:
        raise ValueError(f"the transport is one of {', '.join(MODES)}, not {mode!r}")
    if mode == STANDARD:
        return mode
    try:
        from rajas.server.edge.transport import fast, http

        gone = fast.missing() + http.missing()
    except (ImportError, AttributeError) as e:
        gone = [repr(e)]
    if gone:
        log.warning(
            "the fast transport does not know this uvicorn/websockets: running the standard one "
            "(pings are not counted against RAJAS_RATE, RAJAS_HANDSHAKE_TIMEOUT is not enforced)",
            extra={"event": "transport_fallback", "missing": gone},
        )
        return STANDARD
    return FAST


def uvicorn_options(
    mode: str, settings: ServeSettings, refused: Callable[..., None] | None, ledger: Ledger | None = None
) -> dict[str, Any]:
    """uvicorn.Config's protocol settings for a transport (from `choose`); `ledger` holds the HTTP connections
    per address (the fast transport's)."""
    global _fast
    if mode == FAST:
        from rajas.server.edge.transport import fast, http

        _fast = fast
        return {"http": http.guarded_http(settings, refused, ledger), "ws": fast.DirectProtocol}
    return {"http": "h11", "ws": "websockets-sansio", "h11_max_incomplete_event_size": settings.max_head}


class Link:
    """An accepted websocket: the `Socket` its connection writes to, and the loop that reads it."""

    def __init__(self, receive: Receive, send: Send) -> None:
        self.receive = receive
        self.proto = _fast.protocol_of(send) if _fast is not None else None
        self.socket: Socket = _fast.socket_of(self.proto, send) if self.proto is not None else Socket(send)

    async def run(self, conn: Conn, handle: Handler, eager: bool) -> None:
        """Hands the connection's messages to `handle` until it ends, then waits for the one being handled."""
        inbox = _fast.attach(self.proto, conn, handle, eager) if self.proto is not None else None
        try:
            await receive_loop(self.receive, conn, handle)
        finally:
            if inbox is not None:
                await inbox.close()

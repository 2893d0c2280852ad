"""`rajas serve`: the app on uvicorn, with the settings the stack measurements chose."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
from collections.abc import Callable
from http import HTTPStatus

import uvicorn
from rajas.protocol import MAX_FRAME
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from . import logs
from .app import create_app
from .config import node_name
from .connection import Limits
from .inbox import DirectProtocol
from .memory_store import MemoryStore
from .metrics import watch_gc
from .redis_store import RedisStore
from .store import RoomStore


def make_store(
    redis_url: str | None, room_ttl: float, node: str | None = None, heartbeat: float = 2.0, node_ttl: float = 6.0
) -> RoomStore:
    if redis_url:
        return RedisStore(redis_url, ttl=room_ttl, node=node, heartbeat=heartbeat, node_ttl=node_ttl)
    return MemoryStore(ttl=room_ttl)


def uvicorn_config(app: object, host: str, port: int, log_level: str = "warning") -> uvicorn.Config:
    """uvicorn for our app; the limits (app.state.limits) and the refusal counter come from the app."""
    state = getattr(app, "state", None)
    limits: Limits = getattr(state, "limits", None) or Limits()
    hub = getattr(state, "hub", None)
    return uvicorn.Config(
        app,  # type: ignore[arg-type]
        host=host,
        port=port,
        loop="uvloop",
        http=guarded_http(limits, hub.metrics.limit_refusals.inc if hub is not None else None),
        ws=DirectProtocol,  # websockets-sansio (cheaper than the legacy one), handing messages straight to the app
        ws_max_size=4 * MAX_FRAME,  # larger frames are cut by the transport; up to this, the app answers
        ws_per_message_deflate=False,  # compression costs CPU and 50 KiB per connection; messages are small
        lifespan="on",
        log_level=log_level,
        log_config=None,  # logs.setup routes uvicorn's loggers to our handler
        access_log=False,
        backlog=4096,  # a reconnect storm after a node dies arrives all at once
        proxy_headers=False,  # forwarded.py believes X-Forwarded-* from RAJAS_FORWARDED_ALLOW_IPS only
    )


def _response(status: int, code: str, message: str) -> bytes:
    body = json.dumps({"ok": False, "code": code, "message": message}).encode()
    phrase = HTTPStatus(status).phrase
    head = f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
    return head.encode() + b"connection: close\r\n\r\n" + body


def guarded_http(limits: Limits, refused: Callable[[str], None] | None) -> type[HttpToolsProtocol]:
    """uvicorn's HTTP protocol with what it lacks: a deadline for each request (head and body, or the
    websocket upgrade request) from its first byte, or from the connection's opening, and a ceiling on a
    request head's bytes. Without them a half-sent request holds its socket for ever, and with enough of
    them the node runs out of file descriptors and real clients are refused."""
    timeout, max_head = limits.handshake_timeout, limits.max_head
    max_read = max_head + limits.max_body  # what a whole request may bring in one read before its head is done
    timed_out = _response(408, "request_timeout", f"a request must arrive whole within {timeout:g} s")
    too_large = _response(431, "too_large", f"a request's line and headers are at most {max_head} bytes")

    class HeadTooLarge(Exception):
        pass

    class GuardedHttp(HttpToolsProtocol):
        _timer: asyncio.TimerHandle | None = None
        _in_head = True  # waiting for a request's head
        _read = 0  # bytes read while waiting for it (a header is only handed over whole: this bounds one)
        _head = 0  # bytes of its line and headers

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._in_head:
                self._read += len(data)
            super().data_received(data)
            if self._in_head and self._read > max_read and not self.transport.is_closing():
                self._refuse("head", too_large)

        def send_400_response(self, msg: str) -> None:
            if self._head > max_head:  # (the parser stopped at our HeadTooLarge)
                self._refuse("head", too_large)
                return
            super().send_400_response(msg)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_url(self, url: bytes) -> None:
            self._grow(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._grow(len(name) + len(value) + 4)
            super().on_header(name, value)

        def _grow(self, n: int) -> None:
            self._head += n
            if self._head > max_head:
                raise HeadTooLarge  # (the parser stops and says so: see send_400_response)

        def on_headers_complete(self) -> None:
            self._in_head = False
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._disarm()
            self._in_head, self._read, self._head = True, 0, 0

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()

        def _arm(self) -> None:
            if self._timer is None:
                self._timer = self.loop.call_later(timeout, self._expired)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _expired(self) -> None:
            self._timer = None
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is not None and cycle.response_started:
                if refused is not None:
                    refused("handshake_timeout")
                self.transport.close()  # (the answer is on its way, the body is not: nothing more to say)
                return
            self._refuse("handshake_timeout", timed_out)

        def _refuse(self, limit: str, response: bytes) -> None:
            self._disarm()
            if refused is not None:
                refused(limit)
            self.transport.write(response)
            self.transport.close()

    return GuardedHttp


def raise_fd_limit() -> int:
    """Each socket is a file descriptor: take the hard limit, so 10,000 clients fit on one node."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def serve(args: argparse.Namespace, limits: Limits) -> None:
    node = args.node or node_name()
    logs.setup(args.log_level, args.log_format, node, args.log_rate)
    raise_fd_limit()
    store = make_store(args.redis, args.room_ttl, node, args.heartbeat, args.node_ttl)
    app = create_app(store, limits, node=node, tick=min(0.5, args.stall / 2), stall=args.stall)
    # A cyclic-GC pass costs 0.5-1 us for every object it looks at (each a cache miss in a heap of thousands
    # of sockets): 100,000 objects are a 50-70 ms pause for everyone in every room. Almost all our garbage is
    # acyclic and freed by reference counting, and the hot path keeps no new container objects alive (bytes
    # are not tracked), so passes are rare: they come from connections being opened. /metrics shows them.
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    gc.callbacks.append(watch_gc(app.state.hub.metrics.gc_pauses))
    config = uvicorn_config(app, args.host, args.port, args.log_level)
    logs.setup(args.log_level, args.log_format, node, args.log_rate)  # again: uvicorn's Config set its own levels
    uvicorn.Server(config).run()

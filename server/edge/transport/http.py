"""The request deadline, the head's size limit and the open HTTP connections per client address, on uvicorn's
httptools protocol: uvicorn has no public setting for any of them. These override methods of `HttpToolsProtocol`
and read its `cycle`, `loop` and `transport` (`BORROWED`; tests/security/test_transport_contract.py checks them).
The standard transport does without: uvicorn's h11 protocol bounds a head by its public
`h11_max_incomplete_event_size`, and neither is a half-sent request timed out nor are connections per address
counted (docs/security.md)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from http import HTTPStatus
from typing import TYPE_CHECKING

from rajas.server.budget import Held, Refusal, Who
from rajas.server.edge.forwarded import Addresses
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

if TYPE_CHECKING:
    from rajas.server.budget import Ledger
    from rajas.server.config import ServeSettings

BORROWED: dict[str, tuple[str, ...]] = {
    "uvicorn HttpToolsProtocol methods": (
        "connection_made", "connection_lost", "data_received", "send_400_response", "on_message_begin", "on_url",
        "on_header", "on_headers_complete", "on_message_complete", "handle_websocket_upgrade",
    ),
    "uvicorn HttpToolsProtocol attributes": ("loop", "transport", "cycle", "parser"),
    "uvicorn RequestResponseCycle attributes": ("response_started",),
}  # fmt: skip


LINGER_SECONDS = 1.0  # how long a refused connection's further bytes are read and dropped before it is closed


def _response(status: int, code: str, message: str) -> bytes:
    body = json.dumps({"ok": False, "code": code, "message": message}).encode()
    phrase = HTTPStatus(status).phrase
    head = f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
    return head.encode() + b"connection: close\r\n\r\n" + body


def guarded_http(
    limits: ServeSettings, refused: Callable[..., None] | None, ledger: Ledger | None = None
) -> type[HttpToolsProtocol]:
    """uvicorn's HTTP protocol with what it lacks: a deadline for each request (head and body, or the
    websocket upgrade request) from its first byte, or from the connection's opening, a ceiling on a
    request head's bytes, and on the connections one client address holds open (the `http_connections` budget
    of `ledger`; a trusted proxy's are its own to limit). Without them a half-sent request holds its socket for
    ever, and with enough of them the node runs out of file descriptors and real clients are refused."""
    timeout, max_head = limits.handshake_timeout, limits.max_head
    max_read = max_head + limits.max_body  # what a whole request may bring in one read before its head is done
    timed_out = _response(408, "request_timeout", f"a request must arrive whole within {timeout:g} s")
    too_large = _response(431, "too_large", f"a request's line and headers are at most {max_head} bytes")
    proxies = Addresses(limits.forwarded_allow_ips)

    class HeadTooLarge(Exception):
        pass

    class GuardedHttp(HttpToolsProtocol):
        _timer: asyncio.TimerHandle | None = None
        _in_head = True  # waiting for a request's head
        _read = 0  # bytes read while waiting for it (a header is only handed over whole: this bounds one)
        _head = 0  # bytes of its line and headers
        _lingering = -1  # bytes read and dropped since a refusal, or -1: not refused
        _held: Held | None = None  # this connection, held in its client address's budget

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()
            peer = transport.get_extra_info("peername")
            host = peer[0] if isinstance(peer, tuple) and peer else None
            if ledger is not None and host not in proxies:
                try:
                    self._held = ledger.hold("http_connections", Who.of(host).keys())
                except Refusal as e:
                    self._refuse("", _response(429, e.code, e.message))

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

        def _release(self) -> None:
            if ledger is not None and self._held is not None:
                ledger.release(self._held)
                self._held = None

        def data_received(self, data: bytes) -> None:
            if self._lingering >= 0:
                self._linger(len(data))
                return
            if self._in_head:
                self._read += len(data)
            super().data_received(data)
            if self._in_head and self._read > max_read and self._lingering < 0 and not self.transport.is_closing():
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
            self._release()  # (a websocket is held in the `connections` budget from here: server/app.py)
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
            if refused is not None and limit:
                refused(limit)
            self.transport.write(response)
            if not self.transport.can_write_eof():
                self.transport.close()
                return
            # Closing with the client's bytes still arriving makes the kernel reset the connection, and the reset
            # can destroy the answer before the client reads it; so say we are done, and drop what still comes
            # for a moment (nginx's lingering close), bounded in bytes and time.
            self.transport.write_eof()
            self._lingering = 0
            self._timer = self.loop.call_later(LINGER_SECONDS, self.transport.close)

        def _linger(self, n: int) -> None:
            self._lingering += n
            if self._lingering > max_read:
                self._disarm()
                self.transport.close()

    return GuardedHttp


def missing() -> list[str]:
    """The methods of BORROWED this uvicorn's httptools protocol no longer defines itself."""
    names = BORROWED["uvicorn HttpToolsProtocol methods"]
    return [f"uvicorn HttpToolsProtocol methods: {n}" for n in names if n not in vars(HttpToolsProtocol)]

"""A lean websocket client for the load generator of `rajas bench` (bench/load.py).

The `websockets` client's work per received frame (its sans-io parser, the message assembler, a task switch
per message) would make a generator reading 7 sockets per room take most of a core from the server it
measures, on the same machine (docs/benchmarks.md). This is a plain
asyncio.Protocol with a minimal RFC 6455 client: one handshake, unmasked server frames parsed straight from
`data_received` (split or coalesced across TCP reads), pings answered with pongs, close answered, and
client frames masked with 4 random bytes per connection (one big-int XOR per frame).

Two modes. Until `lean()` is called the socket behaves like a (tiny) `websockets` connection: `send`,
`close` and `async for frame in ws` (bytes for binary, str for text frames), so the protocol client can run
the setup unchanged. After `lean(handler)` every data frame goes straight to `handler(payload, now)` from
the event loop's callback (no queue, no task), `now` being `time.perf_counter()` at the read that completed
it. Frames that were queued and not yet read are handed to the handler first, with their receive times.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import time
from collections import deque
from collections.abc import Callable
from typing import Any, cast
from urllib.parse import urlsplit

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10
MAX_FRAME = 1 << 24

Handler = Callable[[bytes, float], None]


class WireError(Exception):
    pass


class ConnectionClosedError(ConnectionError):
    pass


def frame_header(opcode: int, n: int) -> bytes:
    """FIN + opcode, the MASK bit and the payload length (the 4 mask bytes follow)."""
    if n < 126:
        return bytes((0x80 | opcode, 0x80 | n))
    if n < 1 << 16:
        return bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
    return bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")


class LeanSocket(asyncio.Protocol):
    """One client websocket. Create with `await open_socket(url)`."""

    def __init__(self, host: str, path: str) -> None:
        self._request_host = host
        self._path = path
        self._key = base64.b64encode(os.urandom(16))
        self.mask = os.urandom(4)
        self._mask_rep = self.mask * 16  # 64 bytes; repeated further for longer payloads
        self._mask_int: dict[int, int] = {}
        self.transport: asyncio.Transport | None = None
        self._open: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._handshaking = True
        self._buf = b""
        self._frag_op = 0
        self._frag: list[bytes] = []
        self.handler: Handler | None = None
        self._queue: deque[tuple[int, bytes, float]] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self.closed = False
        self.close_code: int | None = None
        self.frames = 0  # data frames received
        self.on_close: Callable[[], None] | None = None  # told once when the connection ends (a client reconnects)

    # ---- asyncio.Protocol ---------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport = cast(asyncio.Transport, transport)  # (uvloop's are not subclasses)
        transport.write(
            b"GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nUser-Agent: rajas-bench\r\n\r\n"
            % (self._path.encode(), self._request_host.encode(), self._key)
        )

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        if self._buf:
            data = self._buf + data
            self._buf = b""
        if self._handshaking:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                if len(data) > 65536:
                    self._fail(WireError("handshake response too long"))
                else:
                    self._buf = data
                return
            self._handshake(data[: end + 4])
            if self.closed:
                return
            data = data[end + 4 :]
        n = len(data)
        i = 0
        while n - i >= 2:
            b0 = data[i]
            b1 = data[i + 1]
            length = b1 & 0x7F
            h = i + 2
            if length == 126:
                if n - i < 4:
                    break
                length = int.from_bytes(data[h : h + 2], "big")
                h += 2
            elif length == 127:
                if n - i < 10:
                    break
                length = int.from_bytes(data[h : h + 8], "big")
                h += 8
                if length > MAX_FRAME:
                    self._fail(WireError(f"frame of {length} bytes"))
                    return
            if b1 & 0x80:  # a server must not mask
                self._fail(WireError("masked frame from the server"))
                return
            end = h + length
            if end > n:
                break
            payload = data[h:end]
            i = end
            op = b0 & 0x0F
            if op in (OP_BINARY, OP_TEXT):
                if b0 & 0x80:
                    self._deliver(op, payload, now)
                else:
                    self._frag_op, self._frag = op, [payload]
            elif op == OP_CONT:
                self._frag.append(payload)
                if b0 & 0x80:
                    self._deliver(self._frag_op, b"".join(self._frag), now)
                    self._frag = []
            elif op == OP_PING:
                self._write(OP_PONG, payload)
            elif op == OP_CLOSE:
                self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
                self._write(OP_CLOSE, payload[:2])
                self._closed()
                if self.transport is not None:
                    self.transport.close()
                return
            # OP_PONG and reserved opcodes: ignored
        if i < n:
            self._buf = data[i:]

    def eof_received(self) -> bool | None:
        self._closed()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed(exc)

    # ---- frames -------------------------------------------------------------------------------------------

    def _handshake(self, head: bytes) -> None:
        lines = head.split(b"\r\n")
        status = lines[0].split(None, 2)
        if len(status) < 2 or status[1] != b"101":
            self._fail(WireError(f"handshake refused: {lines[0]!r}"))
            return
        headers = {}
        for line in lines[1:]:
            k, _, v = line.partition(b":")
            headers[k.strip().lower()] = v.strip()
        accept = base64.b64encode(hashlib.sha1(self._key + GUID).digest())
        if headers.get(b"sec-websocket-accept") != accept:
            self._fail(WireError("bad Sec-WebSocket-Accept"))
            return
        self._handshaking = False
        if not self._open.done():
            self._open.set_result(None)

    def _deliver(self, op: int, payload: bytes, now: float) -> None:
        self.frames += 1
        if self.handler is not None:
            self.handler(payload, now)
            return
        self._queue.append((op, payload, now))
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def _masked(self, payload: bytes) -> bytes:
        n = len(payload)
        if n == 0:
            return payload
        m = self._mask_int.get(n)
        if m is None:
            rep = self._mask_rep
            if len(rep) < n:
                rep = self.mask * (n // 4 + 1)
            m = int.from_bytes(rep[:n], "little")
            if len(self._mask_int) < 256:
                self._mask_int[n] = m
        return (int.from_bytes(payload, "little") ^ m).to_bytes(n, "little")

    def _write(self, opcode: int, payload: bytes) -> None:
        t = self.transport
        if t is None or t.is_closing():
            return
        t.write(frame_header(opcode, len(payload)) + self.mask + self._masked(payload))

    def send_now(self, message: bytes | str) -> None:
        """Writes one message frame (binary for bytes, text for str) without waiting."""
        if self.closed:
            raise ConnectionClosedError("connection closed")
        if isinstance(message, str):
            self._write(OP_TEXT, message.encode())
        else:
            self._write(OP_BINARY, message)

    def _closed(self, exc: BaseException | None = None) -> None:
        if self.closed:
            return
        self.closed = True
        if not self._open.done():
            self._open.set_exception(exc or ConnectionClosedError("closed during the handshake"))
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)
        if self.on_close is not None:
            self.on_close()

    def _fail(self, exc: BaseException) -> None:
        self._closed(exc)
        if self.transport is not None:
            self.transport.abort()

    # ---- the websockets-like surface (setup) --------------------------------------------------------------

    async def send(self, message: bytes | str) -> None:
        self.send_now(message)

    async def close(self) -> None:
        if not self.closed:
            self._write(OP_CLOSE, (1000).to_bytes(2, "big"))
            self._closed()
        if self.transport is not None:
            self.transport.close()

    def __aiter__(self) -> LeanSocket:
        return self

    async def __anext__(self) -> bytes | str:
        while not self._queue:
            if self.closed:
                raise StopAsyncIteration
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        op, payload, _ = self._queue.popleft()
        return payload.decode() if op == OP_TEXT else payload

    # ---- lean mode ----------------------------------------------------------------------------------------

    def lean(self, handler: Handler) -> None:
        """From now on data frames (binary or text) go to handler(payload, receive_time) as they arrive; the
        ones already received and not yet read go first."""
        queued = list(self._queue)
        self._queue.clear()
        self.handler = handler
        for _, payload, t in queued:
            handler(payload, t)


async def open_socket(url: str, timeout: float = 30.0) -> LeanSocket:
    """Opens a ws:// websocket (no TLS, no extensions, no subprotocol)."""
    u = urlsplit(url)
    if u.scheme != "ws" or u.hostname is None:
        raise ValueError(f"only ws:// urls: {url}")
    port = u.port or 80
    path = (u.path or "/") + (f"?{u.query}" if u.query else "")
    host = u.netloc
    loop = asyncio.get_running_loop()
    transport, sock = await asyncio.wait_for(
        loop.create_connection(lambda: LeanSocket(host, path), u.hostname, port), timeout
    )
    try:
        await asyncio.wait_for(asyncio.shield(sock._open), timeout)
    except BaseException:
        transport.abort()
        raise
    return sock


async def connect(url: str, **_: Any) -> LeanSocket:
    """`websockets.asyncio.client.connect`'s signature, for the protocol client (options ignored)."""
    return await open_socket(url)

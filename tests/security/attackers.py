"""The attackers of the edge tests: a websocket client and an HTTP client written by hand over a socket, so a test
chooses every byte that reaches the node (half-sent requests, pings by the thousand, frames after a close,
ids no library would send) and can stop reading when it likes."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct
from typing import Any

from rajas.protocol import pack, unpack

from .node import Node

TEXT, BINARY, CLOSE, PING, PONG = 0x1, 0x2, 0x8, 0x9, 0xA


def frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """One client frame (masked, as a client's must be)."""
    first = (0x80 if fin else 0) | opcode
    n = len(payload)
    if n < 126:
        head = bytes((first, 0x80 | n))
    elif n < 0x10000:
        head = struct.pack("!BBH", first, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", first, 0x80 | 127, n)
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def message(obj: Any, binary: bool = True) -> bytes:
    return frame(BINARY, pack(obj)) if binary else frame(TEXT, json.dumps(obj).encode())


class RawWs:
    """A websocket connection to a node, by hand."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.close_code: int | None = None

    @classmethod
    async def open(cls, node: Node, headers: dict[str, str] | None = None, rcvbuf: int | None = None) -> RawWs:
        """Opens /ws; `rcvbuf` shrinks the socket's receive buffer (a client that reads little holds little)."""
        if rcvbuf is None:
            reader, writer = await asyncio.open_connection("127.0.0.1", node.port)
        else:
            import socket

            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            sock.connect(("127.0.0.1", node.port))
            reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 20)
        key = base64.b64encode(os.urandom(16)).decode()
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        writer.write(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{node.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
            ).encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        if not head.startswith(b"HTTP/1.1 101"):
            length = _content_length(head)
            body = await asyncio.wait_for(reader.readexactly(length), 5) if length else b""
            writer.close()
            raise Refused(head, body)
        return cls(reader, writer)

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def recv(self, timeout: float = 5.0) -> tuple[int, bytes] | None:
        """The next frame from the node as (opcode, payload); None once the node closed the connection."""
        try:
            head = await asyncio.wait_for(self.reader.readexactly(2), timeout)
            n = head[1] & 0x7F
            if n == 126:
                n = struct.unpack("!H", await self.reader.readexactly(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", await self.reader.readexactly(8))[0]
            payload = await self.reader.readexactly(n)
        except (asyncio.IncompleteReadError, ConnectionError):
            return None
        opcode = head[0] & 0x0F
        if opcode == CLOSE:
            self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
        return opcode, payload

    async def request(self, obj: dict[str, Any], binary: bool = True, timeout: float = 5.0) -> dict[str, Any]:
        """Sends a message and returns the reply naming its id (other messages on the way are skipped)."""
        await self.send(message(obj, binary))
        return await self.reply(obj.get("id"), timeout)

    async def reply(self, mid: Any, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            got = await self.recv(timeout)
            assert got is not None, "the node closed the connection"
            opcode, payload = got
            if opcode not in (TEXT, BINARY):
                continue
            msg: dict[str, Any] = json.loads(payload) if opcode == TEXT else unpack(payload)
            if msg.get("type") == "reply" and msg.get("id") == mid:
                return msg

    async def replies_until_closed(self, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Every reply until the node closes the connection (the close code is then in `close_code`)."""
        out = []
        while True:
            got = await self.recv(timeout)
            if got is None:
                return out
            opcode, payload = got
            if opcode == CLOSE:
                return out
            if opcode in (TEXT, BINARY):
                msg = json.loads(payload) if opcode == TEXT else unpack(payload)
                if msg.get("type") == "reply":
                    out.append(msg)

    def abort(self) -> None:
        self.writer.transport.abort()


def _content_length(head: bytes) -> int:
    lines = head.split(b"\r\n")
    return next((int(x.split(b":", 1)[1]) for x in lines if x.lower().startswith(b"content-length")), 0)


class Refused(Exception):
    """The node answered the upgrade request with something other than 101."""

    def __init__(self, head: bytes, body: bytes) -> None:
        super().__init__(head.decode("latin-1"))
        self.head, self.body = head, body

    @property
    def status(self) -> int:
        return int(self.head.split(b" ", 2)[1])


async def http(node: Node, request: bytes, timeout: float = 5.0) -> tuple[int, dict[str, Any]]:
    """Sends raw request bytes; returns the status and the JSON body of the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", node.port)
    try:
        writer.write(request)
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        status = int(head.split(b" ", 2)[1])
        length = _content_length(head)
        body = await asyncio.wait_for(reader.readexactly(length), timeout) if length else b""
        try:
            return status, json.loads(body) if body else {}
        except ValueError:
            return status, {"text": body.decode("latin-1")}
    finally:
        writer.close()


async def stream(node: Node, head: bytes, chunks: list[bytes], timeout: float = 10.0) -> tuple[int, dict[str, Any]]:
    """Sends a request head, then its body chunk by chunk while the answer may already be coming (the node
    may answer and close before the body is over: the rest is not sent)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", node.port)
    try:
        writer.write(head)

        async def send_body() -> None:
            for chunk in chunks:
                writer.write(chunk)
                await writer.drain()
                await asyncio.sleep(0.001)

        sending = asyncio.create_task(send_body())
        answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        status = int(answer.split(b" ", 2)[1])
        rest = await asyncio.wait_for(reader.read(65536), timeout)
        sending.cancel()
        await asyncio.gather(sending, return_exceptions=True)
        return status, json.loads(rest)
    finally:
        writer.close()


def post_rooms(node: Node, body: bytes, headers: dict[str, str] | None = None) -> bytes:
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    if "Host" not in (headers or {}):
        extra += f"Host: 127.0.0.1:{node.port}\r\n"
    return (
        f"POST /api/rooms HTTP/1.1\r\n{extra}Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body


async def greeted(node: Node, binary: bool = True, headers: dict[str, str] | None = None) -> RawWs:
    ws = await RawWs.open(node, headers)
    reply = await ws.request({"type": "hello", "id": 0, "protocol": 1}, binary)
    assert reply["ok"], reply
    return ws

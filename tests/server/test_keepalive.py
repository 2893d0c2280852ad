"""Keepalive: the server pings every connection and closes one that stops answering (RFC 6455 5.5.2-5.5.3).

The node writes the pings and reads the pongs itself (server/inbox.py) instead of going through websockets'
framing and parser, so these tests speak the protocol byte by byte, as a browser's socket would.
"""

from __future__ import annotations

import asyncio
import base64
import os
from urllib.parse import urlparse

from rajas.server.storage.memory_store import MemoryStore
from websockets.utils import apply_mask

from .conftest import run_server

PING, PONG, CLOSE = 0x9, 0xA, 0x8
INTERVAL = 0.2  # seconds between pings, and to answer one


async def open_raw(url: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    port = urlparse(url).port
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
    return reader, writer


async def read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    first, second = await asyncio.wait_for(reader.readexactly(2), 5)
    n = second & 0x7F
    if n == 126:
        n = int.from_bytes(await reader.readexactly(2), "big")
    assert not second & 0x80, "a server's frames are not masked"
    return first & 0x0F, await reader.readexactly(n)


def client_frame(opcode: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    return bytes((0x80 | opcode, 0x80 | len(payload))) + mask + apply_mask(payload, mask)


async def test_a_client_that_answers_each_ping_stays_connected_and_is_pinged_again() -> None:
    async with run_server(MemoryStore(), ping=INTERVAL) as server:
        reader, writer = await open_raw(server.url)
        for _ in range(3):  # (the next ping is only planned once the pong for the last one came back)
            opcode, payload = await read_frame(reader)
            assert opcode == PING and len(payload) == 4
            writer.write(client_frame(PONG, payload))
        assert not reader.at_eof()
        writer.close()


async def test_a_client_that_stops_answering_is_closed_with_1011() -> None:
    async with run_server(MemoryStore(), ping=INTERVAL) as server:
        reader, writer = await open_raw(server.url)
        opcode, payload = await read_frame(reader)
        assert opcode == PING
        writer.write(client_frame(PONG, bytes(b ^ 0xFF for b in payload)))  # a pong, but not for this ping
        opcode, payload = await read_frame(reader)
        assert opcode == CLOSE and int.from_bytes(payload[:2], "big") == 1011
        assert await asyncio.wait_for(reader.read(), 5) == b""  # and the server hangs up
        writer.close()

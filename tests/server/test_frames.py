"""The server reads client frames itself (server/inbox.py) and hands the websockets parser every frame it does
not read: whatever way the bytes arrive, each message is read once, in order, and protocol errors still close."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct
from collections.abc import AsyncIterator

import pytest
from rajas.protocol import pack, unpack
from rajas.server.storage.memory_store import MemoryStore

from .conftest import TRANSPORT, Running, run_server


@pytest.fixture
async def server() -> AsyncIterator[Running]:
    async with run_server(MemoryStore()) as running:
        yield running


def client_frame(payload: bytes, opcode: int = 0x2, fin: bool = True, masked: bool = True) -> bytes:
    """A client-to-server frame as RFC 6455 words it: masked, with the shortest length form."""
    first = (0x80 if fin else 0) | opcode
    n = len(payload)
    bit = 0x80 if masked else 0
    if n < 126:
        head = bytes((first, bit | n))
    elif n < 0x10000:
        head = struct.pack("!BBH", first, bit | 126, n)
    else:
        head = struct.pack("!BBQ", first, bit | 127, n)
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class Raw:
    """A websocket client over a bare TCP stream: the test chooses how the bytes are cut."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, url: str) -> Raw:
        host, port = url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101")
        return cls(reader, writer)

    async def send(self, data: bytes, cut: int | None = None) -> None:
        """Writes data, in pieces of `cut` bytes with a pause between them (each its own TCP segment)."""
        if cut is None:
            self.writer.write(data)
            await self.writer.drain()
            return
        for i in range(0, len(data), cut):
            self.writer.write(data[i : i + cut])
            await self.writer.drain()
            await asyncio.sleep(0.005)

    async def frame(self) -> tuple[int, bytes]:
        """The next server frame: (opcode, payload)."""
        first, second = await self.reader.readexactly(2)
        n = second & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", await self.reader.readexactly(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
        return first & 0x0F, await self.reader.readexactly(n)

    async def reply(self) -> dict[str, object]:
        opcode, payload = await asyncio.wait_for(self.frame(), 5)
        message = json.loads(payload) if opcode == 0x1 else unpack(payload)
        assert message["type"] == "reply", message
        return message  # type: ignore[no-any-return]

    def close(self) -> None:
        self.writer.close()


def hello(mid: int | str = 1) -> bytes:
    return pack({"type": "hello", "id": mid, "protocol": 1})


async def test_a_frame_cut_into_single_bytes_is_read_once_whole(server: Running) -> None:
    ws = await Raw.open(server.url)
    await ws.send(client_frame(hello()), cut=1)
    assert (await ws.reply())["ok"] is True
    ws.close()


async def test_frames_sent_together_are_answered_in_order(server: Running) -> None:
    ws = await Raw.open(server.url)
    together = b"".join(client_frame(hello(i)) for i in range(1, 6))
    sixth = client_frame(hello(6))
    await ws.send(together + sixth[:3])  # and the start of one more
    assert [(await ws.reply())["id"] for _ in range(5)] == [1, 2, 3, 4, 5]
    await ws.send(sixth[3:] + client_frame(hello(7)))
    assert [(await ws.reply())["id"] for _ in range(2)] == [6, 7]
    ws.close()


async def test_a_text_frame_with_a_two_byte_length_is_read(server: Running) -> None:
    ws = await Raw.open(server.url)
    text = json.dumps({"type": "hello", "id": "x" * 60, "protocol": 1}, indent=8).encode()
    assert 126 <= len(text) < 0x10000
    await ws.send(client_frame(text, opcode=0x1), cut=50)
    got = await ws.reply()
    assert got["ok"] is True and got["id"] == "x" * 60
    ws.close()


async def test_a_fragmented_message_goes_through_the_websockets_parser(server: Running) -> None:
    ws = await Raw.open(server.url)
    data = hello(9)
    await ws.send(client_frame(data[:4], fin=False) + client_frame(data[4:], opcode=0x0))
    assert (await ws.reply())["id"] == 9
    await ws.send(client_frame(hello(10)))  # and plain frames after it are read as before
    assert (await ws.reply())["id"] == 10
    ws.close()


async def test_a_ping_between_messages_is_answered_with_a_pong(server: Running) -> None:
    ws = await Raw.open(server.url)
    await ws.send(client_frame(hello(1)) + client_frame(b"are you there", opcode=0x9) + client_frame(hello(2)))
    frames = [await asyncio.wait_for(ws.frame(), 5) for _ in range(3)]
    assert (0xA, b"are you there") in frames
    # (the standard transport answers the ping as it reads it, before the app has answered the message before)
    replies = [unpack(payload)["id"] for opcode, payload in frames if opcode == 0x2]
    assert replies == [1, 2]
    ws.close()


async def test_an_unmasked_client_frame_closes_the_connection_with_a_protocol_error(server: Running) -> None:
    ws = await Raw.open(server.url)
    await ws.send(client_frame(hello(), masked=False))
    opcode, payload = await asyncio.wait_for(ws.frame(), 5)
    assert opcode == 0x8 and struct.unpack("!H", payload[:2])[0] == 1002
    ws.close()


async def test_invalid_utf8_in_a_text_frame_closes_the_connection(server: Running) -> None:
    ws = await Raw.open(server.url)
    await ws.send(client_frame(hello()))
    await ws.reply()
    await ws.send(client_frame(b"\xff\xfe", opcode=0x1))
    opcode, payload = await asyncio.wait_for(ws.frame(), 5)
    assert opcode == 0x8 and struct.unpack("!H", payload[:2])[0] == 1007
    ws.close()


async def test_a_close_frame_is_answered_and_ends_the_connection(server: Running) -> None:
    ws = await Raw.open(server.url)
    await ws.send(client_frame(hello()) + client_frame(struct.pack("!H", 1000), opcode=0x8))
    opcode, payload = await asyncio.wait_for(ws.frame(), 5)
    if opcode == 0x2 or TRANSPORT == "fast":  # (the standard transport may close before the app answers)
        assert unpack(payload)["type"] == "reply"
        opcode, payload = await asyncio.wait_for(ws.frame(), 5)
    assert opcode == 0x8 and struct.unpack("!H", payload[:2])[0] == 1000
    assert await asyncio.wait_for(ws.reader.read(), 5) == b""
    ws.close()

"""The test suite's protocol client checks every frame it receives against the server's models: a server that
sends a frame the protocol does not describe fails the test that talked to it, with the frame named."""

from __future__ import annotations

import json

import pytest
from rajas.protocol import client as protocol_client
from rajas.protocol.client import Client, InvalidFrame
from websockets.asyncio.server import ServerConnection, serve


def test_the_suites_clients_check_every_frame() -> None:
    assert protocol_client.CHECK_FRAMES is True  # tests/conftest.py
    assert Client("http://127.0.0.1:1").check is True
    assert Client("http://127.0.0.1:1", check=False).check is False


async def _answer_hello_with(frame: dict[str, object]) -> tuple[Client, list[str]]:
    async def handler(ws: ServerConnection) -> None:
        hello = json.loads(await ws.recv())
        await ws.send(json.dumps(frame | {"id": hello["id"]} if frame["type"] == "reply" else frame))
        await ws.wait_closed()

    found: list[str] = []
    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        client = Client(f"ws://127.0.0.1:{port}/ws", binary=False)
        try:
            await client.connect()
        finally:
            found = list(protocol_client.FAILED_CHECKS)
            protocol_client.FAILED_CHECKS.clear()  # (the failure is this test's subject, not a server's fault)
            await client.close()
    return client, found


async def test_a_frame_outside_the_protocol_fails_the_request_that_waited_for_it() -> None:
    with pytest.raises(InvalidFrame, match="welcome"):
        await _answer_hello_with({"type": "welcome", "protocol": 1, "server": "rajas"})
    assert not protocol_client.FAILED_CHECKS


async def test_a_reply_as_the_protocol_describes_it_passes() -> None:
    client, found = await _answer_hello_with({"type": "reply", "ok": True, "data": {"protocol": 1, "server": "x"}})
    assert found == [] and client.invalid is None

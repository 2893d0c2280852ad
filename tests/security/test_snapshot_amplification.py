"""Attack 3: slow readers amplify. Spectators of a room with a large custom sheet ask for snapshots as fast as the
node lets them and never read. Every snapshot used to be built again with the whole sheet in it, a copy per
request held in each queue: five such connections took a node from 62 MB to 1.4 GB in 10 s, and reading
clients doing the same slowed every other room (p99 2 ms -> 400 ms). Now a room version's snapshot is packed
once and the same bytes go to every asker, and a client that holds the sheet (by digest) gets it left out."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from typing import Any

import httpx
import pytest
from rajas.protocol.client import Client, ServerError

from tests.engine.sheets_made import largest

from .node import Node, Probe, metric, rss_mb

ATTACKERS = 5
SECONDS = 10.0
GROWTH_MB = 50  # what the attack may add to the node's memory (a copy of the sheet per request added hundreds)


def assert_responsive(probe: Probe) -> None:
    """Another room's decisions were answered within 100 ms during the attack: nine in ten of them, and none
    took a second (the tests share a loaded machine: a lone late answer is its scheduler, not the node)."""
    times = sorted(probe.times_ms)
    assert len(times) >= 5, "the probe hardly played during the attack"
    p90 = times[int(len(times) * 0.9) - 1]
    assert p90 < 100 and times[-1] < 1000, f"another room's decisions: p90 {p90:.0f} ms, worst {times[-1]:.0f} ms"


async def big_sheet_room(node: Node) -> tuple[dict[str, Any], int]:
    """A public room on the largest custom sheet the limits allow (every list and string at its longest): the
    room and the sheet file's size in bytes."""
    sheet = largest()
    async with httpx.AsyncClient(base_url=node.url, timeout=10) as http:
        r = await http.post("/api/rooms", json={"seats": 2, "sheet": sheet, "public": True})
    assert r.status_code == 201, r.text
    return r.json(), len(json.dumps(sheet))


def ws_open(port: int) -> socket.socket:
    """A websocket that reads nothing after its handshake (a tiny receive buffer, never emptied)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        got = s.recv(1)
        if not got:
            raise ConnectionError("handshake refused")
        head += got
    assert b" 101 " in head.split(b"\r\n")[0]
    return s


def ws_text(obj: dict[str, Any]) -> bytes:
    payload = json.dumps(obj).encode()
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def never_reading_spectator(port: int, watch: str, seconds: float) -> int:
    """Joins as a spectator and asks for snapshots (about as fast as the node's rate allows) without reading a
    byte, joining again whenever the node drops it as too slow; returns how many it asked for."""
    sent = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        s = ws_open(port)
        try:
            s.sendall(ws_text({"type": "hello", "id": 1, "protocol": 1}))
            s.sendall(ws_text({"type": "join", "id": 2, "room": watch, "role": "spectator"}))
            while time.monotonic() < end:
                s.sendall(ws_text({"type": "snapshot", "id": 3 + sent}))
                sent += 1
                time.sleep(0.009)
        except OSError:  # dropped by the node as too slow: come back
            pass
        finally:
            s.close()
    return sent


@pytest.mark.alone
async def test_never_reading_spectators_asking_for_snapshots_do_not_fill_the_node(node: Node) -> None:
    room, sheet_bytes = await big_sheet_room(node)
    async with Probe(node.url) as probe:
        await probe.decide()
        before = rss_mb(node)
        attack = asyncio.gather(
            *(asyncio.to_thread(never_reading_spectator, node.port, room["watch"], SECONDS) for _ in range(ATTACKERS))
        )
        peak = before
        while not attack.done():
            await probe.decide()
            peak = max(peak, rss_mb(node))
            await asyncio.sleep(0.05)
        asked = sum(await attack)
        await probe.decide()
    assert_responsive(probe)
    # Each request could have been a copy of the sheet: the attack asked for more than the bound holds.
    assert asked * sheet_bytes / 2**20 > GROWTH_MB or sheet_bytes < 20_000
    assert peak - before < GROWTH_MB, f"memory grew {peak - before:.0f} MB under the attack ({before:.0f} MB before)"
    assert metric(node, "rajas_snapshots_shared_total") > 0
    assert rss_mb(node) - before < GROWTH_MB  # and nothing stays behind once they are gone
    # Nothing changed: the attacked room is still in the lobby with nobody seated.
    async with httpx.AsyncClient(base_url=node.url) as http:
        info = (await http.get(f"/api/rooms/{room['watch']}")).json()
    assert info["status"] == "lobby" and info["seats"] == [] and info["v"] == 1


@pytest.mark.alone
async def test_reading_clients_asking_for_snapshots_leave_other_rooms_fast(node: Node) -> None:
    room, _ = await big_sheet_room(node)
    spectators = [await Client(node.url, keep=False).connect() for _ in range(ATTACKERS)]
    try:
        for c in spectators:
            await c.join(room["watch"], role="spectator")
        assert all(c.sheet is not None and c.sheet_digest for c in spectators)
        skipped = metric(node, "rajas_snapshot_sheets_skipped_total")

        async def ask(c: Client, until: float) -> int:
            n = 0
            while time.monotonic() < until:
                try:
                    await c.snapshot()  # says the digest it holds
                    n += 1
                except ServerError as e:  # a snapshot costs 10 messages of the rate (RAJAS_RATE)
                    assert e.code == "rate_limited"
                await asyncio.sleep(0.05)
            return n

        until = time.monotonic() + 4.0
        attack = asyncio.gather(*(ask(c, until) for c in spectators))
        async with Probe(node.url) as probe:
            while not attack.done():
                await probe.decide()
                await asyncio.sleep(0.02)
            asked = sum(await attack)
        assert_responsive(probe)
        assert metric(node, "rajas_snapshot_sheets_skipped_total") - skipped >= asked  # the sheet never resent
        assert all(c.sheet is not None for c in spectators)
    finally:
        await asyncio.gather(*(c.close() for c in spectators))

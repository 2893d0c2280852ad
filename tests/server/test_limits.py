"""Limits: message rate, refusals that keep coming, slow clients, abandoned rooms."""

from __future__ import annotations

import asyncio

import pytest
import websockets.asyncio.client as wsc
from rajas.protocol import pack, unpack
from rajas.protocol.client import ServerError
from rajas.server.config import ServeSettings
from rajas.server.storage.memory_store import MemoryStore

from .conftest import Clients, run_server, seated_room


async def test_rate_limit_then_recovery() -> None:
    async with run_server(MemoryStore(), ServeSettings(rate=5, burst=5)) as server:
        clients = Clients()
        try:
            c = await clients.open(server.url)
            results = await asyncio.gather(*(c.request("ping") for _ in range(10)), return_exceptions=True)
            refused = [r for r in results if isinstance(r, ServerError)]
            assert refused and all(r.code == "rate_limited" for r in refused)
            await asyncio.sleep(0.5)
            assert await c.request("ping")  # not dropped: refused messages changed nothing
        finally:
            await clients.close()


async def test_refusals_that_keep_coming_close_the_connection() -> None:
    async with (
        run_server(MemoryStore(), ServeSettings(strikes=5)) as server,
        wsc.connect(server.url.replace("http", "ws") + "/ws") as ws,
    ):
        for _ in range(20):
            await ws.send(b"\xc1")
        codes = []
        with pytest.raises(Exception):  # noqa: B017  # the server closes: websockets raises ConnectionClosed
            while True:
                codes.append(unpack(await asyncio.wait_for(ws.recv(), 5))["code"])
        assert ws.close_code == 1008
        assert set(codes) == {"malformed_frame"} and len(codes) <= 20


async def test_a_slow_client_is_dropped_not_waited_for() -> None:
    async with run_server(MemoryStore(), ServeSettings(queue=8, rate=1e6, burst=1e6)) as server:
        clients = Clients()
        try:
            _created, (a, b) = await seated_room(clients, server.url, players=2)
            # b stops reading but keeps asking for snapshots (8 KiB each): its socket buffers fill up, then
            # its queue, and the server drops it.
            assert b.ws is not None
            b.ws.transport.pause_reading()
            for i in range(3000):
                try:
                    await b.send_raw(pack({"type": "snapshot", "id": f"s{i}"}))
                except Exception:  # dropped
                    break
                if i % 50 == 0:
                    await asyncio.sleep(0.01)
                    if a.presence is not None and b.seat_id not in a.presence["connected"]:
                        break
            await a.wait_for(lambda c: c.presence is not None and b.seat_id not in c.presence["connected"], 10)
            assert await a.request("ping")  # a was never slowed down
            b.ws.transport.abort()  # (b cannot read the close handshake)
        finally:
            await clients.close()


async def test_abandoned_rooms_expire() -> None:
    store = MemoryStore(ttl=60)
    async with run_server(store) as server:
        clients = Clients()
        try:
            c = await clients.open(server.url)
            created = await c.create_room(seats=2)
            assert store.sweep(now=store.touched[created["code"]] + 30) == []
            assert store.sweep(now=store.touched[created["code"]] + 61) == [created["code"]]
            with pytest.raises(ServerError) as e:
                await c.join(created["code"], name="late")
            assert e.value.code == "room_not_found"
        finally:
            await clients.close()

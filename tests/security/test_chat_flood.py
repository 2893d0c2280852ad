"""Chat floods against a real node (docs/protocol.md, Chat; docs/security.md): many connections in one room send
chat lines as fast as the message rate lets them. Another room's decisions are still answered in time, the node's
memory does not grow with the lines (a room keeps its last 50, in memory and in Redis), and a connection over
RAJAS_CHAT_PER_MINUTE is refused with `chat_rate_limited` until its strikes close it. (Many spectators together
are held to RAJAS_CHAT_SPECTATORS_PER_MINUTE: tests/server/test_chat.py.)"""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from rajas.protocol.client import ServerError

from tests.server.conftest import Clients, seated_room

from .attackers import RawWs, greeted, message
from .node import Node, Probe, metric, rajas_node, rss_mb

FLOODERS = 6
BATCH = 5  # lines each flooder sends at once, ten times a second (300 lines a second into one room)
TEXT = "<script>alert(1)</script>" + "x" * 175  # 200 characters, the most a line may hold


async def _drain(ws: RawWs) -> None:
    """Reads whatever the node sends (every line comes back to every connection) without looking at it."""
    with contextlib.suppress(Exception):
        while await ws.reader.read(1 << 16):
            pass


async def _flood(flooders: list[RawWs], seconds: int, sent: list[int]) -> None:
    for _ in range(seconds * 10):
        for k, ws in enumerate(flooders):
            lines = (message({"type": "chat", "id": 1000 + sent[0] + i, "text": f"{TEXT[:-6]}{k:02}{sent[0] + i:04}"})
                     for i in range(BATCH))  # fmt: skip
            await ws.send(b"".join(lines))
            sent[0] += BATCH
        await asyncio.sleep(0.1)


@pytest.mark.alone
@pytest.mark.parametrize("store", ["memory", "redis"])
async def test_a_chat_flood_keeps_the_node_responsive_and_its_memory_bounded(store: str, redis_url: str) -> None:
    # (the chat's own limits out of the way: the flood goes through)
    env = {"RAJAS_CHAT_PER_MINUTE": "100000000", "RAJAS_CHAT_SPECTATORS_PER_MINUTE": "100000000"}
    with rajas_node(env=env, redis_url=redis_url if store == "redis" else None) as node:
        clients = Clients()
        drains = []
        try:
            created, seated = await seated_room(clients, node.url, players=2)
            for c in seated:  # (the players in the flooded room: this process has no time to check every line)
                c.check = c.keep = False
            flooders = []
            for _ in range(FLOODERS):
                ws = await greeted(node)
                joined = await ws.request({"type": "join", "id": "j", "room": created["watch"], "role": "spectator"})
                assert joined["ok"]
                drains.append(asyncio.ensure_future(_drain(ws)))
                flooders.append(ws)
            sent = [0]
            async with Probe(node.url) as probe:
                await _flood(flooders, 2, sent)  # the room and the node's buffers as they are with a full chat
                before = rss_mb(node)
                flood = asyncio.ensure_future(_flood(flooders, 4, sent))
                while not flood.done():
                    assert await probe.decide() < 1000
                    await asyncio.sleep(0.05)
                await flood
                await asyncio.sleep(0.5)
                grown = rss_mb(node) - before
            dropped = metric(node, "rajas_slow_clients_dropped_total")
            assert metric(node, 'rajas_chat_lines_total{by="spectator"}') == sent[0] == 60 * FLOODERS * BATCH, dropped
            assert grown < 8, f"the node grew {grown:.1f} MB while {40 * FLOODERS * BATCH} more lines were said"
            late = await clients.open(node.url)
            await late.join(created["watch"], role="spectator")
            assert len(late.chat) == 50 and all(line["text"].startswith("<script>") for line in late.chat)
            times = sorted(probe.times_ms)
            # nine in ten of another room's decisions answered within 100 ms while the room is flooded (every one
            # within a second: the machine the tests run on may be busy with other work)
            assert len(times) >= 3 and sum(t < 100 for t in times) >= 0.9 * len(times), times
            assert metric(node, 'rajas_errors_total{code="internal"}') == 0
            assert metric(node, 'rajas_limit_refusals_total{limit="message_rate"}') == 0
        finally:
            for d in drains:
                d.cancel()
            await clients.close()


@pytest.mark.alone
async def test_a_connection_over_the_chat_rate_is_refused_then_closed(node: Node) -> None:
    clients = Clients()
    try:
        created, _ = await seated_room(clients, node.url, players=2)
        attacker = await RawWs.open(node)
        await attacker.request({"type": "hello", "id": 0, "protocol": 1})
        assert (await attacker.request({"type": "join", "id": 1, "room": created["watch"], "role": "spectator"}))["ok"]
        async with Probe(node.url) as probe:
            await attacker.send(b"".join(message({"type": "chat", "id": f"c{i}", "text": TEXT}) for i in range(200)))
            replies = await attacker.replies_until_closed()
            assert await probe.decide() < 100
        assert attacker.close_code == 1008  # RAJAS_STRIKES refused lines
        assert [r["ok"] for r in replies[:5]] == [True] * 5  # RAJAS_CHAT_PER_MINUTE 20: five at once
        assert {r["code"] for r in replies[5:]} == {"chat_rate_limited"}
        assert metric(node, 'rajas_limit_refusals_total{limit="chat_rate"}') == len(replies) - 5
        # the room's players still talk
        other = await clients.open(node.url)
        await other.join(created["watch"], role="spectator")
        await other.say("still here")
        with pytest.raises(ServerError):
            await other.say("x" * 201)
    finally:
        await clients.close()

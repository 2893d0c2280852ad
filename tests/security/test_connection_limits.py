"""Limits per client address and per node, and per connection: rooms created, websockets held, pings sent,
bytes a reader that never reads may make the node hold."""

from __future__ import annotations

import asyncio
import json

import pytest

from .attackers import PING, PONG, RawWs, Refused, frame, greeted, http, message, post_rooms
from .node import Node, Probe, fast_only, metric, rajas_node, rss_mb


async def test_rooms_per_address_per_minute_over_http_and_websocket() -> None:
    with rajas_node(env={"RAJAS_ROOMS_PER_MINUTE": "5"}) as node:
        for _ in range(3):
            status, _ = await http(node, post_rooms(node, b"{}"))
            assert status == 201
        ws = await greeted(node)
        for i in range(2):
            assert (await ws.request({"type": "create_room", "id": f"c{i}"}))["ok"]
        refused = await ws.request({"type": "create_room", "id": "c-over"})
        assert refused["code"] == "too_many_rooms"
        status, body = await http(node, post_rooms(node, b"{}"))
        assert (status, body["code"]) == (429, "too_many_rooms")
        # Another address (as the trusted proxy names it) has a budget of its own.
        status, _ = await http(node, post_rooms(node, b"{}", {"X-Forwarded-For": "198.51.100.4"}))
        assert status == 201
        assert metric(node, 'rajas_limit_refusals_total{limit="rooms_per_address"}') == 2
        ws.abort()


async def test_a_forged_forwarded_address_does_not_escape_the_limit() -> None:
    with rajas_node(env={"RAJAS_ROOMS_PER_MINUTE": "2", "RAJAS_FORWARDED_ALLOW_IPS": "10.9.9.9"}) as node:
        codes = []
        for i in range(4):
            status, _ = await http(node, post_rooms(node, b"{}", {"X-Forwarded-For": f"198.51.100.{i}"}))
            codes.append(status)
        assert codes == [201, 201, 429, 429]


@pytest.mark.alone
async def test_rooms_in_total_per_node() -> None:
    env = {"RAJAS_MAX_ROOMS": "30", "RAJAS_ROOMS_PER_MINUTE": "1000", "RAJAS_ROOMS_PER_ADDRESS": "1000"}
    with rajas_node(env=env) as node:
        async with Probe(node.url) as probe:  # (its room is the first)
            statuses = []
            for i in range(40):
                status, body = await http(node, post_rooms(node, b"{}"))
                statuses.append(status)
                if i % 10 == 0:
                    assert await probe.decide() < 100
        assert statuses.count(201) == 29 and statuses[29:] == [503] * 11
        assert body["code"] == "server_full"
        ws = await greeted(node)
        assert (await ws.request({"type": "create_room", "id": 1}))["code"] == "server_full"
        assert metric(node, 'rajas_limit_refusals_total{limit="rooms_total"}') == 12
        ws.abort()


@pytest.mark.alone
async def test_websocket_connections_per_address() -> None:
    with rajas_node(env={"RAJAS_CONNS_PER_ADDRESS": "40"}) as node:
        async with Probe(node.url) as probe:  # two connections of the 40
            held = [await RawWs.open(node) for _ in range(38)]
            refused = []
            for _ in range(200):
                try:
                    held.append(await RawWs.open(node))
                except Refused as e:
                    refused.append(e)
            assert len(refused) == 200 and {e.status for e in refused} == {429}
            assert {json.loads(e.body)["code"] for e in refused} == {"too_many_connections"}
            assert await probe.decide() < 100
            held.pop().abort()  # one goes: one more may come
            await asyncio.sleep(0.3)
            held.append(await RawWs.open(node))
            # Through a trusted proxy each client address counts on its own.
            other = await RawWs.open(node, {"X-Forwarded-For": "192.0.2.55"})
            assert await probe.decide() < 100
        assert metric(node, 'rajas_limit_refusals_total{limit="connections_per_address"}') == 200
        for ws in [*held, other]:
            ws.abort()


@pytest.mark.alone
@fast_only
async def test_a_ping_flood_is_not_answered_and_closes_the_connection() -> None:
    """Pings count towards the message rate like messages: past the burst they are left unanswered, count as
    refused messages, and the connection is closed (1008) once those keep coming."""
    with rajas_node(env={"RAJAS_RATE": "50", "RAJAS_BURST": "100", "RAJAS_STRIKES": "50"}) as node:
        async with Probe(node.url) as probe:
            ws = await greeted(node)
            await ws.send(b"".join(frame(PING, b"%d" % i) for i in range(5000)))
            pongs = 0
            while True:
                got = await ws.recv(10)
                if got is None or got[0] == 0x8:
                    break
                pongs += got[0] == PONG
            assert ws.close_code == 1008
            assert 90 <= pongs <= 200  # the burst (less the hello), not the 5,000
            assert await probe.decide() < 100
        await asyncio.sleep(0.3)
        assert metric(node, 'rajas_limit_refusals_total{limit="control_rate"}') >= 50
        assert metric(node, 'rajas_limit_refusals_total{limit="strikes"}') == 1


@pytest.mark.alone
async def test_readers_that_never_read_are_dropped_at_the_queues_bytes() -> None:
    """Five spectators ask for snapshots as fast as their rate allows and never read: each one's outgoing queue
    fills to RAJAS_QUEUE_BYTES (behind what the kernel's socket buffers take) and it is dropped (4008); the
    node's memory stays bounded and the room next door plays on."""
    env = {"RAJAS_RATE": "1000", "RAJAS_BURST": "1000", "RAJAS_QUEUE_BYTES": str(1 << 20)}
    with rajas_node(env=env) as node:
        async with Probe(node.url) as probe:
            code = (await http(node, post_rooms(node, b'{"seats": 2}')))[1]["watch"]
            before = rss_mb(node)
            readers = []
            for _ in range(5):
                ws = await RawWs.open(node, rcvbuf=4096)
                await ws.request({"type": "hello", "id": 0, "protocol": 1})
                assert (await ws.request({"type": "join", "id": 1, "room": code, "role": "spectator"}))["ok"]
                readers.append(ws)
            peak, n = before, 0
            for _ in range(300):  # 30 s at most
                for ws in readers:  # (10 snapshots a tick each: the rate allows 100 a second, a snapshot costing 10)
                    ws.writer.write(b"".join(message({"type": "snapshot", "id": f"s{n + i}"}) for i in range(10)))
                n += 10
                await asyncio.sleep(0.1)
                if n % 100 == 0:
                    assert await probe.decide() < 100
                    peak = max(peak, rss_mb(node))
                    if metric(node, 'rajas_limit_refusals_total{limit="queue"}') == 5:
                        break
            assert metric(node, 'rajas_limit_refusals_total{limit="queue"}') == 5
        assert peak < before + 60  # (each 1 MiB of queue, plus socket buffers): not the 1.4 GB of the attack
        for ws in readers:
            ws.abort()


async def test_the_limit_settings_are_flags_of_rajas_serve_too() -> None:
    from rajas.server.cli import build_parser

    args = build_parser().parse_args(
        ["serve", "--max-body", "1000", "--rooms-per-minute", "3", "--conns-per-address", "7", "--queue-bytes", "9",
         "--handshake-timeout", "2.5", "--max-rooms", "11", "--forwarded-allow-ips", "10.0.0.0/8", "--max-head", "99",
         "--strikes", "4", "--log-rate", "5"]
    )  # fmt: skip
    assert (args.max_body, args.rooms_per_minute, args.conns_per_address, args.queue_bytes) == (1000, 3, 7, 9)
    assert (args.handshake_timeout, args.max_rooms, args.forwarded_allow_ips) == (2.5, 11, "10.0.0.0/8")
    assert (args.max_head, args.strikes, args.log_rate) == (99, 4, 5.0)


def test_every_limit_has_a_sample_in_metrics(node: Node) -> None:
    from rajas.server.metrics import LIMITS

    samples = node.metrics()
    for limit in LIMITS:
        assert samples[f'rajas_limit_refusals_total{{limit="{limit}"}}'] == 0

"""The node's HTTP side against attack: bodies past the limit are refused before they are read or parsed,
half-sent requests are timed out, request heads are bounded, links follow a trusted proxy only, and only the
browser client's own files are served."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from .attackers import http, post_rooms, stream
from .node import TRANSPORT, Node, Probe, fast_only, metric, rajas_node, rss_mb

SUN = (Path(__file__).resolve().parents[2] / "games" / "dice_charmers" / "engine" / "sheets" / "sun.json").read_bytes()


async def test_a_body_announced_past_the_limit_is_refused_before_it_is_sent(node: Node) -> None:
    head = (
        f"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {20 << 20}\r\n\r\n"
    )
    status, body = await http(node, head.encode())  # not a byte of the 20 MB sent
    assert (status, body["code"]) == (413, "too_large")
    assert metric(node, 'rajas_limit_refusals_total{limit="body"}') == 1


@pytest.mark.alone
async def test_a_streamed_body_is_counted_while_it_is_read(node: Node) -> None:
    """Chunked (no Content-Length): refused once 64 KB have come, while a 1 MB body keeps coming."""
    chunk = b"x" * 8192
    chunks = [b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(128)]
    head = b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    async with Probe(node.url) as probe:
        before = rss_mb(node)
        attacks = [asyncio.create_task(stream(node, head, chunks)) for _ in range(20)]
        while not all(a.done() for a in attacks):
            assert await probe.decide() < 100
        results = [a.result() for a in attacks]
    assert {(s, b["code"]) for s, b in results} == {(413, "too_large")}
    assert metric(node, 'rajas_limit_refusals_total{limit="body"}') == 20
    assert rss_mb(node) < before + 50  # 20 MB of bodies sent: none of them kept


async def test_a_sheet_within_the_browsers_limit_is_taken(shared_node: Node) -> None:
    settings = json.dumps({"seats": 2, "sheet": json.loads(SUN)}).encode()
    assert len(settings) < 64 * 1024
    status, body = await http(shared_node, post_rooms(shared_node, settings))
    assert status == 201 and body["code"]
    padded = settings[:-1] + b"," + b" " * (64 * 1024) + b"}"  # the same settings, past the limit
    status, body = await http(shared_node, post_rooms(shared_node, padded))
    assert (status, body["code"]) == (413, "too_large")


@pytest.mark.alone
@fast_only
async def test_half_sent_requests_are_timed_out_and_real_clients_still_get_in() -> None:
    """Hundreds of sockets that send half an upgrade request (or half a body) and stop: each is answered 408
    and closed after RAJAS_HANDSHAKE_TIMEOUT, and meanwhile the node keeps serving everyone else."""
    with rajas_node(env={"RAJAS_HANDSHAKE_TIMEOUT": "1"}) as node:
        half_upgrade = b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        half_body = post_rooms(node, b'{"seats": 2, "sheet": "sun"}')[:-10]
        sockets = []
        for i in range(300):
            reader, writer = await asyncio.open_connection("127.0.0.1", node.port)
            writer.write(half_upgrade if i % 3 else half_body if i % 2 else b"")
            sockets.append((reader, writer))
        started = time.monotonic()
        async with Probe(node.url) as probe:
            for _ in range(5):
                assert await probe.decide() < 100
            answers = await asyncio.gather(*(asyncio.wait_for(r.read(), 10) for r, _ in sockets))
        assert time.monotonic() - started < 5
        assert all(a.startswith(b"HTTP/1.1 408") and b'"request_timeout"' in a for a in answers)
        for _, w in sockets:
            w.close()
        assert metric(node, 'rajas_limit_refusals_total{limit="handshake_timeout"}') == 300


async def test_a_request_head_past_its_limit_is_refused(node: Node) -> None:
    head = b"GET /health HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-Pad-%d: %s\r\n" % (i, b"y" * 1000) for i in range(40))
    if TRANSPORT == "standard":  # (uvicorn's h11 protocol refuses a head still incomplete past the limit: 400)
        status, body = await http(node, head)
        assert status == 400
        return
    status, body = await http(node, head + b"\r\n")
    assert (status, body["code"]) == (431, "too_large")
    assert metric(node, 'rajas_limit_refusals_total{limit="head"}') == 1


async def test_the_refusal_of_a_head_arrives_though_the_head_goes_on_arriving(shared_node: Node) -> None:
    if TRANSPORT == "standard":  # (uvicorn's h11 protocol answers 400 and closes at once: docs/security.md)
        return
    head = b"GET /health HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-Pad-%d: %s\r\n" % (i, b"y" * 1000) for i in range(40))
    reader, writer = await asyncio.open_connection("127.0.0.1", shared_node.port)
    try:
        for i in range(0, len(head), 500):  # the head in small writes: the shared_node refuses while more is on its way
            writer.write(head[i : i + 500])
            await writer.drain()
            await asyncio.sleep(0)
        writer.write(b"\r\n")
        await asyncio.sleep(0.2)
        answer = await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()
    assert answer.startswith(b"HTTP/1.1 431") and b'"too_large"' in answer


async def test_links_follow_the_forwarded_headers_of_a_trusted_proxy_only() -> None:
    proxied = {"X-Forwarded-Proto": "https", "Host": "rajas.example.org", "X-Forwarded-For": "203.0.113.7"}
    with rajas_node() as node:  # RAJAS_FORWARDED_ALLOW_IPS defaults to 127.0.0.1: this test is the proxy
        status, body = await http(node, post_rooms(node, b"{}", proxied))
        assert status == 201 and body["link"].startswith("https://rajas.example.org/?room=")
        status, body = await http(node, post_rooms(node, b"{}", {"X-Forwarded-Host": "play.example.org"}))
        assert body["watch_link"].startswith("http://play.example.org/?watch=")
    with rajas_node(env={"RAJAS_FORWARDED_ALLOW_IPS": "10.1.2.3"}) as node:  # loopback is not the proxy now
        status, body = await http(node, post_rooms(node, b"{}", {**proxied, "Host": f"127.0.0.1:{node.port}"}))
        assert status == 201 and body["link"].startswith(f"http://127.0.0.1:{node.port}/?room=")


async def test_only_the_clients_own_files_are_served(shared_node: Node) -> None:
    for path in ("/", "/index.html", "/app.js", "/app.css", "/play/dice_charmers/index.js"):
        status, _ = await http(shared_node, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert status == 200, path
    game = "/play/dice_charmers"
    refused = ("/__init__.py", "/README.md", f"{game}/fixtures/midgame.json", f"{game}/demo.html", f"{game}/demo.js")
    for path in (*refused, f"{game}/fixtures/", f"{game}/__init__.py", f"{game}/game.py", f"{game}/engine/game.py"):
        status, _ = await http(shared_node, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert status == 404, path


@pytest.mark.alone
async def test_the_log_grows_by_at_most_its_rate_whatever_clients_send() -> None:
    """500 garbage requests, each worth a warning: the log takes the burst, counts the rest in /metrics."""
    with rajas_node(env={"RAJAS_LOG_RATE": "5"}) as node:
        lines_before = len(node.log.read_text().splitlines())
        async with Probe(node.url) as probe:
            for i in range(500):
                reader, writer = await asyncio.open_connection("127.0.0.1", node.port)
                writer.write(b"\x16\x03\x01 not http at all\r\n\r\n")
                await reader.read()
                writer.close()
                if i % 100 == 0:
                    assert await probe.decide() < 100
        written = len(node.log.read_text().splitlines()) - lines_before
        assert written <= 50 + 5 * 30  # the burst (10 x the rate), then 5 a second
        assert metric(node, "rajas_log_lines_dropped") >= 500 - written

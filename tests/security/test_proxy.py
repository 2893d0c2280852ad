"""What the shipped nginx config (deploy/nginx.conf) does for a node behind it: links that name the address
players used, no public /metrics, and the per-address limits that stop a flood before it reaches a node."""

from __future__ import annotations

import asyncio
import contextlib
import json
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets.asyncio.client as wsc
from websockets.exceptions import InvalidStatus

from tests.scale.topology import Topology

from .node import Node, get, health_ms, rajas_node


@pytest.fixture(scope="module")
def proxied() -> Iterator[tuple[Topology, Node]]:
    """One node (in-memory rooms) behind nginx running deploy/nginx.conf."""
    with rajas_node() as node, tempfile.TemporaryDirectory(prefix="rajas-proxy-") as tmp:
        top = Topology(Path(tmp), 0)
        top.nodes.append(node)
        top.start_nginx()
        try:
            yield top, node
        finally:
            top.nodes.clear()  # the node is rajas_node's to stop
            top.stop()


def post_room(url: str, body: bytes = b'{"seats": 2}', headers: dict[str, str] | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(
        url + "/api/rooms", data=body, method="POST", headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        raw = e.read()
        with contextlib.suppress(ValueError):
            return e.code, json.loads(raw)
        return e.code, {}


def test_metrics_are_for_the_operator_not_the_public(proxied: tuple[Topology, Node]) -> None:
    top, node = proxied
    with pytest.raises(urllib.error.HTTPError) as e:
        get(top.url + "/metrics")
    assert e.value.code == 404
    assert b"rajas_connections" in get(node.url + "/metrics")  # Prometheus scrapes each node directly


def test_invite_links_name_the_address_the_players_used(proxied: tuple[Topology, Node]) -> None:
    top, _ = proxied
    status, created = post_room(top.url, headers={"Host": "games.example.org:8443"})
    assert status == 201
    assert created["link"] == f"http://games.example.org:8443/?room={created['code']}"
    assert created["watch_link"].startswith("http://games.example.org:8443/?watch=")


def test_14_a_clients_own_forwarded_headers_do_not_pass_nginx(proxied: tuple[Topology, Node]) -> None:
    """Issue 27, row 14: nginx writes X-Forwarded-Host, -For and -Proto itself, so what a client sends under those
    names neither changes its links nor passes it off as another address; /health names nothing to it."""
    top, _ = proxied
    forged = {"Host": "games.example.org", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https",
              "X-Forwarded-For": "127.0.0.1"}  # fmt: skip
    status, created = post_room(top.url, headers=forged)
    assert status == 201 and created["link"].startswith("http://games.example.org/?room=")
    req = urllib.request.Request(top.url + "/health", headers={"X-Forwarded-For": "127.0.0.1"})
    with urllib.request.urlopen(req, timeout=5) as resp:
        health = json.loads(resp.read())
    # (this test's own address is loopback, which may see the details: nginx's X-Forwarded-For names it, not the
    # header the client wrote; a stranger gets only {"ok": true}: tests/security/test_budgets.py)
    assert health["ok"] is True


def test_a_body_larger_than_a_sheet_stops_at_nginx(proxied: tuple[Topology, Node]) -> None:
    top, node = proxied
    status, _ = post_room(top.url, body=b"{" + b" " * (80 * 1024) + b"}")
    assert status == 413
    assert health_ms(node) < 1000


def test_a_flood_of_room_creations_from_one_address_is_cut_to_the_rate(proxied: tuple[Topology, Node]) -> None:
    top, node = proxied
    statuses = [post_room(top.url)[0] for _ in range(60)]
    assert statuses.count(429) >= 20  # 5 a second with a burst of 20
    assert 201 in statuses
    assert health_ms(node) < 1000


async def test_one_address_cannot_hold_more_than_its_share_of_connections(proxied: tuple[Topology, Node]) -> None:
    top, node = proxied
    url = top.url.replace("http", "ws") + "/ws"
    opened: list[wsc.ClientConnection] = []
    refused = 0
    try:
        for _ in range(80):
            try:
                opened.append(await wsc.connect(url, open_timeout=5))
            except InvalidStatus as e:
                assert e.response.status_code == 429
                refused += 1
            await asyncio.sleep(0.11)  # under the handshake rate: only the connection limit refuses
        assert len(opened) == 64 and refused == 16
        assert health_ms(node) < 1000
    finally:
        await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)

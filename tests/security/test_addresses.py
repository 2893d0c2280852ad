"""What budgets count by: an IPv6 client by its /64 and its network by its /56 (an IPv4 one by itself and its /24),
behind a proxy the nearest address the proxy did not vouch for; and the ledger's charges: all or nothing, refused
with the budget's code, counted under its label."""

from __future__ import annotations

from typing import Any

import pytest
from rajas.protocol import ProtocolError
from rajas.server.budget import ADDRESS, NETWORK, NODE, Ledger, Who, address_key, network_key
from rajas.server.config import ServeSettings
from rajas.server.edge.forwarded import Addresses, apply_host
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware


def test_an_ipv6_client_counts_by_its_64_and_its_network_by_its_56() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert network_key("2001:db8:1:2::1") == network_key("2001:db8:1:ff::1") == "2001:db8:1::/56"
    assert network_key("2001:db8:1:100::1") != network_key("2001:db8:1:2::1")
    assert address_key("::ffff:198.51.100.7") == "198.51.100.7" == address_key("198.51.100.7")
    assert network_key("198.51.100.7") == network_key("198.51.100.250") == "198.51.100.0/24"


def scope(peer: str, headers: dict[str, str], kind: str = "http") -> dict[str, Any]:
    return {
        "type": kind,
        "client": (peer, 5555),
        "scheme": "ws" if kind == "websocket" else "http",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }


async def forwarded(s: dict[str, Any], trusted: str) -> dict[str, Any]:
    """The scope as the app sees it behind uvicorn's ProxyHeadersMiddleware and our X-Forwarded-Host."""
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.update(scope)

    apply_host(s, Addresses(trusted))
    await ProxyHeadersMiddleware(app, trusted_hosts=trusted)(s, None, None)  # type: ignore[arg-type]
    return seen


async def test_forwarded_headers_are_believed_from_the_proxy_only() -> None:
    trusted = "127.0.0.1, 10.0.0.0/8"
    s = await forwarded(
        scope("10.1.2.3", {"X-Forwarded-For": "6.6.6.6, 203.0.113.9, 10.0.0.7", "X-Forwarded-Proto": "https"}), trusted
    )
    assert s["client"][0] == "203.0.113.9"  # (6.6.6.6 is what the client wrote; 10.0.0.7 is a proxy of ours)
    assert s["scheme"] == "https"
    ws = await forwarded(
        scope("127.0.0.1", {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "play.example.org"}, "websocket"), trusted
    )
    assert ws["scheme"] == "wss" and (b"host", b"play.example.org") in ws["headers"]
    stranger = await forwarded(
        scope("198.51.100.1", {"X-Forwarded-For": "1.2.3.4", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto":
              "https"}), trusted)  # fmt: skip
    assert stranger["client"][0] == "198.51.100.1" and stranger["scheme"] == "http"
    assert (b"host", b"evil.example") not in stranger["headers"]
    assert "192.0.2.1" in Addresses("*") and "192.0.2.1" not in Addresses("")


def test_a_charge_takes_from_every_principal_or_from_none() -> None:
    refused: list[str] = []
    ledger = Ledger(ServeSettings(rooms_per_minute=2, network_share=3), refused.append)
    a1 = Who.of("198.51.100.1")
    for _ in range(2):
        ledger.charge("room_creations", a1.keys(), now=0)
    with pytest.raises(ProtocolError) as e:
        ledger.charge("room_creations", a1.keys(), now=1)
    assert e.value.code == "too_many_rooms" and refused == ["rooms_per_address"]
    ledger.charge("room_creations", a1.keys(), now=31)  # one room every 30 s comes back
    # The network (a /24) has three addresses' worth (6 a minute, 5 left): its other addresses share that.
    for host, n in (("198.51.100.2", 2), ("198.51.100.3", 2), ("198.51.100.4", 1)):
        for _ in range(n):
            ledger.charge("room_creations", Who.of(host).keys(), now=31)
    with pytest.raises(ProtocolError):
        ledger.charge("room_creations", Who.of("198.51.100.5").keys(), now=31)
    assert refused[-1] == "rooms_per_network"
    ledger.charge("room_creations", Who.of("203.0.113.1").keys(), now=31)  # another network: its own budget


def test_a_hold_is_given_back_once_and_the_nodes_share_refuses_server_full() -> None:
    ledger = Ledger(ServeSettings(rooms_per_address=2, max_rooms=3))
    who = Who.of("2001:db8:1:2::1")
    held = [ledger.hold("rooms", {**who.keys(), NODE: "node"}) for _ in range(2)]
    with pytest.raises(ProtocolError) as e:
        ledger.hold("rooms", {**who.keys(), NODE: "node"})
    assert e.value.code == "too_many_rooms"
    ledger.hold("rooms", {**Who.of("2001:db8:9::1").keys(), NODE: "node"})
    with pytest.raises(ProtocolError) as e:
        ledger.hold("rooms", {**Who.of("2001:db8:8::1").keys(), NODE: "node"})
    assert e.value.code == "server_full"
    ledger.release(held[0])
    ledger.release(held[0])  # (twice: the second gives back nothing)
    assert ledger.count("rooms", ADDRESS, who.address) == 1 and ledger.count("rooms", NETWORK, who.network) == 1
    assert ledger.count("rooms", NODE, "node") == 2

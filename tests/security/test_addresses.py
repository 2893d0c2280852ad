"""What the limits per address count by: an IPv6 client by its /64, and behind a proxy the nearest address the
proxy did not vouch for (anything further left in X-Forwarded-For, the client could have written itself)."""

from __future__ import annotations

from typing import Any

import pytest
from rajas.protocol import ProtocolError
from rajas.server.edge.forwarded import Proxies, apply
from rajas.server.edge.guard import RoomQuota, address_key


def test_an_ipv6_client_counts_by_its_64() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:198.51.100.7") == "198.51.100.7" == address_key("198.51.100.7")


def scope(peer: str, headers: dict[str, str], kind: str = "http") -> dict[str, Any]:
    return {
        "type": kind,
        "client": (peer, 5555),
        "scheme": "ws" if kind == "websocket" else "http",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }


def test_forwarded_headers_are_believed_from_the_proxy_only() -> None:
    proxies = Proxies("127.0.0.1, 10.0.0.0/8")
    s = scope("10.1.2.3", {"X-Forwarded-For": "6.6.6.6, 203.0.113.9, 10.0.0.7", "X-Forwarded-Proto": "https"})
    apply(s, proxies)
    assert s["client"][0] == "203.0.113.9"  # (6.6.6.6 is what the client wrote; 10.0.0.7 is a proxy of ours)
    assert s["scheme"] == "https"
    ws = scope("127.0.0.1", {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "play.example.org"}, "websocket")
    apply(ws, proxies)
    assert ws["scheme"] == "wss" and (b"host", b"play.example.org") in ws["headers"]
    stranger = scope("198.51.100.1", {"X-Forwarded-For": "1.2.3.4", "X-Forwarded-Proto": "https"})
    apply(stranger, proxies)
    assert stranger["client"][0] == "198.51.100.1" and stranger["scheme"] == "http"
    assert "192.0.2.1" in Proxies("*") and "192.0.2.1" not in Proxies("")


def test_the_room_quota_refills_and_the_nodes_total_lasts_a_room_lifetime() -> None:
    quota = RoomQuota(per_minute=2, total=5, window=7200)
    quota.admit("a", now=0)
    quota.admit("a", now=0)
    for now in (1.0, 29.0):
        with pytest.raises(ProtocolError) as e:
            quota.admit("a", now=now)
        assert e.value.code == "too_many_rooms"
    quota.admit("a", now=31)  # one room every 30 s comes back
    quota.admit("b", now=31)
    quota.admit("c", now=31)
    with pytest.raises(ProtocolError) as e:
        quota.admit("d", now=32)
    assert e.value.code == "server_full"
    quota.admit("d", now=7201)  # the first rooms' lifetime is over

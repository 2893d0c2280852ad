"""Behind a reverse proxy: the client's address, scheme and host as the proxy names them, believed only when
the connection comes from a configured proxy address (RAJAS_FORWARDED_ALLOW_IPS). Anyone else could send
X-Forwarded-For to pass for another address and escape the limits per address.

nginx sends `X-Forwarded-For: $proxy_add_x_forwarded_for` (the chain, the peer it saw last),
`X-Forwarded-Proto: $scheme` and `Host: $http_host` (or `X-Forwarded-Host`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import MutableMapping
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Proxies:
    """The addresses forwarded headers are believed from: comma-separated IPs or CIDRs, or `*` (any peer: only
    when the node cannot be reached but through the proxy)."""

    def __init__(self, spec: str) -> None:
        parts = [p.strip() for p in spec.split(",") if p.strip()]
        self.any = "*" in parts
        self.networks: list[Network] = [ipaddress.ip_network(p, strict=False) for p in parts if p != "*"]

    def __contains__(self, host: object) -> bool:
        if self.any:
            return True
        if not isinstance(host, str) or not self.networks:
            return False
        try:
            ip = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        return any(ip in net for net in self.networks)


def _header(headers: list[tuple[bytes, bytes]], name: bytes) -> str | None:
    for key, value in headers:
        if key == name:
            return value.decode("latin-1")
    return None


def apply(scope: MutableMapping[str, Any], proxies: Proxies) -> None:
    """Rewrites an HTTP or websocket scope's client, scheme and Host from a trusted proxy's headers."""
    client = scope.get("client")
    if not client or client[0] not in proxies:
        return
    headers: list[tuple[bytes, bytes]] = scope["headers"]
    chain = _header(headers, b"x-forwarded-for")
    if chain:
        hops = [h.strip() for h in chain.split(",") if h.strip()]
        # The nearest hop not itself a trusted proxy is the client (what lies further left, anyone could write).
        host = next((h for h in reversed(hops) if h not in proxies), hops[0] if hops else None)
        if host:
            scope["client"] = (host, 0)
    proto = (_header(headers, b"x-forwarded-proto") or "").strip().lower()
    if proto in ("http", "https"):
        ws = scope["type"] == "websocket"
        scope["scheme"] = ("wss" if proto == "https" else "ws") if ws else proto
    forwarded_host = _header(headers, b"x-forwarded-host")
    if forwarded_host:
        host_value = forwarded_host.split(",")[0].strip().encode("latin-1")
        scope["headers"] = [(k, v) for k, v in headers if k != b"host"] + [(b"host", host_value)]

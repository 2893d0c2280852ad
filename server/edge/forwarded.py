"""Behind a reverse proxy: which peers are trusted, and the one forwarded header uvicorn does not read.

The client's address and scheme come from uvicorn's `ProxyHeadersMiddleware` (X-Forwarded-For, nearest hop not
itself trusted; X-Forwarded-Proto), believed only from RAJAS_FORWARDED_ALLOW_IPS (app.py applies it). It does not
read X-Forwarded-Host, which an operator's proxy may set instead of passing Host on: `apply_host` does that here,
from a trusted peer only (the shipped nginx overwrites the header, so a client cannot pass its own through).
`Addresses` is also the list of peers that may read /metrics and the details of /health (RAJAS_MONITOR_ALLOW_IPS).
"""

from __future__ import annotations

import ipaddress
from collections.abc import MutableMapping
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Addresses:
    """A list of addresses: comma-separated IPs or CIDRs, or `*` (any peer: only when the node cannot be reached but
    through the proxy)."""

    def __init__(self, spec: str) -> None:
        parts = [p.strip() for p in spec.split(",") if p.strip()]
        self.spec = spec
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
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in net for net in self.networks)


Proxies = Addresses  # (the trusted proxies are a list of addresses like any other)


def apply_host(scope: MutableMapping[str, Any], proxies: Addresses) -> None:
    """A trusted proxy's X-Forwarded-Host becomes the request's Host (the links in replies are built from it)."""
    client = scope.get("client")
    if not client or client[0] not in proxies:
        return
    headers: list[tuple[bytes, bytes]] = scope["headers"]
    for key, value in headers:
        if key == b"x-forwarded-host":
            host = value.split(b",")[0].strip()
            if host:
                scope["headers"] = [(k, v) for k, v in headers if k != b"host"] + [(b"host", host)]
            return

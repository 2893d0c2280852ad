"""Limits per client address and per node: websocket connections per address, rooms created per address per
minute, rooms created by the node. Each refusal is a ProtocolError with its documented code (docs/security.md).

A client address is the peer's IP (or, behind a trusted proxy, the one the proxy names; see forwarded.py). An
IPv6 client holds a whole /64 as a rule, so its address counts by that /64: otherwise it could be anyone 2**64
times over.
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict, deque

from rajas.protocol import ProtocolError

ADDRESSES_KEPT = 100_000  # room-creation budgets remembered; the oldest are forgotten first past this


def address_key(host: str | None) -> str:
    """What limits per address count by: the IPv4 address, or the /64 of an IPv6 one."""
    if not host:
        return "-"
    if ":" not in host:
        return host
    try:
        ip = ipaddress.IPv6Address(host.split("%", 1)[0])
    except ValueError:
        return host[:64]
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))


class Connections:
    """Open websocket connections per client address (an entry lives while its address has one open)."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address
        self.open: dict[str, int] = {}

    def admit(self, key: str) -> None:
        n = self.open.get(key, 0)
        if n >= self.per_address:
            raise ProtocolError("too_many_connections", f"at most {self.per_address} connections per address")
        self.open[key] = n + 1

    def release(self, key: str) -> None:
        n = self.open.get(key, 0) - 1
        if n > 0:
            self.open[key] = n
        else:
            self.open.pop(key, None)


class RoomQuota:
    """Rooms one address may create per minute (a token bucket per address), and rooms this node may create
    per `window` seconds (the room TTL: a room abandoned for that long is gone, so this bounds the rooms
    a node's clients can leave behind)."""

    def __init__(self, per_minute: int, total: int, window: float) -> None:
        self.per_minute = per_minute
        self.total = total
        self.window = window
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # address -> (allowance, when)
        self.created: deque[float] = deque()  # when this node created each room of the window

    def admit(self, key: str, now: float | None = None) -> None:
        """Counts one room for `key`, or raises its refusal (and counts nothing)."""
        now = time.monotonic() if now is None else now
        created = self.created
        while created and created[0] <= now - self.window:
            created.popleft()
        if len(created) >= self.total:
            raise ProtocolError("server_full", "this server holds all the rooms it may; try again later")
        allowance, when = self.buckets.pop(key, (float(self.per_minute), now))
        allowance = min(float(self.per_minute), allowance + (now - when) * self.per_minute / 60.0)
        if allowance < 1:
            self.buckets[key] = (allowance, now)
            raise ProtocolError("too_many_rooms", f"at most {self.per_minute} new rooms a minute from one address")
        self.buckets[key] = (allowance - 1, now)  # (moved to the end: the most recently active)
        while len(self.buckets) > ADDRESSES_KEPT:
            self.buckets.popitem(last=False)
        created.append(now)

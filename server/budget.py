"""The node's budgets: everything a client can make the node spend is charged to the principals that cause it (its
connection, its seat, its room, its client address and that address's network, the node), and refused with the
budget's documented code, counted in /metrics, when any of them has spent its share (docs/security.md, "Budgets").

Two kinds of budget: a *rate* (a token bucket per principal: so many a minute, so many at once) and a *hold* (so
many held at once: connections, rooms, listings; given back with `release`). A charge checks every principal
first and takes from each only when all have enough, so a refused charge costs nothing. What a principal is
called: `Who` (an address and its network, from the client's IP), a connection's or seat's id, a room's code.

The budgets live in this node's memory: with several nodes each node holds its own (the proxy's per-address limits
span nodes, docs/security.md). Tables keyed by principals are bounded: a bucket untouched long enough to be full
again is forgotten (nothing is lost), and past MAX_KEYS the least recently used go first.
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rajas.protocol.errors import ErrorCode, ProtocolError

ADDRESS, NETWORK, NODE, CONNECTION, SEAT, ROOM = "address", "network", "node", "connection", "seat", "room"
MAX_KEYS = 200_000  # rate buckets remembered per node (about 150 bytes each)
MINUTE, DAY = 60.0, 86400.0


def address_key(host: str | None) -> str:
    """What budgets per address count by: the IPv4 address, or the /64 of an IPv6 one (an IPv6 client holds a
    whole /64 as a rule: otherwise it could be anyone 2**64 times over)."""
    return _prefix(host, 32, 64)


def network_key(host: str | None) -> str:
    """The address's network, which gets a few addresses' worth of each budget: an IPv4 /24 or an IPv6 /56 (a
    customer's whole allocation)."""
    return _prefix(host, 24, 56)


def _prefix(host: str | None, v4: int, v6: int) -> str:
    if not host:
        return "-"
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip) if v4 == 32 else str(ipaddress.IPv4Network((int(ip) >> (32 - v4) << (32 - v4), v4)))
    return str(ipaddress.IPv6Network((int(ip) >> (128 - v6) << (128 - v6), v6)))


@dataclass(frozen=True)
class Who:
    """A client as budgets see it: its address (IPv4, or IPv6 /64) and its network (IPv4 /24, IPv6 /56)."""

    address: str
    network: str

    @classmethod
    def of(cls, host: str | None) -> Who:
        return cls(address_key(host), network_key(host))

    def keys(self) -> dict[str, str]:
        return {ADDRESS: self.address, NETWORK: self.network}


NOBODY = Who("-", "-")  # (a charge from the node itself: its own timers, a test's hub)


class Bucket:
    """A token bucket: `rate` a second on average, `burst` at once; starts full."""

    __slots__ = ("allowance", "burst", "last", "rate")

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self.allowance = burst
        self.last = time.monotonic() if now is None else now

    def _refill(self, now: float) -> float:
        allowance = min(self.burst, self.allowance + (now - self.last) * self.rate)
        self.allowance = allowance
        self.last = now
        return allowance

    def has(self, cost: float, now: float) -> bool:
        return self._refill(now) >= cost

    def take(self, cost: float = 1.0, now: float | None = None) -> bool:
        """Takes `cost`, or False (and takes nothing) when the bucket holds less."""
        if self._refill(time.monotonic() if now is None else now) < cost:
            return False
        self.allowance -= cost
        return True

    def full(self, now: float) -> bool:
        return self.allowance + (now - self.last) * self.rate >= self.burst


@dataclass(frozen=True)
class Limit:
    """One principal's share of a budget: `amount` per `window` seconds (a rate, at most `burst` at once) or
    `amount` held at once (a hold: window 0); `label` names its refusals in rajas_limit_refusals_total."""

    amount: float
    label: str
    window: float = 0.0
    burst: float = 0.0
    code: ErrorCode | None = None  # (a code of its own, e.g. server_full for the node; else the budget's)


@dataclass(frozen=True)
class Budget:
    name: str
    code: ErrorCode
    message: str
    limits: Mapping[str, Limit]  # principal -> its share


class Refusal(ProtocolError):
    """A budget's refusal: the ProtocolError the client gets, with the budget and the principal that was out."""

    def __init__(self, budget: str, principal: str, code: ErrorCode, message: str) -> None:
        super().__init__(code, message)
        self.budget = budget
        self.principal = principal


def budgets(s: object) -> dict[str, Budget]:
    """Every budget charged through a Ledger, from the settings `s` (server/config.py ServeSettings)."""
    share = max(1, int(getattr(s, "network_share", 5)))

    def per(amount: float, name: str, window: float = 0.0, burst: float | None = None) -> dict[str, Limit]:
        """An address's and its network's share (the network gets `share` addresses' worth)."""
        b = amount if burst is None else burst
        return {
            ADDRESS: Limit(amount, f"{name}_per_address", window, b),
            NETWORK: Limit(amount * share, f"{name}_per_network", window, b * share),
        }

    def g(name: str) -> float:
        return float(getattr(s, name))

    defs = [
        Budget("http_connections", "too_many_connections", "at most {n} HTTP connections per address",
               per(g("http_conns_per_address"), "http_connections")),
        Budget("connections", "too_many_connections", "at most {n} connections per address",
               per(g("conns_per_address"), "connections")),
        Budget("room_creations", "too_many_rooms", "at most {n} new rooms a minute from one address",
               per(g("rooms_per_minute"), "rooms", MINUTE)),
        Budget("rooms", "too_many_rooms", "at most {n} rooms at once from one address",
               {**per(g("rooms_per_address"), "rooms_held"),
                NODE: Limit(g("max_rooms"), "rooms_total", code="server_full")}),
        Budget("listed", "too_many_listed", "at most {n} public rooms at once from one address",
               per(g("listed_per_address"), "listed")),
        Budget("turn_rooms", "too_many_rooms", "at most {n} turn-based games at once from one address",
               per(g("turn_rooms_per_address"), "turn_rooms")),
        Budget("chat", "chat_rate_limited", "at most {n} chat lines a minute; wait a moment",
               {SEAT: Limit(g("chat_per_minute"), "chat_rate", MINUTE, min(5, max(1, g("chat_per_minute")))),
                CONNECTION: Limit(g("chat_per_minute"), "chat_rate", MINUTE, min(5, max(1, g("chat_per_minute")))),
                ROOM: Limit(g("chat_spectators_per_minute"), "chat_spectators_rate", MINUTE,
                            min(20, max(1, g("chat_spectators_per_minute"))))}),
        Budget("email_changes", "too_many_emails", "at most {n} e-mail addresses a day",
               {SEAT: Limit(g("email_changes_per_day"), "email_changes_per_seat", DAY),
                **per(g("email_changes_per_day"), "email_changes", DAY)}),
        Budget("confirmations", "too_many_emails", "at most {n} confirmation e-mails a day",
               per(g("confirmations_per_day"), "confirmations", DAY)),
        Budget("history_bytes", "rate_limited", "at most {n} bytes of game history a minute; slow down",
               per(g("history_bytes_per_minute"), "history_bytes", MINUTE)),
        Budget("replays", "rate_limited", "at most {n} games replayed a minute; slow down",
               per(g("replays_per_minute"), "replays", MINUTE)),
    ]  # fmt: skip
    return {b.name: b for b in defs}


class Ledger:
    """What each principal has spent of each budget on this node, and the one place that refuses."""

    def __init__(self, settings: object, refused: Callable[[str], None] | None = None) -> None:
        self.budgets = budgets(settings)
        self.refused = refused  # counts each refusal under its label (Metrics.limit_refusals.inc)
        self.buckets: OrderedDict[tuple[str, str, str], Bucket] = OrderedDict()  # (budget, principal, key)
        self.holds: dict[tuple[str, str, str], int] = {}

    def labels(self) -> list[str]:
        """Every label a refusal of these budgets is counted under."""
        return sorted({lim.label for b in self.budgets.values() for lim in b.limits.values()})

    # ---- rates -------------------------------------------------------------------------------------------

    def charge(self, budget: str, keys: Mapping[str, str], cost: float = 1.0, now: float | None = None) -> None:
        """Takes `cost` from the budget of every principal in `keys` (principal -> key), or raises its Refusal
        and takes nothing. Principals the budget has no share for are not charged."""
        now = time.monotonic() if now is None else now
        self._prune(now)  # (before any bucket of this charge is made: a new one is full, and would go too)
        b = self.budgets[budget]
        got: list[Bucket] = []
        for principal, key in keys.items():
            lim = b.limits.get(principal)
            if lim is None or lim.window <= 0:
                continue
            bucket = self._bucket(budget, principal, key, lim, now)
            if not bucket.has(cost, now):
                raise self._refuse(b, principal, lim)
            got.append(bucket)
        for bucket in got:
            bucket.allowance -= cost

    def allows(self, budget: str, keys: Mapping[str, str], cost: float = 1.0) -> bool:
        """Whether `charge` would take `cost` now (nothing is taken, nothing counted)."""
        now = time.monotonic()
        self._prune(now)
        b = self.budgets[budget]
        for principal, key in keys.items():
            lim = b.limits.get(principal)
            if lim is not None and lim.window > 0 and not self._bucket(budget, principal, key, lim, now).has(cost, now):
                return False
        return True

    def _bucket(self, budget: str, principal: str, key: str, lim: Limit, now: float) -> Bucket:
        k = (budget, principal, key)
        bucket = self.buckets.get(k)
        if bucket is None:
            bucket = self.buckets[k] = Bucket(lim.amount / lim.window, lim.burst or lim.amount, now)
        else:
            self.buckets.move_to_end(k)
        return bucket

    def _prune(self, now: float) -> None:
        """Forgets buckets full again (a new one would be the same), oldest first; past MAX_KEYS, the oldest."""
        buckets = self.buckets
        while buckets:
            k, oldest = next(iter(buckets.items()))
            if not oldest.full(now) and len(buckets) <= MAX_KEYS:
                return
            del buckets[k]

    # ---- holds -------------------------------------------------------------------------------------------

    def hold(self, budget: str, keys: Mapping[str, str], force: bool = False) -> Held:
        """Holds one more of the budget for every principal in `keys`, or raises its Refusal and holds nothing
        (`force`: holds it whatever the count, e.g. a thing that already exists being counted again)."""
        b = self.budgets[budget]
        charged = [(p, k, lim) for p, k in keys.items() if (lim := b.limits.get(p)) is not None and lim.window <= 0]
        if not force:
            for principal, key, lim in charged:
                if self.holds.get((budget, principal, key), 0) >= lim.amount:
                    raise self._refuse(b, principal, lim)
        for principal, key, _ in charged:
            k = (budget, principal, key)
            self.holds[k] = self.holds.get(k, 0) + 1
        return Held(budget, tuple((p, k) for p, k, _ in charged))

    def release(self, held: Held | None) -> None:
        """Gives back what `hold` took (once: a released Held is empty)."""
        if held is None:
            return
        for principal, key in held.keys:
            k = (held.budget, principal, key)
            n = self.holds.get(k, 0) - 1
            if n > 0:
                self.holds[k] = n
            else:
                self.holds.pop(k, None)
        held.keys = ()

    def count(self, budget: str, principal: str, key: str) -> int:
        return self.holds.get((budget, principal, key), 0)

    def limit(self, budget: str, principal: str) -> float:
        lim = self.budgets[budget].limits.get(principal)
        return lim.amount if lim is not None else float("inf")

    def _refuse(self, b: Budget, principal: str, lim: Limit) -> Refusal:
        if self.refused is not None:
            self.refused(lim.label)
        n = int(lim.amount) if lim.amount == int(lim.amount) else lim.amount
        if lim.code == "server_full":
            return Refusal(b.name, principal, "server_full", "this server holds all the rooms it may; try again later")
        return Refusal(b.name, principal, lim.code or b.code, b.message.format(n=n))


class Held:
    """What one `Ledger.hold` took, to give back once."""

    __slots__ = ("budget", "keys")

    def __init__(self, budget: str, keys: tuple[tuple[str, str], ...]) -> None:
        self.budget = budget
        self.keys = keys

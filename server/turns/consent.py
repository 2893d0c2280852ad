"""Whose turn e-mails may go where: an address gets turn e-mails only after its owner confirmed it from the link in
a first e-mail (which says who asked, and how to refuse all mail from this server), never after its owner refused
them, and at most RAJAS_MAIL_PER_ADDRESS_DAY a day (a room sends at most RAJAS_MAIL_PER_ROOM_DAY, and an address
gets at most RAJAS_CONFIRMATIONS_PER_DAY confirmation e-mails a day).

What is kept, in the rooms' store (Redis, so every node agrees; else memory):
- the address a seat gave, beside its room (`rajas:{CODE}:mail`, gone with the room), never in the room's record;
- per address, by the SHA-256 of its lower-cased form (no address in clear): confirmed or refused;
- daily counters; and one random secret, made by the first node, that signs the links: a confirmation link says
  which address and until when (seven days), an unsubscribe link which address (it never expires).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from abc import ABC, abstractmethod
from typing import cast

from rajas.server.storage.memory_store import MemoryStore
from rajas.server.storage.redis_keys import PREFIX, room_key
from rajas.server.storage.redis_store import RedisStore
from rajas.server.storage.store import RoomStore

CONFIRMED, REFUSED = "confirmed", "refused"
CONFIRM_DAYS = 7  # a confirmation link works this long
STATE_TTL = 400 * 86400  # an address's confirmation (or refusal) is kept this long after it was last given


def address_id(address: str) -> str:
    """What an address is kept under: not the address itself."""
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()[:32]


def today() -> int:
    return int(time.time() // 86400)


class Consent(ABC):
    """The store's side (memory or Redis); `Links` signs and reads the links."""

    @abstractmethod
    async def set_address(self, code: str, seat_id: str, address: str | None, life: float) -> None:
        """The seat's address (None: forgotten), kept `life` seconds at least (the room's)."""

    @abstractmethod
    async def address(self, code: str, seat_id: str) -> str | None: ...

    @abstractmethod
    async def state(self, aid: str) -> str | None:
        """CONFIRMED, REFUSED, or None (never asked, or not answered)."""

    @abstractmethod
    async def set_state(self, aid: str, state: str) -> None: ...

    @abstractmethod
    async def count(self, kind: str, key: str) -> int:
        """Adds one to today's counter `kind` of `key` and returns it."""

    @abstractmethod
    async def secret(self) -> bytes:
        """The key the links are signed with: the same on every node, made once."""


class MemoryConsent(Consent):
    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.addresses: dict[str, dict[str, str]] = {}  # room -> seat id -> address (rooms the store still has)
        self.states: dict[str, str] = {}
        self.counts: dict[tuple[str, str, int], int] = {}
        self._secret = secrets.token_bytes(32)

    async def set_address(self, code: str, seat_id: str, address: str | None, life: float) -> None:
        self._prune()
        seats = self.addresses.setdefault(code, {})
        if address is None:
            seats.pop(seat_id, None)
        else:
            seats[seat_id] = address

    async def address(self, code: str, seat_id: str) -> str | None:
        if code not in self.store.records:
            self.addresses.pop(code, None)
            return None
        return self.addresses.get(code, {}).get(seat_id)

    async def state(self, aid: str) -> str | None:
        return self.states.get(aid)

    async def set_state(self, aid: str, state: str) -> None:
        self.states[aid] = state

    async def count(self, kind: str, key: str) -> int:
        day = today()
        if len(self.counts) > 10_000:
            self.counts = {k: n for k, n in self.counts.items() if k[2] == day}
        k = (kind, key, day)
        self.counts[k] = self.counts.get(k, 0) + 1
        return self.counts[k]

    async def secret(self) -> bytes:
        return self._secret

    def _prune(self) -> None:
        """Addresses of rooms the store dropped go with them."""
        for code in [c for c in self.addresses if c not in self.store.records]:
            del self.addresses[code]


class RedisConsent(Consent):
    SECRET = f"{PREFIX}mail:secret"

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self._secret: bytes | None = None
        self._lock = asyncio.Lock()

    async def set_address(self, code: str, seat_id: str, address: str | None, life: float) -> None:
        r = self.store.redis
        key = room_key(code, "mail")
        if address is None:
            await r.hdel(key, seat_id)
            return
        await r.hset(key, seat_id, address)
        left = int(await r.pttl(room_key(code, "room")))
        await r.pexpire(key, max(left, int(life * 1000)))

    async def address(self, code: str, seat_id: str) -> str | None:
        got = cast("bytes | None", await self.store.redis.hget(room_key(code, "mail"), seat_id))
        return got.decode() if got is not None else None

    async def state(self, aid: str) -> str | None:
        got = cast("bytes | None", await self.store.redis.get(f"{PREFIX}mail:addr:{aid}"))
        return got.decode() if got is not None else None

    async def set_state(self, aid: str, state: str) -> None:
        await self.store.redis.set(f"{PREFIX}mail:addr:{aid}", state, ex=STATE_TTL)

    async def count(self, kind: str, key: str) -> int:
        k = f"{PREFIX}mail:n:{kind}:{key}:{today()}"
        n = int(await self.store.redis.incr(k))
        if n == 1:
            await self.store.redis.expire(k, 2 * 86400)
        return n

    async def secret(self) -> bytes:
        if self._secret is None:
            async with self._lock:
                r = self.store.redis
                await r.set(self.SECRET, secrets.token_hex(32), nx=True)
                got = cast("bytes | None", await r.get(self.SECRET))
                assert got is not None
                self._secret = got
        return self._secret


def consent_for(store: RoomStore) -> Consent | None:
    if isinstance(store, RedisStore):
        return RedisConsent(store)
    if isinstance(store, MemoryStore):
        return MemoryConsent(store)
    return None


class Links:
    """The signed tokens of the links in e-mails: `confirm` (an address and its expiry) and `unsubscribe`."""

    def __init__(self, consent: Consent) -> None:
        self.consent = consent

    async def _sign(self, text: str) -> str:
        return hmac.new(await self.consent.secret(), text.encode(), hashlib.sha256).hexdigest()[:32]

    async def confirm(self, aid: str) -> str:
        until = int(time.time()) + CONFIRM_DAYS * 86400
        return f"{aid}.{until}.{await self._sign(f'confirm:{aid}:{until}')}"

    async def unsubscribe(self, aid: str) -> str:
        return f"{aid}.{await self._sign(f'unsubscribe:{aid}')}"

    async def read(self, kind: str, token: str) -> str | None:
        """The address id a token of `kind` names, if it is ours and has not expired; else None."""
        parts = token.split(".")
        if kind == "confirm" and len(parts) == 3 and parts[1].isdigit():
            aid, until, mac = parts
            ok = int(until) >= time.time() and hmac.compare_digest(mac, await self._sign(f"confirm:{aid}:{until}"))
            return aid if ok else None
        if kind == "unsubscribe" and len(parts) == 2:
            aid, mac = parts
            return aid if hmac.compare_digest(mac, await self._sign(f"unsubscribe:{aid}")) else None
        return None


"""The in-memory RoomStore: one process, nothing to install. Rooms left alone past the TTL are dropped, and rooms
nobody joined (no connection, no commit) past the shorter unjoined TTL."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time

from rajas.protocol import pack
from rajas.server.frames import Packed, as_bytes
from rajas.server.storage.archive import Archive, HistorySettings, MemoryArchive
from rajas.server.storage.chat_store import MemoryChat
from rajas.server.storage.store import (
    RECENT,
    Consent,
    Listener,
    RoomStore,
    TurnIndex,
    merge_records,
    presence_message,
    today,
)


class MemoryStore(RoomStore):
    eager = True

    def __init__(self, ttl: float = 7200.0, sweep_every: float = 60.0, unjoined_ttl: float | None = None) -> None:
        self.ttl = ttl
        self.unjoined_ttl = ttl if unjoined_ttl is None else min(ttl, unjoined_ttl)
        self.unjoined: set[str] = set()  # rooms nobody has joined yet: they live unjoined_ttl
        self.sweep_every = sweep_every
        self.turns: TurnIndex = MemoryTurns(self)
        self.consent: Consent = MemoryConsent(self)
        self.records: dict[str, tuple[int, Packed]] = {}  # the changing part (or all) of each room's record
        self.fixed: dict[str, bytes] = {}  # the fixed part, for a record kept in two parts
        self.logs: dict[str, list[Packed]] = {}
        self.recents: dict[str, list[Packed]] = {}
        self.watch: dict[str, str] = {}
        self.watch_of: dict[str, str] = {}
        self.counts: dict[str, dict[str, int]] = {}
        self.touched: dict[str, float] = {}
        self.keep: dict[str, float] = {}  # rooms kept longer than the TTL (turn-based games in play): seconds
        self.public: dict[str, bytes] = {}  # the lobby index: public rooms in the lobby -> their line, oldest first
        self.listeners: dict[str, list[Listener]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.chat = MemoryChat(self.records, self._publish)

    async def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper

    async def _sweep_forever(self) -> None:
        while True:
            # (often enough that a room nobody joined goes within its unjoined TTL and a sweep's share of it)
            await asyncio.sleep(max(0.05, min(self.sweep_every, self.unjoined_ttl / 2)))
            self.sweep(time.time())

    def sweep(self, now: float) -> list[str]:
        """Drops abandoned rooms: untouched for the TTL and nobody connected."""
        gone = [
            code
            for code, t in self.touched.items()
            if now - t > (self.unjoined_ttl if code in self.unjoined else self.keep.get(code, self.ttl))
            and not any(self.counts.get(code, {}).values())
        ]
        for code in gone:
            self._forget(code)
        # A room nobody has changed for a while keeps its record as bytes, not as the objects of its last
        # Room (ten times the memory, and every one of them walked by each full GC pass).
        for code, (v, record) in self.records.items():
            if not isinstance(record, bytes) and now - self.touched.get(code, now) > self.sweep_every:
                self.records[code] = (v, record.data)
        return gone

    def _forget(self, code: str) -> None:
        self.records.pop(code, None)
        self.fixed.pop(code, None)
        self.logs.pop(code, None)
        self.recents.pop(code, None)
        self.counts.pop(code, None)
        self.touched.pop(code, None)
        self.keep.pop(code, None)
        self.public.pop(code, None)
        self.unjoined.discard(code)
        self.chat.forget(code)
        watch = self.watch_of.pop(code, None)
        if watch is not None:
            self.watch.pop(watch, None)

    async def drop(self, code: str) -> None:
        self._forget(code)

    async def trim_log(self, code: str, first: int) -> None:
        log = self.logs.get(code)
        if log is not None:
            del log[:first]

    async def create(
        self,
        code: str,
        watch: str,
        record: bytes,
        public: bool,
        fixed: bytes = b"",
        listing: bytes | None = None,
    ) -> bool:
        if code in self.records or watch in self.watch:
            return False
        self.records[code] = (1, record)
        if fixed:
            self.fixed[code] = fixed
        self.logs[code] = []
        self.watch[watch] = code
        self.watch_of[code] = watch
        self.touched[code] = time.time()
        self.unjoined.add(code)
        if public:
            self.public[code] = listing if listing is not None else pack({"code": code})
        return True

    async def load(self, code: str) -> bytes | None:
        got = self.records.get(code)
        if got is None:
            return None
        fixed = self.fixed.get(code)
        return as_bytes(got[1]) if fixed is None else merge_records(fixed, as_bytes(got[1]))

    async def version(self, code: str) -> int | None:
        got = self.records.get(code)
        return got[0] if got else None

    async def resolve(self, code: str) -> tuple[str, bool] | None:
        if code in self.records:
            return code, False
        room = self.watch.get(code)
        return (room, True) if room is not None and room in self.records else None

    async def commit(
        self,
        code: str,
        expected: int,
        record: Packed,
        log_entry: Packed | None,
        message: Packed,
        recent: Packed | None = None,
        fixed: bytes = b"",
        fixed_changed: bool = True,
        listing: bytes | None = None,
    ) -> bool:
        got = self.records.get(code)
        if got is None or got[0] != expected:
            return False
        self.records[code] = (expected + 1, record)
        if not fixed:
            self.fixed.pop(code, None)
        elif fixed_changed or code not in self.fixed:
            self.fixed[code] = fixed
        if listing is not None:
            if listing:
                self.public[code] = listing
            else:
                self.public.pop(code, None)
        if log_entry is not None:
            self.logs[code].append(log_entry)
        if recent is not None:
            last = self.recents.setdefault(code, [])
            last.append(recent)
            del last[:-RECENT]
        self.touched[code] = time.time()
        self.unjoined.discard(code)
        self._publish(code, message)
        return True

    async def log(self, code: str) -> list[bytes]:
        return [as_bytes(e) for e in self.logs.get(code, [])]

    async def recent(self, code: str) -> list[bytes]:
        return [as_bytes(e) for e in self.recents.get(code, [])]

    async def presence(self, code: str, key: str, delta: int) -> dict[str, int]:
        counts = self.counts.setdefault(code, {})
        n = counts.get(key, 0) + delta
        if n > 0:
            counts[key] = n
        else:
            counts.pop(key, None)
        self.touched[code] = time.time()
        if delta > 0:
            self.unjoined.discard(code)
        snapshot = dict(counts)
        self._publish(code, pack(presence_message(snapshot)))
        return snapshot

    def _publish(self, code: str, message: Packed) -> None:
        for listener in list(self.listeners.get(code, ())):
            listener(message)

    async def subscribe(self, code: str, listener: Listener) -> None:
        self.listeners.setdefault(code, []).append(listener)

    async def unsubscribe(self, code: str, listener: Listener) -> None:
        got = self.listeners.get(code)
        if got and listener in got:
            got.remove(listener)
            if not got:
                del self.listeners[code]

    async def set_public(self, code: str, public: bool) -> None:
        if not public:  # (a room becomes listed through its commit, which brings its line)
            self.public.pop(code, None)

    async def public_rooms(self) -> list[str]:
        return [code for code in self.public if code in self.records]

    async def listed(self, limit: int) -> list[bytes]:
        out: list[bytes] = []
        for line in reversed(self.public.values()):  # newest first (swept rooms leave with their record)
            if len(out) >= limit:
                break
            out.append(line)
        return out

    def archive(self, settings: HistorySettings) -> Archive:
        return MemoryArchive(settings)


class MemoryTurns(TurnIndex):
    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.at: dict[str, float] = {}
        self.acts: dict[str, float] = {}  # (one per room in play; forgotten when its game stops)

    async def schedule(self, code: str, at: float | None) -> None:
        if at is None:
            self.at.pop(code, None)
        else:
            self.at[code] = at

    async def due(self, now: float, limit: int) -> list[str]:
        return [c for c, t in sorted(self.at.items(), key=lambda x: x[1]) if t <= now][:limit]

    async def keep(self, code: str, seconds: float | None) -> None:
        if seconds is None:
            self.store.keep.pop(code, None)
        else:
            self.store.keep[code] = seconds

    async def acted(self, code: str, at: float) -> None:
        self.acts[code] = at
        if len(self.acts) > 2 * len(self.store.records) + 100:  # (rooms the store dropped go too)
            self.acts = {c: t for c, t in self.acts.items() if c in self.store.records}

    async def last_acted(self, code: str) -> float | None:
        return self.acts.get(code)

    async def forget_acted(self, code: str) -> None:
        self.acts.pop(code, None)


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

"""The RoomStore interface: where rooms live and how their changes reach every node.

A store keeps each room's record (msgpack bytes) at a version, the game's decision log, a presence
count per seat, and a channel per room. `commit` is the one way to change a room: it checks the
version, writes the record, appends to the log, and only then publishes the update, all at once.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any

from rajas.protocol import pack, unpack
from rajas.server.frames import Packed
from rajas.server.storage.archive import Archive, HistorySettings
from rajas.server.storage.chat_store import ChatStore

Listener = Callable[[Packed], None]  # (a store in this process may hand over an update not packed yet)
ASK = "~turns"  # a presence key nothing is ever added to: adding 0 to it reads a room's counts
SPECTATORS = "~spectators"  # presence key counting spectators (seat ids are hex, so never clash)


def connected_seats(counts: Mapping[str, int]) -> list[str]:
    """The seat ids with a socket open, from a room's presence counts."""
    return [k for k, n in counts.items() if n > 0 and k != SPECTATORS]
RECENT = 50  # the last updates' {v, time, events} kept per room for snapshots (a reloaded page's game log)


class TurnIndex(ABC):
    """Where turn-based rooms wait: rooms in play by the time something is next due to them (a reminder or a
    deadline), which every node reads, so a turn's timer outlives the node that armed it."""

    @abstractmethod
    async def schedule(self, code: str, at: float | None) -> None:
        """Something is due to room `code` at unix time `at` (None: nothing; out of the index)."""

    @abstractmethod
    async def due(self, now: float, limit: int) -> list[str]:
        """Up to `limit` rooms with something due by `now`, the most overdue first."""

    @abstractmethod
    async def keep(self, code: str, seconds: float | None) -> None:
        """The room and its parts live `seconds` from now (None: the store's TTL again, from now)."""

    @abstractmethod
    async def acted(self, code: str, at: float) -> None:
        """A person acted in the room's game at unix time `at` (a game nobody acts in stops: server/turns/)."""

    @abstractmethod
    async def last_acted(self, code: str) -> float | None: ...

    @abstractmethod
    async def forget_acted(self, code: str) -> None: ...



class Consent(ABC):
    """What turn e-mails keep (server/turns/consent.py): the address a seat gave, beside its room (never in its
    record); per address, by a hash of it, whether its owner confirmed or refused; daily counters; and the secret
    the links are signed with, the same on every node."""

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



def today() -> int:
    """The day's number (UTC), for daily counters."""
    return int(time.time() // 86400)


STATE_TTL = 400 * 86400  # an address's confirmation (or refusal) is kept this long after it was last given


class RoomStore(ABC):
    # True when no call ever waits (an in-process store): messages may then be handled outside a task.
    eager = False
    # Called when the store lost its connection to a shared backend and got it back (a Redis restart).
    on_reconnect: Callable[[], None] | None = None
    chat: ChatStore  # the rooms' chat, kept apart from their records (server/storage/chat_store.py)
    turns: TurnIndex  # the turn-based rooms' due times
    consent: Consent  # turn e-mails' addresses and their owners' consent

    @abstractmethod
    def archive(self, settings: HistorySettings) -> Archive:
        """Where this store keeps finished games (server/history/)."""

    @abstractmethod
    async def start(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def create(
        self,
        code: str,
        watch: str,
        record: bytes,
        public: bool,
        fixed: bytes = b"",
        listing: bytes | None = None,
    ) -> bool:
        """Stores a new room at version 1; False if the code is taken. With `fixed`, `record` is the changing
        part of the record and `fixed` the rest (kept apart: see `commit`); without, `record` is all of it.
        `listing` is the room's line in the lobby index (`listed`), for a public room in the lobby."""

    @abstractmethod
    async def load(self, code: str) -> bytes | None:
        """The room's whole record (its fixed part and its changing part as one map)."""

    @abstractmethod
    async def version(self, code: str) -> int | None:
        """The room's version in the store (None: no such room): one small read, to tell whether a copy is stale."""

    @abstractmethod
    async def resolve(self, code: str) -> tuple[str, bool] | None:
        """An invite code or spectator code -> (room code, came through the spectator code)."""

    @abstractmethod
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
        """Writes version expected+1 if the room is still at `expected`, then publishes `message`; `recent`
        (the update's {v, time, events}) joins the room's last RECENT updates. Record, entry, message and recent
        may be `Lazy`: a store that keeps them in memory packs them only when they are read (its listeners get
        `message` as it is).
        `fixed` (the record's fixed part, with the custom sheet) is written only when `fixed_changed`: a
        decision rewrites the changing part alone. (Empty `fixed`: `record` is the whole record.)
        `listing`: None leaves the lobby index as it is; b"" takes the room out; else its new line.
        False (and nothing written or published) if another writer got there first."""

    @abstractmethod
    async def recent(self, code: str) -> list[bytes]:
        """The room's last RECENT updates' `recent` entries, oldest first."""

    @abstractmethod
    async def log(self, code: str) -> list[bytes]: ...

    @abstractmethod
    async def trim_log(self, code: str, first: int) -> None:
        """Forgets the room's game log entries before index `first` (those of games already archived)."""

    @abstractmethod
    async def drop(self, code: str) -> None:
        """Deletes the room now (an idle lobby given up near the node's room cap; server/room_budget.py)."""

    @abstractmethod
    async def presence(self, code: str, key: str, delta: int) -> dict[str, int]:
        """Adds delta to the open connections of a seat (or SPECTATORS), publishes and returns all counts."""

    async def refresh(self, here: dict[str, dict[str, int]]) -> dict[str, int]:
        """Periodic self-healing for many nodes: restates this node's own presence counts per room
        (`here`: room -> key -> open connections on this node), drops the counts of nodes that stopped
        sending heartbeats, and returns each room's stored version so the caller can notice a lost
        update. A single process has nothing to heal: its counts are always right."""
        return {}

    @abstractmethod
    async def subscribe(self, code: str, listener: Listener) -> None: ...

    @abstractmethod
    async def unsubscribe(self, code: str, listener: Listener) -> None: ...

    @abstractmethod
    async def public_rooms(self) -> list[str]: ...

    @abstractmethod
    async def listed(self, limit: int) -> list[bytes]:
        """Up to `limit` lines of the lobby index (public rooms in the lobby), newest room first: read from the
        index kept by `create` and `commit`, never by loading rooms."""

    @abstractmethod
    async def set_public(self, code: str, public: bool) -> None:
        """Lists the room in (or takes it out of) `public_rooms` after its settings changed."""


def merge_records(fixed: bytes, changing: bytes) -> bytes:
    """A room's whole record from its two parts, kept apart so that a decision rewrites the changing one only."""
    return pack(unpack(fixed) | unpack(changing))


def presence_message(counts: dict[str, int]) -> dict[str, Any]:
    """What a store publishes when presence changes; the hub turns it into the wire `presence`."""
    return {"type": "_presence", "counts": counts}

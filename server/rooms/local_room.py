"""This node's side of one room: its cached copy, its lock, its connections and its presence counts, and the
state of its timers and bot (kept here so that the modules that run them and the one that forgets a room
nobody is in any more see the same record)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from rajas.games.dice_charmers.engine.bots import Bot
from rajas.server.edge.connection import Conn, Frame
from rajas.server.rooms.encoding import Packed, StateEncoder
from rajas.server.rooms.frozen import EMPTY
from rajas.server.rooms.room import Room, Turn


class RoomLock:
    """This node's changes to a room, one at a time, in the order they came: what asyncio.Lock does, in
    compiled code (asyncio's lock is Python, and every decision takes and releases it)."""

    def __init__(self) -> None:
        self.held = False
        self._waiters: deque[asyncio.Future[None]] = deque()

    async def __aenter__(self) -> None:
        if not self.held:
            self.held = True
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter  # the releaser hands the lock over: `held` stays set
        except asyncio.CancelledError:
            if not waiter.cancelled():  # handed over just as this task was cancelled: pass it on
                self.release()
            elif waiter in self._waiters:  # (`release` would skip it; it need not stay until then)
                self._waiters.remove(waiter)
            raise

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():  # (one cancelled an instant ago leaves by itself)
                waiter.set_result(None)
                return
        self.held = False


class LocalRoom:
    def __init__(self, code: str) -> None:
        self.code = code
        self.room: Room | None = None
        self.newest = 0  # newest version seen on the channel
        self.lock = RoomLock()
        self.conns: set[Conn] = set()
        self.counts: Mapping[str, int] = EMPTY  # presence: read-only, replaced when it changes
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.bots: dict[tuple[str, int], Bot] = {}  # (game seed, seat) -> its bot
        self.driving = False
        self.listener: Callable[[Packed], None] | None = None
        self.last = time.monotonic()  # when this node last saw the room change (commit or channel)
        self.encoder = StateEncoder()
        # The update being committed: packed, its head, and what makes its JSON text.
        self.mine: tuple[Packed, dict[str, Any], Callable[[], str]] | None = None
        self.delivered = 0  # the newest update version this node's clients of the room were sent
        self.seats_checked: tuple[object, object] | None = None  # (seats, counts) last looked at for absentees
        self.clock_for: tuple[Turn | None, float] | None = None  # (turn, deadline) of the last clock armed
        # The snapshot of one room version for one set of presence counts, packed once and shared by every
        # connection that asks for it: [room, counts, without the sheet, with it] (see server/snapshots.py).
        self.snap: tuple[Room, Mapping[str, int], bytes, list[Frame | None]] | None = None
        self.sheet_packed: tuple[object, bytes] | None = None  # (the room's Sheet, its file packed)
        self.held: dict[int, str] = {}  # connection id -> digest of the sheet that connection holds
        self.chat_seen = 0  # chat messages this node heard for the room (a newer one makes the snapshot again)
        self.snap_chat = -1  # ... when the snapshot in `snap` was made

    def text_only(self) -> bool:
        """Whether every client of the room here reads JSON text (none reads msgpack)."""
        return all(not conn.binary for conn in self.conns)

    def current(self) -> Room | None:
        """The cached room, if it is at the newest version this node has heard of."""
        room = self.room
        return room if room is not None and room.v >= self.newest else None

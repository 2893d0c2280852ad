"""What a node that died would have done: timers and the bot run on the node that made a room's last commit;
if that node dies, any node with a connection in the room notices the stall here and takes over. Every few
beats each node also restates its presence counts (dropping those of dead nodes) and catches updates it
missed."""

from __future__ import annotations

import asyncio
import logging
import time

from rajas.server.rooms.local_room import LocalRoom
from rajas.server.rooms.room import PLAYING
from rajas.server.rooms.room_tasks import RoomTasks
from rajas.server.rooms.rooms import Rooms
from rajas.server.storage.store import SPECTATORS

log = logging.getLogger("rajas.server")


class Watchdog:
    def __init__(self, rooms: Rooms, tasks: RoomTasks, tick: float, stall: float, heartbeat: float) -> None:
        self.rooms = rooms
        self.tasks = tasks
        self.tick = tick  # how often it looks at this node's rooms
        self.stall = stall  # seconds without a change before a room owed a bot move or a clock counts as stalled
        self.heartbeat = heartbeat

    async def run(self) -> None:
        beat = 0.0
        while True:
            await asyncio.sleep(self.tick)
            beat += self.tick
            try:
                if beat >= self.heartbeat:
                    beat = 0.0
                    await self.refresh()
                for lr in list(self.rooms.rooms.values()):
                    await self.heal(lr)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the store is away (Redis restarting): try again next tick
                self.rooms.metrics.store_errors.inc()
                log.warning("watchdog: %s", e, extra={"event": "watchdog_failed"})

    async def refresh(self) -> None:
        rooms = self.rooms
        here: dict[str, dict[str, int]] = {}
        for code, lr in rooms.rooms.items():
            counts: dict[str, int] = {}
            for conn in lr.conns:
                key = conn.seat_id if conn.role == "player" and conn.seat_id is not None else SPECTATORS
                counts[key] = counts.get(key, 0) + 1
            here[code] = counts
        if not here:
            return
        versions = await rooms.store.refresh(here)
        for code, v in versions.items():
            behind = rooms.rooms.get(code)
            if behind is None or v <= behind.newest:
                continue
            # Updates were published while this node could not hear them (Redis restarted): the clients
            # here get the room afresh, as a snapshot.
            behind.newest = v
            behind.last = time.monotonic()
            await rooms.resync(behind)

    async def heal(self, lr: LocalRoom) -> None:
        if time.monotonic() - lr.last < self.stall or not lr.conns:
            return
        room = lr.room
        if room is None or room.v < lr.newest:
            room = await self.rooms.load(lr.code, fresh=True)
        if room.status != PLAYING:
            return
        metrics = self.rooms.metrics
        if room.bot_to_move() is not None and not lr.driving:
            metrics.takeovers.inc("bot")
            log.info("bot stalled: taking over", extra={"event": "takeover", "kind": "bot", "room": lr.code})
            self.tasks.drive(lr)
        deadline = room.deadline
        late = deadline is not None and time.time() > deadline + self.stall
        if late and room.auto != room.clock_key and "clock" not in lr.timers:
            metrics.takeovers.inc("clock")
            log.info("turn clock stalled: taking over", extra={"event": "takeover", "kind": "clock", "room": lr.code})
            assert deadline is not None
            self.tasks.arm_clock(lr, room.clock_key, deadline)
        if lr.room is not None:
            self.tasks.grace_for_absent(lr, lr.room)

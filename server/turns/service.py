"""Turn-based rooms, the I/O part: after each commit of such a room, its next due time goes into the turn index
(the store's `turns`) and, when a turn began, the room's life is extended and the player whose turn it is
gets an e-mail (if they gave an address and nobody is connected to their seat). Every node sweeps the index:
a reminder or a deadline that came due is committed as a change by whichever node gets there first, so a
timer outlives the node that armed it, and only the node that commits a change sends its e-mail."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any

from rajas.protocol import ProtocolError
from rajas.server.config import env_default
from rajas.server.rooms.changes import ExpireClock
from rajas.server.rooms.hub import Hub, LocalRoom, Observer
from rajas.server.rooms.room import LOBBY, OVER, PLAYING, Room
from rajas.server.rooms.tasks import RoomTasks
from rajas.server.rooms.turn_rules import Remind, Unit, next_due, remind_at, turn_based
from rajas.server.turns.mail import Mailer

log = logging.getLogger("rajas.server")
DUE_BATCH = 50  # rooms one sweep handles at most (the rest wait for the next sweep)
ASK = "~turns"  # the presence key a sweep adds nothing to, to read a room's counts


@dataclass(frozen=True)
class TurnConfig:
    room_ttl: float = 30 * 86400.0  # seconds a turn-based room in play is kept after its last turn began
    unit: float = 3600.0  # seconds in an hour of a turn limit (tests only shorten it)
    smtp_url: str | None = None
    smtp_from: str | None = None
    public_url: str | None = None

    @classmethod
    def from_env(cls) -> TurnConfig:
        return cls(
            env_default("turn_room_ttl"), env_default("turn_unit"), env_default("smtp_url"),
            env_default("smtp_from"), env_default("public_url"),
        )  # fmt: skip

    @classmethod
    def from_args(cls, args: Any) -> TurnConfig:
        return cls(args.turn_room_ttl, args.turn_unit, args.smtp_url, args.smtp_from, args.public_url)


class TurnService(Observer):
    def __init__(self, rooms: Hub, tasks: RoomTasks, config: TurnConfig | None = None, sweep: float = 2.0) -> None:
        self.rooms = rooms
        self.tasks = tasks  # the bot driver, for turns the bot or the skip owes
        self.index = rooms.store.turns
        self.every = sweep
        self._task: asyncio.Task[None] | None = None
        self.configure(config or TurnConfig.from_env())

    def configure(self, config: TurnConfig) -> None:
        self.config = config
        Unit.seconds = config.unit
        self.mailer = Mailer(config.smtp_url, config.smtp_from, config.public_url)
        metrics = self.rooms.metrics
        metrics.extra = [c for c in metrics.extra if c.name != self.mailer.sent.name] + [self.mailer.sent]

    def start(self) -> None:
        self._task = self.rooms.spawn(self._sweep_forever())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.mailer.close()

    # ---- after a commit (on the node that made it) -------------------------------------------------------

    def committed(self, lr: LocalRoom, room: Room) -> None:
        if turn_based(room.settings) and room.status != LOBBY:
            self.rooms.spawn(self._after(room))

    async def _after(self, room: Room) -> None:
        index = self.index
        if room.status == OVER:
            await index.schedule(room.code, None)
            await index.keep(room.code, None)  # a finished game's room goes like any quiet room
            return
        await index.schedule(room.code, next_due(room))
        if room.began is not None and room.began[1] == room.v:  # this commit began a turn
            await index.keep(room.code, self.config.room_ttl)
            await self.notify(room, "turn")

    async def notify(self, room: Room, kind: str) -> None:
        """E-mails the player whose turn it is, if they gave an address and nobody is at their seat now."""
        to_move = room.to_move()
        if not self.mailer.enabled or to_move is None:
            return
        seat = room.seats[to_move]
        address = seat.get("email")
        if not address or seat["bot"]:
            return
        counts = await self.rooms.store.presence(room.code, ASK, 0)  # (every node's connections, not just ours)
        if counts.get(seat["id"], 0) > 0:
            return
        link = self.mailer.link(room.code, seat["token"])
        hours = room.settings["turn_limit"]
        if kind == "turn":
            subject = f"Rajas: your turn in room {room.code}"
            body = f"It is your turn, {seat['name']}. You have {hours} h.\n\nPlay: {link}\n"
        else:
            subject = f"Rajas: your turn in room {room.code} runs out soon"
            body = f"{seat['name']}, your turn's time limit of {hours} h runs out soon.\n\nPlay: {link}\n"
        self.mailer.send(address, subject, body)

    # ---- the sweep (every node) ----------------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(min(self.every, Unit.seconds / 16))
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the store is away: the index is read again next time
                self.rooms.metrics.store_errors.inc()
                log.warning("turn sweep: %s", type(e).__name__, extra={"event": "turn_sweep_failed"})

    async def sweep(self) -> None:
        for code in await self.index.due(time.time(), DUE_BATCH):
            await self._due(code)

    async def _due(self, code: str) -> None:
        rooms = self.rooms
        try:
            room = await rooms.load(code, fresh=True)
        except ProtocolError:  # gone (expired)
            await self.index.schedule(code, None)
            return
        now = time.time()
        if not turn_based(room.settings) or room.status != PLAYING:
            await self.index.schedule(code, None)
            return
        key = room.clock_key
        remind = remind_at(room)
        lr = await rooms.local(code)
        try:
            if room.auto == key:  # the bot or the skip owes this turn: make sure someone plays it
                if not lr.driving:
                    self.tasks.drive(lr)
                await self.index.schedule(code, now + max(self.every, 1.0))
                return
            if room.deadline is not None and now >= room.deadline:
                await rooms.change(code, ExpireClock(key))  # (the bot or the skip plays it: room_tasks)
            elif remind is not None and now >= remind:
                if await rooms.change(code, Remind(key)) is not None:  # committed here: this node sends it
                    await self.notify(await rooms.load(code), "reminder")
            else:
                await self.index.schedule(code, next_due(room))  # (an entry left early by a node that died)
                return
            room = await rooms.load(code)
            await self.index.schedule(code, next_due(room))
        finally:
            await rooms.release(lr)

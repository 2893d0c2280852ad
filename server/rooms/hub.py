"""The node's hub: its rooms (server/rooms.py: load, commit, fan out) with the room tasks that react to their
commits (server/room_tasks.py) and the watchdog that takes over from dead nodes (server/watchdog.py), and
the requests about rooms that are not a change of one (create, lobby, resolve a code, game log).
Dependencies run one way: hub -> watchdog -> room_tasks -> rooms -> changes -> room."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from rajas.protocol import ProtocolError, unpack
from rajas.protocol.messages import RoomSettings
from rajas.server.metrics import Metrics
from rajas.server.rooms import encoding, series
from rajas.server.rooms.changes import SetBot
from rajas.server.rooms.encoding import StateEncoder, public_state
from rajas.server.rooms.room import OVER, Room
from rajas.server.rooms.room_tasks import RoomTasks
from rajas.server.rooms.rooms import Rooms
from rajas.server.rooms.watchdog import Watchdog
from rajas.server.storage.store import RoomStore
from rajas.server.turns.service import TurnService

log = logging.getLogger("rajas.server")
LISTED = 100  # rooms one GET /api/rooms lists at most (the newest public rooms in the lobby)


class Hub(Rooms):
    def __init__(
        self,
        store: RoomStore,
        metrics: Metrics | None = None,
        tick: float = 0.5,
        stall: float = 2.0,
        bot_pace: float = 0.0,
    ) -> None:
        super().__init__(store, metrics)
        self.tasks = RoomTasks(self, bot_pace)
        self.hooks = self.tasks
        self.watchdog = Watchdog(self, self.tasks, tick, stall, getattr(store, "heartbeat", 2.0))
        self._watchdog: asyncio.Task[None] | None = None
        self.turns = TurnService(self, sweep=getattr(store, "heartbeat", 2.0))
        self.tasks.after_commit = self.turns.committed
        self.turns.drive = self.tasks.drive

    def start(self) -> None:
        self._watchdog = self._spawn(self.watchdog.run())
        self.turns.start()

    async def close(self) -> None:
        await self.turns.close()
        await super().close()

    async def create_room(self, settings: RoomSettings) -> Room:
        for _ in range(5):
            room = Room.create(settings)
            enc = StateEncoder()
            record, _ = enc.commit(room)
            if await self.store.create(
                room.code, room.watch, record.data, settings.public, enc.fixed_record(room), encoding.listing(room)
            ):
                log.info("room created", extra={"event": "room_created", "room": room.code})
                return room
        raise ProtocolError("internal", "could not find a free invite code")

    async def lobby(self) -> list[dict[str, Any]]:
        """GET /api/rooms: the public rooms in the lobby, newest first, at most LISTED, from the store's index."""
        return [unpack(line) for line in await self.store.listed(LISTED)]

    async def resolve(self, code: str) -> tuple[str, bool]:
        from rajas.server.rooms.codes import normalise

        got = await self.store.resolve(normalise(code))
        if got is None:
            raise ProtocolError("room_not_found", "no room with this code (it may have expired)")
        return got

    async def release_bot(self, code: str, seat_id: str) -> None:
        """The owner is back: the bot lets go of the seat."""
        await self.change(code, SetBot(seat_id, False))

    async def game_log(self, code: str, via_watch: bool = False) -> dict[str, Any]:
        room = await self.load(code, fresh=True)
        if room.status != OVER:
            raise ProtocolError("wrong_phase", "the log is available once the game is over")
        # the room's log holds its whole series: this game's entries follow its mark (server/series.py)
        entries = series.current_entries([unpack(e) for e in await self.store.log(code)])
        data = room.log(entries, public_state(room.state) if room.state is not None else None, via_watch)
        return data | {"game": series.number(room.game)}

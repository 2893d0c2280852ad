"""The rooms a client holds: each room this node creates is charged to its creator's address and network (the
`rooms` budget, and `listed` while it is public) for as long as it lives, and a turn-based game in play to the
`turn_rooms` budget for its whole life. So a few prefixes cannot take the node's room cap: a prefix gets its share
(RAJAS_ROOMS_PER_ADDRESS, times RAJAS_NETWORK_SHARE for its network), a room nobody joined is gone within
RAJAS_UNJOINED_TTL, and near RAJAS_MAX_ROOMS a new room from a lighter network makes an idle lobby of the heaviest
one go.

A room's charge ends when this node can tell it is gone: not joined within RAJAS_UNJOINED_TTL, or nothing seen of it
on this node (no connection, timer or bot here) for the store's lifetime of a quiet room (RAJAS_ROOM_TTL, or
RAJAS_TURN_ROOM_TTL while a turn-based game runs). With several nodes a room charges the node that created it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from rajas.protocol import ProtocolError
from rajas.protocol.messages import RoomSettings
from rajas.server.budget import NODE, Bucket, Held, Ledger, Who
from rajas.server.config import ServeSettings
from rajas.server.metrics import Metrics
from rajas.server.rooms.hub import Hub
from rajas.server.rooms.room import LOBBY, Room
from rajas.server.storage.store import ASK

log = logging.getLogger("rajas.server")
NEAR = 0.9  # share of RAJAS_MAX_ROOMS past which a new room makes an idle lobby of the heaviest network go
EVICT_TRIES = 8  # rooms of the heaviest network looked at per creation, for one idle lobby


@dataclass
class Entry:
    who: Who
    created: float
    rooms: Held
    joined: bool = False
    seen: float = 0.0  # (monotonic) when this node last saw the room alive
    listed: Held | None = None
    turns: Held | None = None


class RoomBudget:
    def __init__(self, ledger: Ledger, hub: Hub, metrics: Metrics, room_ttl: float, unjoined_ttl: float,
                 turn_room_ttl: float) -> None:  # fmt: skip
        self.ledger = ledger
        self.hub = hub
        self.metrics = metrics
        self.room_ttl = room_ttl
        self.unjoined_ttl = unjoined_ttl
        self.turn_room_ttl = turn_room_ttl
        self.entries: dict[str, Entry] = {}
        metrics.gauge("rajas_rooms_held", "rooms this node created that are still alive (RAJAS_MAX_ROOMS)",
                      self._held)  # fmt: skip

    def _held(self) -> list[tuple[str, float]]:
        self.prune()
        return [("", len(self.entries))]

    # ---- a new room ----------------------------------------------------------------------------------------

    async def admit(self, who: Who, settings: RoomSettings) -> Entry:
        """Charges a room about to be created to `who`, or refuses (too_many_rooms, too_many_listed, server_full)
        and charges nothing. Give the entry to `created` once the room exists, or to `cancel`."""
        ledger = self.ledger
        now = time.monotonic()
        self.prune(now)
        ledger.charge("room_creations", who.keys())
        if len(self.entries) >= NEAR * ledger.limit("rooms", NODE):
            await self._evict_for(who)
        held = ledger.hold("rooms", {**who.keys(), NODE: "node"})
        try:
            listed = ledger.hold("listed", who.keys()) if settings.public else None
        except ProtocolError:
            ledger.release(held)
            raise
        return Entry(who, now, held, seen=now, listed=listed)

    def created(self, entry: Entry, code: str) -> None:
        self.entries[code] = entry

    def cancel(self, entry: Entry) -> None:
        self._release(entry)

    # ---- what happens to a room ------------------------------------------------------------------------------

    def joined(self, code: str) -> None:
        """Someone joined the room (it lives its full lifetime from now on)."""
        entry = self.entries.get(code)
        if entry is not None:
            entry.joined = True
            entry.seen = time.monotonic()

    def listing(self, code: str, public: bool) -> None:
        """The room's `public` setting is to be `public`: its listing is charged to its creator, or given back.
        Refuses too_many_listed before anything changes."""
        entry = self.entries.get(code)
        if entry is None:
            return  # (a room another node created is charged there)
        if public and entry.listed is None:
            entry.listed = self.ledger.hold("listed", entry.who.keys())
        elif not public and entry.listed is not None:
            self.ledger.release(entry.listed)
            entry.listed = None

    def start_turns(self, code: str) -> Held | None:
        """A turn-based game is about to start: charged to the room's creator for its whole life, or refused with
        too_many_rooms. Give the Held to `turns_started`, or to `release` if the start failed. (None: a room of
        another node, charged there; or one already charged, a rematch.)"""
        entry = self.entries.get(code)
        if entry is None or entry.turns is not None:
            return None
        return self.ledger.hold("turn_rooms", entry.who.keys())

    def turns_started(self, code: str, held: Held) -> None:
        entry = self.entries.get(code)
        if entry is None or entry.turns is not None:
            self.ledger.release(held)  # (gone meanwhile)
            return
        entry.turns = held
        entry.seen = time.monotonic()

    def turn_began(self, code: str) -> None:
        """A turn of a turn-based game began on this node: the room lives RAJAS_TURN_ROOM_TTL from now."""
        entry = self.entries.get(code)
        if entry is not None:
            entry.seen = time.monotonic()

    def turns_over(self, code: str) -> None:
        """The turn-based game is over (or ended): the room goes like any quiet room."""
        entry = self.entries.get(code)
        if entry is not None and entry.turns is not None:
            self.ledger.release(entry.turns)
            entry.turns = None
            entry.seen = time.monotonic()

    def release(self, held: Held) -> None:
        self.ledger.release(held)

    # ---- rooms that went --------------------------------------------------------------------------------------

    def prune(self, now: float | None = None) -> None:
        """Gives back the charges of rooms gone (or as good as gone) from this node's view."""
        now = time.monotonic() if now is None else now
        here = self.hub.rooms
        gone = []
        for code, e in self.entries.items():
            if code in here:
                e.seen = now
                continue
            if not e.joined:
                alive = now - e.created < self.unjoined_ttl
            else:
                alive = now - e.seen < (self.turn_room_ttl if e.turns is not None else self.room_ttl)
            if not alive:
                gone.append(code)
        for code in gone:
            self._release(self.entries.pop(code))

    def _release(self, entry: Entry) -> None:
        for held in (entry.rooms, entry.listed, entry.turns):
            self.ledger.release(held)

    async def _evict_for(self, who: Who) -> None:
        """Near the cap: one idle lobby (nobody connected anywhere) of the heaviest network goes, if that network
        holds more rooms than `who`'s would with this one."""
        counts: dict[str, list[str]] = {}
        for code, e in self.entries.items():
            counts.setdefault(e.who.network, []).append(code)
        mine = len(counts.get(who.network, ())) + 1
        for network, codes in sorted(counts.items(), key=lambda kv: -len(kv[1])):
            if len(codes) <= mine:
                return  # (no network heavier than the one asking: the cap refuses it, if it is reached)
            for code in sorted(codes, key=lambda c: self.entries[c].seen)[:EVICT_TRIES]:
                if await self._idle_lobby(code):
                    await self.hub.store.drop(code)
                    self._release(self.entries.pop(code))
                    self.metrics.rooms_ended.inc("evicted")
                    log.info("idle lobby evicted", extra={"event": "room_evicted", "room": code, "network": network})
                    return
            return

    async def _idle_lobby(self, code: str) -> bool:
        lr = self.hub.rooms.get(code)
        if lr is not None and (lr.conns or lr.timers or lr.driving):
            return False
        try:
            room = await self.hub.load(code, fresh=True)
        except ProtocolError:
            return True  # (gone already: its charge goes)
        if room.status != LOBBY:
            return False
        counts = await self.hub.store.presence(code, ASK, 0)
        return not any(n > 0 for k, n in counts.items() if k != ASK)


class NodeBudgets:
    """The budgets as a session, a route or a room task meets them: the ledger, the rooms held, and the two that
    are a node's alone (games per room, bot decisions per second)."""

    def __init__(self, ledger: Ledger, rooms: RoomBudget, settings: ServeSettings) -> None:
        self.ledger = ledger
        self.rooms = rooms
        self.settings = settings
        self.games_per_room = settings.games_per_room
        self.bots = Bucket(max(0.001, settings.bot_rate), max(1.0, settings.bot_rate))

    async def bot_turn(self) -> None:
        """Waits for the node's next bot decision (RAJAS_BOT_RATE, all rooms together): a flood of bot rooms makes
        bots slower, never the node."""
        if self.bots.take():
            return
        self.rooms.metrics.limit_refusals.inc("bot_rate")
        while not self.bots.take():
            await asyncio.sleep(max(0.001, (1.0 - self.bots.allowance) / self.bots.rate))


async def create_room(hub: Hub, budgets: NodeBudgets | None, who: Who, settings: RoomSettings) -> Room:
    """A new room, charged to `who` (refused when over a budget: nothing is created)."""
    if budgets is None:
        return await hub.create_room(settings)
    entry = await budgets.rooms.admit(who, settings)
    try:
        room = await hub.create_room(settings)
    except BaseException:
        budgets.rooms.cancel(entry)
        raise
    budgets.rooms.created(entry, room.code)
    return room

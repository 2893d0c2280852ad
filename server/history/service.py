"""The node's game history: archives a game when it ends, prunes old games, and answers the history routes, each
answer charged to the client's address (bytes sent, `history_bytes`; games replayed, `replays`: server/budget.py),
and no address holding more than its share of the replay cache.

`History.finished` is called (it watches the hub) when this node committed a game's last decision: the
archiving runs as a task of its own, so a slow or absent store costs the game nothing (it is logged and
counted). The archive is the room store's own (Redis, or memory)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import zlib
from collections import OrderedDict
from typing import Any

from rajas.protocol import ProtocolError, unpack
from rajas.server.budget import NOBODY, Ledger, Who
from rajas.server.history.replay import Replay, Replays
from rajas.server.metrics import Metrics
from rajas.server.rooms import series
from rajas.server.rooms.hub import Observer
from rajas.server.rooms.room import OVER, Room
from rajas.server.storage.archive import HistoryError, HistorySettings, MemoryArchive, game_id, valid_id
from rajas.server.storage.store import RoomStore

log = logging.getLogger("rajas.server")


async def game_record(store: RoomStore, room: Room, finished: float) -> dict[str, Any]:
    """The archived game: the log `rajas verify` reads (named by the room's spectator code, never its invite
    code) with who sat where, the settings, its id and when it finished."""
    assert room.match is not None and room.state is not None
    # the room's log holds its whole series (a rematch): this game's entries follow its mark (server/rooms/series.py)
    entries = series.current_entries([unpack(e) for e in await store.log(room.code)])
    record = room.log(entries, via_watch=True)
    record["game_number"] = series.number(room.match)
    record["id"] = game_id(room.match["seed"])
    record["finished"] = finished
    record["seats"] = [{"name": s["name"], "bot": bool(s["bot"])} for s in room.seats]
    record["settings"] = room.settings_view()
    return record


class History(Observer):
    def __init__(
        self, store: RoomStore, settings: HistorySettings, metrics: Metrics, ledger: Ledger | None = None
    ) -> None:
        self.store = store
        self.settings = settings
        self.archive = store.archive(settings)
        self.replays = Replays(settings.replay_cache, settings.replay_steps)
        self.owners: OrderedDict[str, str] = OrderedDict()  # replayed game -> the address whose request replayed it
        self.ledger = ledger  # the budgets of the routes (None: nothing is charged, as in a test)
        self.refused = 0  # history requests refused (a malformed id, an unknown game, a bad range)
        self._tasks: set[asyncio.Task[None]] = set()
        self._pruner: asyncio.Task[None] | None = None
        self._gauges(metrics)

    def start(self) -> None:
        self._pruner = asyncio.create_task(self._prune_forever())

    async def close(self) -> None:
        for t in [*self._tasks, *([self._pruner] if self._pruner else [])]:
            t.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    # ---- archiving -----------------------------------------------------------------------------------

    def finished(self, room: Room) -> None:
        """The game in `room` just ended on this node: archive it in the background."""
        if room.status != OVER or room.match is None or room.state is None:
            return
        task = asyncio.create_task(self._keep(room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _keep(self, room: Room) -> None:
        await self.keep(room)

    async def keep(self, room: Room) -> str | None:
        """Archives the game of `room`; its id, or None when the store failed (logged and counted)."""
        try:
            record = await game_record(self.store, room, time.time())
            if await self.archive.put(room.code, record):
                self.archive.archived += 1
                log.info("game archived", extra={"event": "game_archived", "room": room.code, "game": record["id"]})
            return str(record["id"])
        except Exception:
            self.archive.errors += 1
            log.exception("archiving a finished game failed", extra={"event": "archive_failed", "room": room.code})
            return None

    async def of_room(self, room: Room) -> list[dict[str, Any]]:
        """GET /api/rooms/CODE/games. A finished game missing from its room's list is archived now: the node that
        committed its last decision may have died before it could (archiving twice keeps the first)."""
        games = await self.archive.of_room(room.code)
        if room.status != OVER or room.match is None or room.state is None:
            return games
        retention = self.settings.retention
        recent = retention <= 0 or time.time() - room.updated < retention  # (never bring back a pruned game)
        if recent and game_id(room.match["seed"]) not in {g["id"] for g in games} and await self.keep(room):
            games = await self.archive.of_room(room.code)
        return games

    async def _prune_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.prune_every)
            await self.prune()

    async def prune(self) -> int:
        try:
            return await self.archive.prune(time.time())
        except Exception:
            self.archive.errors += 1
            log.warning("pruning the game history failed", extra={"event": "prune_failed"})
            return 0

    # ---- reading -------------------------------------------------------------------------------------

    async def game(self, gid: str) -> dict[str, Any]:
        """The archived game's record, or `game_not_found` (a malformed id is refused without a lookup)."""
        got = await self.archive.get(gid) if valid_id(gid) else None
        if got is None:
            self.refused += 1
            raise HistoryError("game_not_found", "no archived game with this id (it may have been pruned)")
        return got

    async def game_bytes(self, gid: str, who: Who = NOBODY, deflated: bool = False) -> bytes:
        """GET /api/games/ID: the record's JSON as kept, not parsed again: zlib-deflated as stored when the client
        takes it so (`deflated`), else inflated (off the event loop when large). Charged by the bytes sent."""
        raw = await self.archive.get_raw(gid) if valid_id(gid) else None
        if raw is None:
            self.refused += 1
            raise HistoryError("game_not_found", "no archived game with this id (it may have been pruned)")
        if deflated:
            self.charge(who, len(raw))
            return raw
        body = zlib.decompress(raw) if len(raw) < 64 * 1024 else await asyncio.to_thread(zlib.decompress, raw)
        self.charge(who, len(body))
        return body

    def charge(self, who: Who, size: int) -> None:
        """Bytes about to be sent to `who`: refused with rate_limited past its RAJAS_HISTORY_BYTES_PER_MINUTE."""
        if self.ledger is not None and who is not NOBODY:
            self._budget("history_bytes", who, size)

    def _budget(self, name: str, who: Who, cost: float = 1.0) -> None:
        assert self.ledger is not None
        try:
            self.ledger.charge(name, who.keys(), cost)
        except ProtocolError as e:
            self.refused += 1
            raise HistoryError(e.code, e.message) from None

    async def replay(self, gid: str, who: Who = NOBODY) -> Replay:
        """The game replayed (from the cache, or now, charged to `who`'s RAJAS_REPLAYS_PER_MINUTE); `game_not_found`
        for an id not archived."""
        cached = self.replays.cached(gid) if valid_id(gid) else None
        if cached is not None:
            return cached
        record = await self.game(gid)
        if self.ledger is not None and who is not NOBODY:
            self._budget("replays", who)
            self._make_room(who.address)
        got = await self.replays.replay(gid, record)
        self.owners[gid] = who.address
        for old in [g for g in self.owners if g not in self.replays.cache]:
            del self.owners[old]
        return got

    def _make_room(self, address: str) -> None:
        """An address holds at most a quarter of the replay cache: past it, its own oldest replay goes, so one
        address asking for game after game cannot push everyone else's out."""
        share = max(1, self.replays.size // 4)
        mine = [g for g, a in self.owners.items() if a == address and g in self.replays.cache]
        while len(mine) >= share:
            self.replays.cache.pop(mine.pop(0), None)

    async def outline(self, gid: str, who: Who = NOBODY) -> bytes:
        """GET /api/games/ID/replay: the sheet, the steps' marks and events (server/replay.py), as JSON."""
        body = (await self.replay(gid, who)).outline()
        self.charge(who, len(body))
        return body

    async def steps(self, gid: str, first: str | None, last: str | None, who: Who = NOBODY) -> bytes:
        """GET /api/games/ID/steps?from=A&to=B: the game as it was at steps A..B (see server/replay.py)."""
        try:
            lo, hi = self.replays.bounds(first, last)
        except HistoryError:
            self.refused += 1
            raise
        replay = await self.replay(gid, who)
        try:
            if replay.ready(lo, hi):
                body = replay.window(lo, hi)
            else:
                body = await asyncio.to_thread(replay.window, lo, hi)  # (first asked: encoded off the event loop)
        except HistoryError:
            self.refused += 1
            raise
        self.charge(who, len(body))
        return body

    def _gauges(self, metrics: Metrics) -> None:
        a = self.archive
        metrics.gauge("rajas_history_archived", "finished games this node archived since it started",
                      lambda: [("", a.archived)])  # fmt: skip
        metrics.gauge("rajas_history_pruned", "archived games this node forgot (past the retention or the count)",
                      lambda: [("", a.pruned)])  # fmt: skip
        metrics.gauge("rajas_history_errors", "archiving or pruning calls that failed (the game itself went on)",
                      lambda: [("", a.errors)])  # fmt: skip
        metrics.gauge("rajas_history_refused", "history requests refused (malformed or unknown id, bad step range)",
                      lambda: [("", self.refused)])  # fmt: skip
        metrics.gauge("rajas_replays_cached", "replayed games held for the viewer",
                      lambda: [("", len(self.replays))])  # fmt: skip
        metrics.gauge("rajas_replays_computed", "games replayed with the engine for the viewer since start",
                      lambda: [("", self.replays.computed)])  # fmt: skip
        if isinstance(a, MemoryArchive):
            metrics.gauge("rajas_history_games", "archived games held in memory", lambda: [("", len(a))])

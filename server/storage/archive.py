"""Game history: every finished game's log, kept after its room is gone (README "Game history").

When a game ends, the node that committed its last decision writes an archived game: the log `rajas verify` reads
(players, sheet, seed, contributions, every decision and roll, the result and final sheets) plus who sat where
(bot or person), the room's settings and when it finished. Each game has an id derived from its secret seed (so
two nodes archiving the same game write the same record once, and nobody without the game's seed can name it).

Where games are kept: `MemoryArchive` (the in-memory store: a bounded count, lost on restart) or
`RedisArchive` (server/archive_redis.py: an index by finish time, pruned a batch at a time). Both forget games
older than the retention (RAJAS_HISTORY_DAYS; 0 keeps them for ever).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
import zlib
from abc import ABC, abstractmethod
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("rajas.server")
GAME_ID = re.compile(r"[0-9a-f]{24}")  # what an archived game's id looks like; anything else is never looked up
FORMAT = "rajas-game-log/1"


class HistoryError(Exception):
    """A refused history request: `code` is one of the codes docs/protocol.md lists under "Game history"."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class HistorySettings:
    """How long and how many finished games a node keeps (RAJAS_HISTORY_* in server/config.py)."""

    retention: float = 90 * 86400.0  # seconds an archived game is kept; 0: for ever
    max_games: int = 1000  # archived games the in-memory store keeps at most (the oldest go first)
    per_room: int = 20  # archived games a room lists (its newest)
    prune_batch: int = 100  # games one pruning pass removes at most (bounded work per pass)
    prune_every: float = 60.0  # seconds between pruning passes
    replay_cache: int = 8  # replayed games kept in memory for the viewer (least recently used go)
    replay_steps: int = 50  # steps one GET /api/games/ID/steps returns at most

    @classmethod
    def from_days(cls, days: float, **rest: Any) -> HistorySettings:
        return cls(retention=max(0.0, days) * 86400.0, **rest)


def game_id(seed: str) -> str:
    """The archived game's id: from the game's seed, secret until the game ended (96 bits, not enumerable)."""
    return hashlib.sha256(f"rajas-archive/1\n{seed}".encode()).hexdigest()[:24]


def valid_id(text: str) -> bool:
    return GAME_ID.fullmatch(text) is not None


def pack_record(record: dict[str, Any]) -> bytes:
    return zlib.compress(json.dumps(record, separators=(",", ":")).encode(), 6)


def unpack_record(data: bytes) -> dict[str, Any]:
    got = json.loads(zlib.decompress(data))
    assert isinstance(got, dict)
    return got


def summary(record: dict[str, Any]) -> dict[str, Any]:
    """A room's line for one of its games: enough for the list, without the log."""
    return {
        "id": record["id"],
        "finished": record["finished"],
        "players": record["players"],
        "result": record.get("result"),
    }


class Archive(ABC):
    """Where finished games are kept. Writing the same game twice keeps the first."""

    def __init__(self, settings: HistorySettings) -> None:
        self.settings = settings
        self.archived = 0  # games this node archived since it started (/metrics)
        self.pruned = 0  # games this node forgot for their age or the count
        self.errors = 0  # archiving or pruning calls that failed (the store away): the game itself is unharmed

    def cutoff(self, now: float) -> float | None:
        """Games that finished before this are past the retention (None: kept for ever)."""
        return now - self.settings.retention if self.settings.retention > 0 else None

    @abstractmethod
    async def put(self, room: str, record: dict[str, Any]) -> bool:
        """Keeps `record` (its "id" and "finished" set) and lists it for `room` (the room's own code); False
        when that game is kept already."""

    async def get(self, gid: str) -> dict[str, Any] | None:
        raw = await self.get_raw(gid)
        return unpack_record(raw) if raw is not None else None

    @abstractmethod
    async def get_raw(self, gid: str) -> bytes | None:
        """The game's record as kept: JSON, zlib-compressed (what `pack_record` made), unless past the retention."""

    @abstractmethod
    async def of_room(self, room: str) -> list[dict[str, Any]]:
        """The room's archived games (their summaries), newest first, at most `per_room`."""

    @abstractmethod
    async def prune(self, now: float) -> int:
        """Forgets up to `prune_batch` games past the retention; how many went."""

    async def close(self) -> None:
        return None


class MemoryArchive(Archive):
    """Finished games in this process's memory: at most `max_games` (the oldest go), lost when it restarts."""

    def __init__(self, settings: HistorySettings) -> None:
        super().__init__(settings)
        self.games: OrderedDict[str, tuple[float, str, bytes]] = OrderedDict()  # id -> (finished, room, record)
        self.rooms: dict[str, list[dict[str, Any]]] = {}  # room -> summaries, newest first

    def __len__(self) -> int:
        return len(self.games)

    async def put(self, room: str, record: dict[str, Any]) -> bool:
        gid = record["id"]
        if gid in self.games:
            return False
        self.games[gid] = (float(record["finished"]), room, pack_record(record))
        listed = self.rooms.setdefault(room, [])
        listed.insert(0, summary(record))
        del listed[self.settings.per_room :]
        while len(self.games) > max(1, self.settings.max_games):
            self._forget(next(iter(self.games)))
        return True

    def _forget(self, gid: str) -> None:
        _, room, _ = self.games.pop(gid)
        listed = [s for s in self.rooms.get(room, ()) if s["id"] != gid]
        if listed:
            self.rooms[room] = listed
        else:
            self.rooms.pop(room, None)
        self.pruned += 1

    async def get_raw(self, gid: str) -> bytes | None:
        got = self.games.get(gid)
        if got is None or self._expired(got[0]):
            return None
        return got[2]

    async def of_room(self, room: str) -> list[dict[str, Any]]:
        return [s for s in self.rooms.get(room, ()) if s["id"] in self.games and not self._expired(s["finished"])]

    def _expired(self, finished: float) -> bool:
        cut = self.cutoff(time.time())
        return cut is not None and finished < cut

    async def prune(self, now: float) -> int:
        cut = self.cutoff(now)
        if cut is None:
            return 0
        gone = 0
        # Games are kept in the order they finished: the old ones are at the front.
        while self.games and gone < self.settings.prune_batch:
            gid, (finished, _, _) = next(iter(self.games.items()))
            if finished >= cut:
                break
            self._forget(gid)
            gone += 1
        return gone

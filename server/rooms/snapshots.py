"""A room's snapshot (what a client joining, reloading or resynchronising gets): built once per room version
and presence counts, then the same frame goes to every connection that asks."""

from __future__ import annotations

from typing import Any

from rajas.protocol import unpack
from rajas.server.edge.connection import Frame
from rajas.server.metrics import Metrics
from rajas.server.rooms import encoding
from rajas.server.rooms.local_room import LocalRoom
from rajas.server.rooms.room import Room
from rajas.server.storage.store import RoomStore


async def recent(store: RoomStore, code: str, v: int) -> list[dict[str, Any]]:
    """The room's last updates up to version v, oldest first, as {v, time, events}."""
    return [e for e in (unpack(raw) for raw in await store.recent(code)) if e["v"] <= v]


async def frame(store: RoomStore, metrics: Metrics, lr: LocalRoom, room: Room, have: str | None) -> Frame:
    """The snapshot of `room` as a frame, the sheet left out when the client holds it (`have` is its digest).
    Repeated requests cost neither a rebuild nor another copy in memory."""
    snap = lr.snap
    chat_seen = lr.chat_seen
    if snap is None or snap[0] is not room or snap[1] is not lr.counts or lr.snap_chat != chat_seen:
        got_recent = await recent(store, lr.code, room.v)
        lines, open_to_spectators = await store.chat.read(lr.code)
        chat = encoding.pack_map({"spectators": open_to_spectators}, [("lines", encoding.pack_array(lines))])
        counts = lr.counts  # (after the wait: the counts the view shows)
        packed = encoding.extend_map(encoding.snapshot(room, counts, got_recent), [("chat", chat)])
        snap = lr.snap = (room, counts, packed, [None, None])
        lr.snap_chat = chat_seen
    else:
        metrics.snapshots_shared.inc()
    full = have != room.sheet.digest
    if not full:
        metrics.snapshot_sheets_skipped.inc()
    frames: list[Frame | None] = snap[3]
    got = frames[full]
    if got is None:
        made = frames[full] = Frame(encoding.with_sheet(snap[2], _packed_sheet(lr, room) if full else None))
        return made
    return got


def _packed_sheet(lr: LocalRoom, room: Room) -> bytes:
    got = lr.sheet_packed
    if got is None or got[0] is not room.sheet:
        got = lr.sheet_packed = (room.sheet, encoding.sheet(room))
    return got[1]

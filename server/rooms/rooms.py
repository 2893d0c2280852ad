"""The node's rooms: loading them, committing changes through the store (version-checked), and fanning every
published update out to this node's connections, with their presence.

Each room a local client is in has a `LocalRoom`: a cached copy of the room at the newest version this node
committed or loaded, a lock so this node's changes to a room queue up instead of colliding, and its
connections. Updates committed by other nodes arrive on the room's channel; the cache notices it is behind
and reloads before the next change. What else reacts to a room changing (turn clocks, grace timers, bots)
does so through `Hooks`, and changes rooms through `change` like anyone else.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from rajas.protocol import ProtocolError, unpack
from rajas.server.edge.connection import Conn, Frame
from rajas.server.metrics import Metrics
from rajas.server.rooms import encoding, snapshots
from rajas.server.rooms.changes import Behind, Change, Command, Outcome, Unchanged, apply
from rajas.server.rooms.encoding import Packed, as_bytes, peek, update
from rajas.server.rooms.frozen import EMPTY, FrozenDict
from rajas.server.rooms.local_room import LocalRoom
from rajas.server.rooms.milestones import log_milestones
from rajas.server.rooms.room import Room
from rajas.server.rooms.seat_moves import SEAT_ENDS, seat_end_notice
from rajas.server.storage.store import SPECTATORS, RoomStore, connected_seats

log = logging.getLogger("rajas.server")
COMMIT_TRIES = 8


class Hooks:
    """What the rest of the node does when one of its rooms changes; these do nothing (server/room_tasks.py
    runs the timers and bots)."""

    def committed(self, lr: LocalRoom, room: Room) -> None:
        """This node committed `room`."""

    def foreign(self, lr: LocalRoom) -> None:
        """Another node committed a newer version of the room."""

    def arrived(self, lr: LocalRoom, seat_id: str | None) -> None:
        """A connection of this seat (None: a spectator) is in the room here."""

    def left(self, lr: LocalRoom, seat_id: str) -> None:
        """The last connection of this seat on this node left the room."""

    def presence(self, lr: LocalRoom) -> None:
        """The room's presence counts changed."""


def _key(conn: Conn) -> str:
    return conn.seat_id if conn.role == "player" and conn.seat_id is not None else SPECTATORS


class Rooms:
    def __init__(self, store: RoomStore, metrics: Metrics | None = None) -> None:
        self.store = store
        self.metrics = metrics or Metrics("local")
        self.rooms: dict[str, LocalRoom] = {}
        self.hooks = Hooks()
        self._tasks: set[asyncio.Task[None]] = set()
        self.on_finished: Callable[[Room], None] | None = None  # a game ended in a commit of this node (history)

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def close(self) -> None:
        for lr in self.rooms.values():
            for t in lr.timers.values():
                t.cancel()
        for t in list(self._tasks):
            t.cancel()

    # ---- loading -----------------------------------------------------------------------------------------

    async def load(self, code: str, fresh: bool = False) -> Room:
        """The room at the newest version this node knows of."""
        lr = self.rooms.get(code)
        if lr is not None and not fresh:
            cached = lr.current()
            if cached is not None:
                return cached
        raw = await self.store.load(code)
        if raw is None:
            raise ProtocolError("room_not_found", "no room with this code (it may have expired)")
        room = Room.from_record(unpack(raw))
        if lr is not None and (lr.room is None or room.v >= lr.room.v):
            lr.room = room
            lr.newest = max(lr.newest, room.v)
        return room

    async def newest(self, code: str) -> Room:
        """The room at the store's version now: this node's copy when it is that version (asking the store for
        the version only), else loaded afresh."""
        lr = self.rooms.get(code)
        room = lr.room if lr is not None else None
        if room is not None and await self.store.version(code) == room.v:
            return room
        return await self.load(code, fresh=True)

    async def local(self, code: str) -> LocalRoom:
        lr = self.rooms.get(code)
        if lr is None:
            lr = self.rooms[code] = LocalRoom(code)

            def listener(message: Packed, lr: LocalRoom = lr) -> None:
                self._on_message(lr, message)

            lr.listener = listener
            await self.store.subscribe(code, listener)
        return lr

    async def release(self, lr: LocalRoom) -> None:
        """Forgets a room nobody on this node is in any more (its timers keep running until they fire)."""
        if lr.conns or lr.timers or lr.driving or self.rooms.get(lr.code) is not lr:
            return
        del self.rooms[lr.code]
        if lr.listener is not None:
            await self.store.unsubscribe(lr.code, lr.listener)

    # ---- changes -----------------------------------------------------------------------------------------

    async def change(self, code: str, cmd: Command) -> dict[str, Any] | None:
        """Applies `cmd` to a copy of the newest room and commits it at the next version, retrying when
        another node committed first. Returns the reply of the outcome; a refusal raises ProtocolError and
        nothing is written."""
        lr = self.rooms.get(code) or await self.local(code)
        for attempt in range(COMMIT_TRIES):
            async with lr.lock:  # (no `continue` inside it: mypyc cannot compile that)
                room = lr.current() if attempt == 0 else None  # (no coroutine when the cache is newest)
                if room is None:
                    room = await self.load(code, fresh=attempt > 0)
                new = room.clone()
                refused: ProtocolError | None = None
                outcome: Outcome | None = None
                try:
                    outcome = apply(new, cmd)
                except ProtocolError as e:
                    if self.store.eager:  # (an in-process store: this node's copy is the room)
                        raise
                    refused = e
                if isinstance(outcome, Unchanged):
                    return outcome.reply
                if isinstance(outcome, Behind) and attempt == COMMIT_TRIES - 1:
                    # Not in the store either: the client names a version never made.
                    raise ProtocolError("stale_version", f"the room is at version {room.v}")
                done = isinstance(outcome, Change) and await self._commit(lr, code, room, new, outcome)
                if refused is not None and not await self._newer_in_store(lr, code, room):
                    raise refused
            if done and isinstance(outcome, Change):
                self.hooks.committed(lr, new)
                if log_milestones(self.metrics, code, outcome.events) and self.on_finished is not None:
                    self.on_finished(new)
                return outcome.reply
        raise ProtocolError("internal", "the room is too busy, try again")

    async def _newer_in_store(self, lr: LocalRoom, code: str, room: Room) -> bool:
        """Before refusing from this node's copy of a shared room: is the store's room newer? (Updates published
        while this node could not hear them, e.g. across a Redis restart, leave the copy behind until the next
        heartbeat notices.) True: try again on the newest room. A store that cannot say refuses nothing: the
        client gets `internal`, which is not remembered under its message id, and may send it again."""
        try:
            v = await self.store.version(code)
        except Exception:
            self.metrics.store_errors.inc()
            raise ProtocolError("internal", "the room's store did not answer; try again") from None
        if v is None or v <= room.v:
            return False
        self.metrics.stale_refusals_avoided.inc()
        self._spawn(self.resync(lr))  # (the clients here missed those updates too)
        return True

    async def _commit(self, lr: LocalRoom, code: str, room: Room, new: Room, change: Change) -> bool:
        """Writes `new` as the version after `room`; False when another node committed that version first."""
        new.v = room.v + 1
        if new.state is not room.state:
            new.shown = new.v
        enc = lr.encoder
        # (The update names only the players who changed. An in-process store publishes it to this node's
        # clients alone: when all of them read JSON it is packed only if asked for later (a snapshot's recent
        # history, the record), and its JSON text is made only if one of them reads JSON.)
        record, game = enc.commit(new, room.state, lazy=self.store.eager and lr.text_only())
        now, room_view = time.time(), enc.room_view(new, lr.counts)
        packed, recent = update(new.v, now, change.events, room_view, game, self.metrics.update_bytes)
        head = {"type": "update", "v": new.v, "events": change.events}
        text = enc.update_text(new, now, change.events, room_view, room.state)  # (for JSON clients, made if needed)
        listing: bytes | None = None
        if new.listing_changed(room):  # (lobby changes only: never for a decision)
            listing = encoding.listing(new) or b""  # (b"": no longer listed)
        lr.mine = (packed, head, text)
        try:
            ok = await self.store.commit(
                code,
                room.v,
                record,
                encoding.log_entry(change.entry),
                packed,
                recent,
                enc.fixed_record(new),
                new.fixed_changed(room),
                listing,
            )
        except Exception:
            self.metrics.store_errors.inc()
            raise
        finally:
            lr.mine = None
        if not ok:
            self.metrics.conflicts.inc()
            return False
        self.metrics.commits.inc()
        if isinstance(packed, bytes):  # (else counted when packed)
            self.metrics.update_bytes.inc(by=len(packed))
        if lr.room is None or lr.room.v < new.v:
            lr.room = new
        lr.newest = max(lr.newest, new.v)
        lr.last = time.monotonic()
        if lr.delivered == room.v:
            # This node's clients have every update before this one: they get it now, not when the
            # store's channel brings it back (the echo is then skipped), and before the reply.
            lr.mine = (packed, head, text)
            self._on_message(lr, packed)
            lr.mine = None
        return True

    # ---- fan-out -----------------------------------------------------------------------------------------

    def _on_message(self, lr: LocalRoom, message: Packed) -> None:
        mine = lr.mine
        # This node's commit in flight: the same object from an in-process store; from Redis, the channel's
        # copy, which can come back before the commit's own reply does.
        own = mine is not None and (message is mine[0] or message == mine[0])
        obj = mine[1] if mine is not None and own else peek(as_bytes(message))
        kind = obj.get("type")
        if kind == "_presence":
            got = obj["counts"]
            counts = lr.counts = FrozenDict(got) if isinstance(got, dict) else EMPTY  # (Lua packs {} as a list)
            frame = Frame.of(
                {"type": "presence", "connected": connected_seats(counts), "spectators": counts.get(SPECTATORS, 0)}
            )
            self._broadcast(lr, frame)
            self.hooks.presence(lr)
            return
        if kind == "chat" or kind == "chat_rules":  # (not versioned: the room's history is untouched)
            lr.chat_seen += 1
            self._broadcast(lr, Frame(message))
            return
        v = int(obj["v"])
        if v <= lr.delivered:
            return  # this node's own commit, delivered when it was made
        lr.delivered = v
        lr.newest = max(lr.newest, v)
        lr.last = time.monotonic()
        if not own and lr.room is not None and lr.room.v < v:
            self.hooks.foreign(lr)
        frame = Frame(message, mine[2] if mine is not None and own else None)
        self._broadcast(lr, frame)
        self.metrics.updates.inc(by=len(lr.conns))
        for e in obj["events"]:
            if e["type"] == "kicked":
                for conn in list(lr.conns):
                    if conn.seat_id == e["id"]:
                        conn.send({"type": "notice", "code": "kicked", "message": "the host removed you from the room"})
                        self._spawn(self.detach(conn))
            elif e["type"] in SEAT_ENDS:  # the seat moved to another device, or someone took over a left seat
                for conn in list(lr.conns):
                    notice = seat_end_notice(e, conn.seat_id, conn.token)
                    if notice is not None:
                        conn.send(notice)
                        self._spawn(self.detach(conn))

    @staticmethod
    def _broadcast(lr: LocalRoom, frame: Frame) -> None:
        for conn in lr.conns:  # (push never adds or removes a room's connection)
            conn.push(frame)

    # ---- connections and presence ------------------------------------------------------------------------

    async def attach(
        self, conn: Conn, code: str, role: str, token: str | None, seat_id: str | None, have: str | None = None
    ) -> Room:
        """Puts a connection in a room and sends it the snapshot (without the sheet if `have` is its digest)."""
        if conn.code is not None:
            await self.detach(conn)
        lr = await self.local(code)
        conn.code, conn.role, conn.token, conn.seat_id = code, role, token, seat_id
        async with lr.lock:
            room = await self.load(code)
            frame = await self.snapshot_frame(lr, room, have)
            lr.conns.add(conn)
            lr.held[conn.cid] = room.sheet.digest
            conn.push(frame)
        lr.counts = FrozenDict(await self.store.presence(code, _key(conn), +1))
        self.hooks.arrived(lr, seat_id)
        return room

    async def detach(self, conn: Conn) -> None:
        code = conn.code
        if code is None:
            return
        lr = self.rooms.get(code)
        key = _key(conn)
        seat_id = conn.seat_id
        conn.code = conn.role = conn.token = conn.seat_id = None
        if lr is None or conn not in lr.conns:
            return
        lr.conns.discard(conn)
        lr.held.pop(conn.cid, None)
        try:
            lr.counts = FrozenDict(await self.store.presence(code, key, -1))
        except Exception:  # the store is gone (shutting down); nothing more to count
            return
        if key != SPECTATORS and seat_id is not None and lr.counts.get(key, 0) == 0:
            self.hooks.left(lr, seat_id)
        await self.release(lr)

    # ---- snapshots ---------------------------------------------------------------------------------------

    async def snapshot_frame(self, lr: LocalRoom, room: Room, have: str | None) -> Frame:
        """The snapshot of `room` as a frame, without the sheet when the client holds it (`have` is its digest)."""
        return await snapshots.frame(self.store, self.metrics, lr, room, have)

    async def resync(self, lr: LocalRoom) -> None:
        """Updates were published while this node could not hear them (Redis restarted): the clients here get
        the room afresh, as a snapshot (without the sheet for those that hold it)."""
        async with lr.lock:
            room = await self.load(lr.code, fresh=True)
            held = lr.held
            for conn in list(lr.conns):
                conn.push(await self.snapshot_frame(lr, room, held.get(conn.cid)))
                held[conn.cid] = room.sheet.digest
        log.info("missed updates: snapshot resent", extra={"event": "resync", "room": lr.code, "v": room.v})

"""The node's side of rooms: which local connections are in which room, committing changes through the
store, forwarding every published update to local clients, and the timers and bots a room needs.

Each room a local client is in has a `LocalRoom`: a cached copy of the room at the newest version this
node committed or loaded, a lock so this node's changes to a room queue up instead of colliding, and
its connections. Updates committed by other nodes arrive on the room's channel; the cache notices it is
behind and reloads before the next change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import msgpack  # type: ignore[import-untyped]
from rajas.engine.bots import BOTS, Bot
from rajas.protocol import ProtocolError, pack, unpack
from rajas.protocol.messages import RoomSettings

from .connection import Conn, Frame
from .encoding import StateEncoder, extend_map, pack_map
from .metrics import Metrics
from .room import OVER, PLAYING, Event, Room
from .store import SPECTATORS, RoomStore, connected_seats

log = logging.getLogger("rajas.server")
COMMIT_TRIES = 8
LISTED = 100  # rooms one GET /api/rooms lists at most (the newest public rooms in the lobby)


def peek(message: bytes) -> dict[str, Any]:
    """The head of a channel message: `type`, `v` and `events` of an update without decoding the room and
    game views behind them (every node receives every update of its rooms; only its clients need the rest)."""
    u = msgpack.Unpacker(raw=False, strict_map_key=False)
    u.feed(message)
    head: dict[str, Any] = {}
    for _ in range(u.read_map_header()):
        key = u.unpack()
        head[key] = u.unpack()
        if "type" in head and "v" in head and "events" in head:
            break
        if head.get("type") not in (None, "update"):  # presence and the like: small, take it all
            return dict(unpack(message))
    return head

Change = Callable[[Room], tuple[list[Event], list[Any] | None, Any]]


class Behind(Exception):
    """The message names a newer version of the room than this node has heard of (its update is still on its
    way through the store's channel): load the room afresh and try again."""


class Skip(Exception):
    """A change that turned out to be unneeded once the newest room was loaded (nothing to commit)."""

    def __init__(self, result: Any = None) -> None:
        super().__init__()
        self.result = result


MILESTONES = frozenset(("game_starting", "game_over", "bot_took_over", "clock_expired"))  # events that are logged


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
        self.counts: dict[str, int] = {}
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.bots: dict[int, Bot] = {}
        self.driving = False
        self.listener: Callable[[bytes], None] | None = None
        self.last = time.monotonic()  # when this node last saw the room change (commit or channel)
        self.encoder = StateEncoder()
        self.mine: tuple[bytes, dict[str, Any]] | None = None  # the update being committed, and its head
        self.delivered = 0  # the newest update version this node's clients of the room were sent
        self.seats_checked: tuple[object, object] | None = None  # (seats, counts) last looked at for absentees
        self.clock_for: tuple[list[int] | None, float] | None = None  # (turn, deadline) of the last clock armed
        # The snapshot of one room version for one set of presence counts, packed once and shared by every
        # connection that asks for it: [room, counts, without the sheet, with it] (see Hub.snapshot_frame).
        self.snap: tuple[Room, dict[str, int], bytes, list[Frame | None]] | None = None
        self.sheet_packed: tuple[object, bytes] | None = None  # (the room's Sheet, its file packed)
        self.held: dict[int, str] = {}  # connection id -> digest of the sheet that connection holds

    def current(self) -> Room | None:
        """The cached room, if it is at the newest version this node has heard of."""
        room = self.room
        return room if room is not None and room.v >= self.newest else None


class Hub:
    def __init__(
        self, store: RoomStore, metrics: Metrics | None = None, tick: float = 0.5, stall: float = 2.0
    ) -> None:
        self.store = store
        self.metrics = metrics or Metrics("local")
        self.rooms: dict[str, LocalRoom] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.tick = tick  # how often the watchdog looks at this node's rooms
        self.stall = stall  # seconds without a change before a room owed a bot move or a clock counts as stalled
        self.heartbeat = getattr(store, "heartbeat", 2.0)
        self._watchdog: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._watchdog = self._spawn(self._watch())

    async def close(self) -> None:
        for lr in self.rooms.values():
            for t in lr.timers.values():
                t.cancel()
        for t in list(self._tasks):
            t.cancel()

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    # ---- rooms ------------------------------------------------------------------------------------------

    async def create_room(self, settings: RoomSettings) -> Room:
        for _ in range(5):
            room = Room.create(settings)
            record, _ = room.encode()
            listing = room.listing()
            if await self.store.create(
                room.code,
                room.watch,
                record.data,
                settings.public,
                room.fixed_record(),
                pack(listing) if listing is not None else None,
            ):
                log.info("room created", extra={"event": "room_created", "room": room.code})
                return room
        raise ProtocolError("internal", "could not find a free invite code")

    async def lobby(self) -> list[dict[str, Any]]:
        """GET /api/rooms: the public rooms in the lobby, newest first, at most LISTED, from the store's index."""
        return [unpack(line) for line in await self.store.listed(LISTED)]

    async def resolve(self, code: str) -> tuple[str, bool]:
        from .codes import normalise

        got = await self.store.resolve(normalise(code))
        if got is None:
            raise ProtocolError("room_not_found", "no room with this code (it may have expired)")
        return got

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

    async def local(self, code: str) -> LocalRoom:
        lr = self.rooms.get(code)
        if lr is None:
            lr = self.rooms[code] = LocalRoom(code)

            def listener(message: bytes, lr: LocalRoom = lr) -> None:
                self._on_message(lr, message)

            lr.listener = listener
            await self.store.subscribe(code, listener)
        return lr

    async def _release(self, lr: LocalRoom) -> None:
        """Forgets a room nobody on this node is in any more (its timers keep running until they fire)."""
        if lr.conns or lr.timers or lr.driving or self.rooms.get(lr.code) is not lr:
            return
        del self.rooms[lr.code]
        if lr.listener is not None:
            await self.store.unsubscribe(lr.code, lr.listener)

    async def change(self, code: str, fn: Change) -> Any:
        """Applies fn to a copy of the newest room and commits it at the next version, retrying when
        another node committed first. fn raises ProtocolError to refuse (nothing is written) or Skip."""
        lr = self.rooms.get(code) or await self.local(code)
        for attempt in range(COMMIT_TRIES):
            async with lr.lock:  # (no `continue` inside it: mypyc cannot compile that)
                room = lr.current() if attempt == 0 else None  # (no coroutine when the cache is newest)
                if room is None:
                    room = await self.load(code, fresh=attempt > 0)
                new = room.clone()
                refused: ProtocolError | None = None
                try:
                    events, entry, result = fn(new)
                except Skip as s:
                    return s.result
                except Behind:
                    if attempt == COMMIT_TRIES - 1:  # not in the store either: the client names a version never made
                        raise ProtocolError("stale_version", f"the room is at version {room.v}") from None
                    ok = False
                except ProtocolError as e:
                    if self.store.eager:  # (an in-process store: this node's copy is the room)
                        raise
                    refused, ok = e, False
                else:
                    ok = await self._commit(lr, code, room, new, events, entry)
                if refused is not None and not await self._newer_in_store(lr, code, room):
                    raise refused
            if ok:
                self._after_commit(lr, new)
                self._log_milestones(code, events)
                return result
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
        self._spawn(self._resync(lr))  # (the clients here missed those updates too)
        return True

    async def _commit(self, lr: LocalRoom, code: str, room: Room, new: Room, events: list[Event], entry: Any) -> bool:
        """Writes `new` as the version after `room`; False when another node committed that version first."""
        new.v = room.v + 1
        record, game = new.encode(lr.encoder)
        now = time.time()
        events_packed = pack(events)
        packed = pack_map(
            {"type": "update", "v": new.v, "time": now},
            [("events", events_packed), ("room", new.packed_view(lr.encoder, lr.counts)), ("game", game)],
        )
        head = {"type": "update", "v": new.v, "events": events}
        listing: bytes | None = None
        if new.listing_changed(room):  # (lobby changes only: never for a decision)
            shown = new.listing()
            listing = pack(shown) if shown is not None else b""
        lr.mine = (packed, head)
        try:
            ok = await self.store.commit(
                code,
                room.v,
                record,
                pack(entry) if entry is not None else None,  # (bytes: untracked by the cyclic GC)
                packed,
                pack_map({"v": new.v, "time": now}, [("events", events_packed)]),
                new.fixed_record(lr.encoder),
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
        self.metrics.update_bytes.inc(by=len(packed))
        if lr.room is None or lr.room.v < new.v:
            lr.room = new
        lr.newest = max(lr.newest, new.v)
        lr.last = time.monotonic()
        if lr.delivered == room.v:
            # This node's clients have every update before this one: they get it now, not when the
            # store's channel brings it back (the echo is then skipped), and before the reply.
            lr.mine = (packed, head)
            self._on_message(lr, packed)
            lr.mine = None
        return True

    # ---- channel -----------------------------------------------------------------------------------------

    def _log_milestones(self, code: str, events: list[Event]) -> None:
        for e in events:
            kind = e.get("type")
            if kind not in MILESTONES:
                continue
            if kind == "game_starting":
                log.info("game started", extra={"event": "game_started", "room": code, "players": e["players"]})
                for c in e.get("contributions") or ():
                    self.metrics.contributions.inc(c["by"])
            elif kind == "game_over":
                log.info("game over", extra={"event": "game_over", "room": code})
            elif kind in ("bot_took_over", "clock_expired"):
                log.info(kind.replace("_", " "), extra={"event": kind, "room": code, "player": e["player"]})

    def _on_message(self, lr: LocalRoom, message: bytes) -> None:
        mine = lr.mine
        # This node's commit in flight: the same object from an in-process store; from Redis, the channel's
        # copy, which can come back before the commit's own reply does.
        own = mine is not None and (message is mine[0] or message == mine[0])
        obj = mine[1] if mine is not None and own else peek(message)
        kind = obj.get("type")
        if kind == "_presence":
            got = obj["counts"]
            counts = lr.counts = dict(got) if isinstance(got, dict) else {}  # Lua packs an empty table as a list
            frame = Frame.of(
                {"type": "presence", "connected": connected_seats(counts), "spectators": counts.get(SPECTATORS, 0)}
            )
            self._broadcast(lr, frame)
            self._grace_for_absent(lr)
            return
        v = int(obj["v"])
        if v <= lr.delivered:
            return  # this node's own commit, delivered when it was made
        lr.delivered = v
        lr.newest = max(lr.newest, v)
        lr.last = time.monotonic()
        if not own and lr.room is not None and lr.room.v < v:
            # Another node committed: it now keeps this room's clock, so this node's clock stands down.
            timer = lr.timers.pop("clock", None)
            if timer is not None:
                timer.cancel()
        frame = Frame(message)
        self._broadcast(lr, frame)
        self.metrics.updates.inc(by=len(lr.conns))
        for e in obj["events"]:
            if e["type"] == "kicked":
                for conn in list(lr.conns):
                    if conn.seat_id == e["id"]:
                        conn.send({"type": "notice", "code": "kicked", "message": "the host removed you from the room"})
                        self._spawn(self.detach(conn))

    @staticmethod
    def _broadcast(lr: LocalRoom, frame: Frame) -> None:
        for conn in lr.conns:  # (push never adds or removes a room's connection)
            conn.push(frame)

    # ---- connections -------------------------------------------------------------------------------------

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
        key = seat_id if role == "player" and seat_id is not None else SPECTATORS
        lr.counts = await self.store.presence(code, key, +1)
        timer = lr.timers.pop(f"grace:{seat_id}", None)
        if timer is not None:
            timer.cancel()
        return room

    async def detach(self, conn: Conn) -> None:
        code = conn.code
        if code is None:
            return
        lr = self.rooms.get(code)
        key = conn.seat_id if conn.role == "player" and conn.seat_id is not None else SPECTATORS
        seat_id = conn.seat_id
        conn.code = conn.role = conn.token = conn.seat_id = None
        if lr is None or conn not in lr.conns:
            return
        lr.conns.discard(conn)
        lr.held.pop(conn.cid, None)
        try:
            lr.counts = await self.store.presence(code, key, -1)
        except Exception:  # the store is gone (shutting down); nothing more to count
            return
        if key != SPECTATORS and seat_id is not None and lr.counts.get(key, 0) == 0:
            room = lr.room
            if room is not None and room.status == PLAYING:
                self._start_grace(lr, seat_id, room.settings["grace"])
        await self._release(lr)

    async def recent(self, code: str, v: int) -> list[dict[str, Any]]:
        """The room's last updates up to version v, oldest first, as {v, time, events}."""
        return [e for e in (unpack(raw) for raw in await self.store.recent(code)) if e["v"] <= v]

    def snapshot(self, lr: LocalRoom, room: Room, recent: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        snap = {
            "type": "snapshot",
            "v": room.v,
            "room": room.view(connected_seats(lr.counts), lr.counts.get(SPECTATORS, 0)),
            "game": room.game_view(),
            "sheet": room.sheet.to_json(),
            "sheet_digest": room.sheet.digest,
        }
        if recent is not None:
            snap["recent"] = recent
        return snap

    async def snapshot_frame(self, lr: LocalRoom, room: Room, have: str | None) -> Frame:
        """The snapshot of `room` as a frame, the sheet left out when the client holds it (`have` is its digest).
        Built once per room version and presence counts, then the same frame (the same bytes) goes to every
        connection that asks: repeated requests cost neither a rebuild nor another copy in memory."""
        snap = lr.snap
        if snap is None or snap[0] is not room or snap[1] is not lr.counts:
            recent = await self.recent(lr.code, room.v)
            counts = lr.counts  # (after the wait: the counts the view shows)
            head = self.snapshot(lr, room, recent)
            del head["sheet"]
            snap = lr.snap = (room, counts, pack(head), [None, None])
        else:
            self.metrics.snapshots_shared.inc()
        full = have != room.sheet.digest
        if not full:
            self.metrics.snapshot_sheets_skipped.inc()
        frames: list[Frame | None] = snap[3]
        got = frames[full]
        if got is None:
            sheet = self._packed_sheet(lr, room) if full else pack(None)
            made = frames[full] = Frame(extend_map(snap[2], [("sheet", sheet)]))
            return made
        return got

    @staticmethod
    def _packed_sheet(lr: LocalRoom, room: Room) -> bytes:
        got = lr.sheet_packed
        if got is None or got[0] is not room.sheet:
            got = lr.sheet_packed = (room.sheet, pack(room.sheet.to_json()))
        return got[1]

    async def newest(self, code: str) -> Room:
        """The room at the store's version now: this node's copy when it is that version (asking the store for
        the version only), else loaded afresh."""
        lr = self.rooms.get(code)
        room = lr.room if lr is not None else None
        if room is not None and await self.store.version(code) == room.v:
            return room
        return await self.load(code, fresh=True)

    # ---- timers and bots ---------------------------------------------------------------------------------

    def _after_commit(self, lr: LocalRoom, room: Room) -> None:
        if room.status != PLAYING:
            for name in [n for n in lr.timers if n == "clock"]:
                lr.timers.pop(name).cancel()
            return
        checked = lr.seats_checked  # (seats and counts are replaced when they change, never changed in place)
        if checked is None or checked[0] is not room.seats or checked[1] is not lr.counts:
            lr.seats_checked = (room.seats, lr.counts)
            for seat in room.seats:
                if not seat["bot"] and lr.counts.get(seat["id"], 0) == 0 and f"grace:{seat['id']}" not in lr.timers:
                    self._start_grace(lr, seat["id"], room.settings["grace"])
        due = (room.clock_key, room.deadline) if room.deadline is not None and room.auto != room.clock_key else None
        if due is None or due != lr.clock_for or "clock" not in lr.timers:  # (within a turn the clock runs on)
            old = lr.timers.pop("clock", None)
            if old is not None:
                old.cancel()
            if due is not None:
                self._arm_clock(lr, *due)
        if room.bot_to_move() is not None:
            self.drive(lr)

    def _arm_clock(self, lr: LocalRoom, key: list[int] | None, deadline: float) -> None:
        lr.clock_for = (key, deadline)
        lr.timers["clock"] = self._spawn(self._clock(lr, key, deadline))

    def _start_grace(self, lr: LocalRoom, seat_id: str, grace: float) -> None:
        name = f"grace:{seat_id}"
        if name not in lr.timers:
            lr.timers[name] = self._spawn(self._grace(lr, seat_id, grace))

    async def _grace(self, lr: LocalRoom, seat_id: str, grace: float) -> None:
        try:
            await asyncio.sleep(grace)
        finally:
            lr.timers.pop(f"grace:{seat_id}", None)
        if lr.counts.get(seat_id, 0) > 0:
            return

        def take_over(r: Room) -> tuple[list[Event], None, None]:
            seat = r.seat_index(seat_id)
            if r.status != PLAYING or seat is None or r.seats[seat]["bot"]:
                raise Skip()
            return r.set_bot(seat, True), None, None

        await self.change(lr.code, take_over)
        await self._release(lr)

    async def release_bot(self, code: str, seat_id: str) -> None:
        """The owner is back: the bot lets go of the seat."""

        def release(r: Room) -> tuple[list[Event], None, None]:
            seat = r.seat_index(seat_id)
            if seat is None or not r.seats[seat]["bot"]:
                raise Skip()
            return r.set_bot(seat, False), None, None

        await self.change(code, release)

    async def _clock(self, lr: LocalRoom, key: list[int] | None, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        lr.timers.pop("clock", None)

        def expire(r: Room) -> tuple[list[Event], None, None]:
            if r.status != PLAYING or r.clock_key != key or r.auto == key:
                raise Skip()
            return r.clock_expired(), None, None

        await self.change(lr.code, expire)
        await self._release(lr)

    def drive(self, lr: LocalRoom) -> None:
        if not lr.driving:
            lr.driving = True
            self._spawn(self._drive(lr))

    async def _drive(self, lr: LocalRoom) -> None:
        """Plays for bot-held and timed-out seats until a person must decide."""
        try:
            for _ in range(10_000):
                room = await self.load(lr.code)
                seat = room.bot_to_move()
                if seat is None or room.state is None or room.game is None:
                    return
                bot = lr.bots.get(seat)
                if bot is None:
                    bot = lr.bots[seat] = BOTS[room.settings["bot"]](f"{room.game['seed']}:{seat}")
                if room.settings["bot"] == "greedy":
                    decision = await asyncio.to_thread(bot, room.state)  # a few ms: off the event loop
                else:
                    decision = bot(room.state)
                at, wire = room.v, decision.to_wire()

                def play(r: Room, seat: int = seat, wire: Any = wire, at: int = at) -> Any:
                    if r.v != at:
                        raise Skip()  # the room moved on while the bot thought; think again
                    events, entry = r.decide(seat, wire, "bot", time.time())
                    return events, entry, True

                with contextlib.suppress(ProtocolError):
                    if await self.change(lr.code, play):
                        self.metrics.decisions.inc("bot")
        finally:
            lr.driving = False
            await self._release(lr)
        log.error("bot driver gave up in room %s", lr.code)

    # ---- the watchdog: what a node that died would have done ----------------------------------------------

    async def _watch(self) -> None:
        """Timers and the bot run on the node that made a room's last commit. If that node dies, any node with
        a connection in the room notices the stall here and takes over; and every few beats each node
        restates its presence counts (dropping those of dead nodes) and catches updates it missed."""
        beat = 0.0
        while True:
            await asyncio.sleep(self.tick)
            beat += self.tick
            try:
                if beat >= self.heartbeat:
                    beat = 0.0
                    await self._refresh()
                for lr in list(self.rooms.values()):
                    await self._heal(lr)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the store is away (Redis restarting): try again next tick
                self.metrics.store_errors.inc()
                log.warning("watchdog: %s", e, extra={"event": "watchdog_failed"})

    async def _refresh(self) -> None:
        here: dict[str, dict[str, int]] = {}
        for code, lr in self.rooms.items():
            counts: dict[str, int] = {}
            for conn in lr.conns:
                key = conn.seat_id if conn.role == "player" and conn.seat_id is not None else SPECTATORS
                counts[key] = counts.get(key, 0) + 1
            here[code] = counts
        if not here:
            return
        versions = await self.store.refresh(here)
        for code, v in versions.items():
            behind = self.rooms.get(code)
            if behind is None or v <= behind.newest:
                continue
            # Updates were published while this node could not hear them (Redis restarted): the clients
            # here get the room afresh, as a snapshot.
            behind.newest = v
            behind.last = time.monotonic()
            await self._resync(behind)

    async def _resync(self, lr: LocalRoom) -> None:
        """Updates were published while this node could not hear them (Redis restarted): the clients here get
        the room afresh, as a snapshot (without the sheet for those that hold it)."""
        async with lr.lock:
            room = await self.load(lr.code, fresh=True)
            held = lr.held
            for conn in list(lr.conns):
                conn.push(await self.snapshot_frame(lr, room, held.get(conn.cid)))
                held[conn.cid] = room.sheet.digest
        log.info("missed updates: snapshot resent", extra={"event": "resync", "room": lr.code, "v": room.v})

    async def _heal(self, lr: LocalRoom) -> None:
        if time.monotonic() - lr.last < self.stall or not lr.conns:
            return
        room = lr.room
        if room is None or room.v < lr.newest:
            room = await self.load(lr.code, fresh=True)
        if room.status != PLAYING:
            return
        if room.bot_to_move() is not None and not lr.driving:
            self.metrics.takeovers.inc("bot")
            log.info("bot stalled: taking over", extra={"event": "takeover", "kind": "bot", "room": lr.code})
            self.drive(lr)
        deadline = room.deadline
        late = deadline is not None and time.time() > deadline + self.stall
        if late and room.auto != room.clock_key and "clock" not in lr.timers:
            self.metrics.takeovers.inc("clock")
            log.info("turn clock stalled: taking over", extra={"event": "takeover", "kind": "clock", "room": lr.code})
            assert deadline is not None
            self._arm_clock(lr, room.clock_key, deadline)
        self._grace_for_absent(lr)

    def _grace_for_absent(self, lr: LocalRoom) -> None:
        """A seat nobody is connected to gets its grace timer here too (its own node may be gone)."""
        room = lr.room
        if room is None or room.status != PLAYING or not lr.conns:
            return
        for seat in room.seats:
            if not seat["bot"] and lr.counts.get(seat["id"], 0) == 0:
                self._start_grace(lr, seat["id"], room.settings["grace"])

    # ---- game log ----------------------------------------------------------------------------------------

    async def game_log(self, code: str, via_watch: bool = False) -> dict[str, Any]:
        room = await self.load(code, fresh=True)
        if room.status != OVER:
            raise ProtocolError("wrong_phase", "the log is available once the game is over")
        entries = [unpack(e) for e in await self.store.log(code)]
        return room.log(entries, via_watch)

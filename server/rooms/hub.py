"""This node's rooms: loading them, committing changes through the store (version-checked), fanning every
published update out to this node's connections per audience, with their presence and snapshots; and the
requests about rooms that are not a change of one (create, the lobby's list, a code resolved, a game's log).

Each room a local client is in has a `LocalRoom`: a cached copy of the room at the newest version this node
committed or loaded, a lock so this node's changes to a room queue up instead of colliding, and its
connections. Updates committed by other nodes arrive on the room's channel; the cache notices it is behind and
reloads before the next change. What else reacts to a room changing (turn clocks, grace timers, bots, turn-based
rooms, the game history) watches the hub as an `Observer` and changes rooms through `change` like anyone else.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Protocol

from rajas.protocol import ProtocolError, pack, unpack
from rajas.protocol.messages import RoomSettings
from rajas.server.frames import Frame, Lazy, Packed, as_bytes
from rajas.server.metrics import Metrics
from rajas.server.rooms import codes, series, views
from rajas.server.rooms.changes import Behind, Change, Command, Outcome, SetBot, Unchanged, apply
from rajas.server.rooms.frozen import EMPTY, FrozenDict
from rajas.server.rooms.room import OVER, Event, Room, Turn
from rajas.server.rooms.seat_moves import SEAT_ENDS, metric_label, seat_end_notice
from rajas.server.rooms.views import Audience, Published, RoomViews
from rajas.server.storage.store import SPECTATORS, RoomStore, connected_seats

log = logging.getLogger("rajas.server")
COMMIT_TRIES = 8
LISTED = 100  # rooms one GET /api/rooms lists at most (the newest public rooms in the lobby)
MILESTONES = frozenset(("game_starting", "game_over", "bot_took_over", "clock_expired"))  # events that are logged
# Seconds between two presence frames of one room from one node: a crowd arriving (or coming back after a node
# restart) changes the counts hundreds of times a second, and a frame to every socket per change made each join
# cost as much as the room was big.
PRESENCE_EVERY = 1.0
# Sockets one frame is written to before the event loop may serve something else: the fan-out of a room of
# thousands is cut into slices of about a millisecond each, so other rooms' decisions are not held up behind it.
FANOUT_SLICE = 256


class Member(Protocol):
    """A connection as the hub sees it: who it is in which room, and where its frames go."""

    cid: int
    binary: bool
    code: str | None
    role: str | None
    token: str | None
    seat_id: str | None

    def push(self, frame: Frame) -> None: ...

    def send(self, obj: Any) -> Frame: ...


class Observer:
    """What the rest of the node does when one of its rooms changes; these do nothing. Room tasks (clocks,
    grace, bots), turn-based rooms and the game history each watch the hub (`Hub.watch`)."""

    def committed(self, lr: LocalRoom, room: Room) -> None:
        """This node committed `room`."""

    def finished(self, room: Room) -> None:
        """A game ended in a commit of this node."""

    def foreign(self, lr: LocalRoom) -> None:
        """Another node committed a newer version of the room."""

    def arrived(self, lr: LocalRoom, seat_id: str | None) -> None:
        """A connection of this seat (None: a spectator) is in the room here."""

    def left(self, lr: LocalRoom, seat_id: str) -> None:
        """The last connection of this seat on this node left the room."""

    def presence(self, lr: LocalRoom) -> None:
        """The room's presence counts changed."""


class RoomLock:
    """This node's changes to a room, one at a time, in the order they came (asyncio.Lock's behaviour, with the
    lock handed straight to the next waiter, so a change never overtakes one that waited longer)."""

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
    """This node's side of one room: its cached copy, its lock, its connections and presence counts, what its
    timers and bots are doing (room tasks keep that here), and its snapshot, made once per room version."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.room: Room | None = None
        self.newest = 0  # newest version seen on the channel
        self.lock = RoomLock()
        self.conns: set[Member] = set()
        self.seated: set[Member] = set()  # the players' connections among them (a fan-out reaches them first)
        self.counts: Mapping[str, int] = EMPTY  # presence: read-only, replaced when it changes
        # The counts of the newest presence message, in the channel's order: what clients are shown (an update, a
        # snapshot, a presence frame). `counts` is also set from the store's answer to this node's own change, which
        # may come after a newer message: shown, it would stick until the next change.
        self.heard: Mapping[str, int] = EMPTY
        self.presence_timer: asyncio.TimerHandle | None = None  # a presence frame waiting for its turn
        self.presence_sent = -PRESENCE_EVERY  # (monotonic time of the last presence frame)
        self.outbox: deque[Fanout] = deque()  # frames still going out to the sockets of a big room, oldest first
        self.pumping: asyncio.Handle | None = None  # the outbox's next slice, when one is due
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.bots: dict[tuple[str, int], Any] = {}  # (match seed, seat) -> its bot
        self.driving = False
        self.listener: Callable[[Packed], None] | None = None
        self.last = time.monotonic()  # when this node last saw the room change (commit or channel)
        self.views = RoomViews()
        # The update being committed here: its version and frames per audience.
        self.mine: tuple[int, dict[Audience, Frame], list[Event]] | None = None
        self.delivered = 0  # the newest update version this node's clients of the room were sent
        self.seats_checked: tuple[object, object] | None = None  # (seats, counts) last looked at for absentees
        self.clock_for: tuple[Turn | None, float] | None = None  # (turn, deadline) of the last clock armed
        self.snap: Snapshots | None = None
        self.fixed: tuple[object, object, str, bytes] | None = None  # (settings, match, host token, fixed record)
        self.held: dict[int, str] = {}  # connection id -> digest of the components that connection holds
        self.chat_seen = 0  # chat messages this node heard for the room (a newer one makes the snapshot again)
        self.chat_allowance = -1.0  # spectators' chat lines this node may still pass on now (-1: a full burst)
        self.chat_last = 0.0  # (monotonic time the allowance was last worked out)

    def text_only(self) -> bool:
        """Whether every client of the room here reads JSON text (none reads msgpack)."""
        return all(not conn.binary for conn in self.conns)

    def current(self) -> Room | None:
        """The cached room, if it is at the newest version this node has heard of."""
        room = self.room
        return room if room is not None and room.v >= self.newest else None


class Snapshots:
    """The snapshots of one room version, its chat lines and its connected seats: per audience, the frame with the
    components and the frame without, made when first asked for and shared by every connection.

    The spectators' count they show is the one of when they were made, at most `PRESENCE_EVERY` old: a crowd
    joining shares one snapshot a second instead of making one per arrival (each arrival changes the count), and
    the presence frame every arrival causes brings each of them the count as it is now."""

    __slots__ = ("chat", "chat_seen", "connected", "counts", "frames", "made", "recent", "room")

    def __init__(
        self, room: Room, counts: Mapping[str, int], chat_seen: int, recent: list[Any], chat: dict[str, Any]
    ) -> None:
        self.room = room
        self.counts = counts
        self.connected = _seats_on(counts)
        self.made = time.monotonic()
        self.chat_seen = chat_seen
        self.recent = recent
        self.chat = chat
        self.frames: dict[tuple[Audience, bool], Frame] = {}

    def shows(self, room: Room, counts: Mapping[str, int], chat_seen: int) -> bool:
        """Whether this snapshot still shows the room as it is (the spectators' count may be a second old)."""
        if self.room is not room or self.chat_seen != chat_seen:
            return False
        if self.counts is counts:
            return True
        return time.monotonic() - self.made < PRESENCE_EVERY and self.connected == _seats_on(counts)


class Fanout:
    """One frame on its way to the sockets of a big room, a slice at a time: the sockets it is for (the
    players' first, then the spectators'), how far it got, and per seat the frames of a game that hides things."""

    __slots__ = ("at", "conns", "everyone", "frames", "room", "seated")

    def __init__(
        self, everyone: Frame, frames: dict[Audience, Frame] | None, room: Room | None, conns: list[Member], seated: int
    ) -> None:
        self.everyone = everyone
        self.frames = frames
        self.room = room
        self.conns = conns
        self.seated = seated  # conns[:seated] are players' connections
        self.at = 0


def _seats_on(counts: Mapping[str, int]) -> frozenset[str]:
    return frozenset(connected_seats(counts))


def _key(conn: Member) -> str:
    return conn.seat_id if conn.role == "player" and conn.seat_id is not None else SPECTATORS


def log_milestones(metrics: Metrics, code: str, events: list[Event]) -> bool:
    """Logs the events of a commit worth a line (a game started or ended, a bot took a seat, a turn clock ran
    out) and counts seat changes; True when the game ended."""
    over = False
    for e in events:
        kind = e.get("type")
        seat_change = metric_label(e)  # (away, back, moved, left, taken over, the bot: server/rooms/seat_moves.py)
        if seat_change is not None:
            metrics.seat_changes.inc(seat_change)
        if kind not in MILESTONES:
            continue
        if kind == "game_starting":
            log.info("game started", extra={"event": "game_started", "room": code, "players": e["players"]})
            for c in e.get("contributions") or ():
                metrics.contributions.inc(c["by"])
        elif kind == "game_over":
            log.info("game over", extra={"event": "game_over", "room": code})
            over = True
        elif kind in ("bot_took_over", "clock_expired"):
            log.info(kind.replace("_", " "), extra={"event": kind, "room": code, "player": e["player"]})
    return over


class Hub:
    def __init__(self, store: RoomStore, metrics: Metrics | None = None) -> None:
        self.store = store
        self.metrics = metrics or Metrics("local")
        self.rooms: dict[str, LocalRoom] = {}
        self.observers: list[Observer] = []
        self._tasks: set[asyncio.Task[None]] = set()

    def watch(self, observer: Observer) -> None:
        self.observers.append(observer)

    def spawn(self, coro: Any) -> asyncio.Task[None]:
        """A background task of the node's, kept until it ends, its failure logged."""
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
            _stand_down(lr)
        for t in list(self._tasks):
            t.cancel()

    # ---- requests that change no room --------------------------------------------------------------------

    async def create_room(self, settings: RoomSettings) -> Room:
        for _ in range(5):
            room = Room.create(settings)
            listing = room.listing()
            if await self.store.create(
                room.code,
                room.watch,
                pack(room.changing()),
                bool(room.settings["public"]),
                pack(room.fixed()),
                pack(listing) if listing is not None else None,
            ):
                log.info("room created", extra={"event": "room_created", "room": room.code})
                return room
        raise ProtocolError("internal", "could not find a free invite code")

    async def lobby(self) -> list[dict[str, Any]]:
        """GET /api/rooms: the public rooms in the lobby, newest first, at most LISTED, from the store's index."""
        return [unpack(line) for line in await self.store.listed(LISTED)]

    async def resolve(self, code: str) -> tuple[str, bool]:
        got = await self.store.resolve(codes.normalise(code))
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
        # the room's log holds its whole series: this game's entries follow its mark (server/rooms/series.py)
        entries = series.current_entries([unpack(e) for e in await self.store.log(code)])
        return room.log(entries, via_watch) | {"game_number": series.number(room.match)}

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
        _stand_down(lr)
        if lr.listener is not None:
            await self.store.unsubscribe(lr.code, lr.listener)

    # ---- changes -----------------------------------------------------------------------------------------

    async def change(self, code: str, cmd: Command) -> dict[str, Any] | None:
        """Applies `cmd` to a copy of the newest room and commits it at the next version, retrying when
        another node committed first. Returns the reply of the outcome; a refusal raises ProtocolError and
        nothing is written."""
        lr = self.rooms.get(code) or await self.local(code)
        for attempt in range(COMMIT_TRIES):
            async with lr.lock:
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
                for observer in self.observers:
                    observer.committed(lr, new)
                if log_milestones(self.metrics, code, outcome.events):
                    for observer in self.observers:
                        observer.finished(new)
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
        self.spawn(self.resync(lr))  # (the clients here missed those updates too)
        return True

    async def _commit(self, lr: LocalRoom, code: str, room: Room, new: Room, change: Change) -> bool:
        """Writes `new` as the version after `room`; False when another node committed that version first."""
        new.v = room.v + 1
        if new.state is not room.state:
            new.shown = new.v
        now = time.time()
        frames = views.updates(lr.views, new, room, change.events, lr.heard, now)
        # (An in-process store hands the update to this node alone, which delivers its own commits at once: it is
        # packed only if asked for. The record is packed when read: never, mostly, with that store.)
        message: Packed = Lazy(partial(views.published, new.v, change.events, frames))
        if not self.store.eager:
            message = as_bytes(message)
        record: Packed = Lazy(partial(_packed_changing, new))
        recent = Lazy(partial(pack, views.recent_entry(new.v, now, change.events)))
        listing: bytes | None = None
        if new.listing_changed(room):  # (lobby changes only: never for a decision)
            shown = new.listing()
            listing = pack(shown) if shown is not None else b""  # (b"": no longer listed)
        fixed_changed = new.fixed_changed(room)
        lr.mine = (new.v, frames, change.events)
        try:
            ok = await self.store.commit(
                code,
                room.v,
                record,
                Lazy(partial(pack, change.entry)) if change.entry is not None else None,
                message,
                recent,
                _fixed(lr, new),
                fixed_changed,
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
        if lr.room is None or lr.room.v < new.v:
            lr.room = new
        lr.newest = max(lr.newest, new.v)
        lr.last = time.monotonic()
        if lr.delivered == room.v:
            # This node's clients have every update before this one: they get it now, not when the store's
            # channel brings it back (the echo is then skipped), and before the reply.
            self._deliver(lr, new.v, frames, change.events, own=True)
        return True

    # ---- fan-out -----------------------------------------------------------------------------------------

    def _on_message(self, lr: LocalRoom, message: Packed) -> None:
        mine = lr.mine
        if mine is not None and isinstance(message, Lazy):  # this node's commit, through an in-process store
            self._deliver(lr, mine[0], mine[1], mine[2], own=True)
            return
        obj = views.peek(as_bytes(message))
        kind = obj.get("type")
        if kind == "_presence":
            got = obj["counts"]
            lr.counts = lr.heard = FrozenDict(got) if isinstance(got, dict) else EMPTY  # (Lua packs {} as a list)
            for observer in self.observers:
                observer.presence(lr)
            self._presence_soon(lr)
            return
        if kind == "chat" or kind == "chat_rules":  # (not versioned: the room's history is untouched)
            lr.chat_seen += 1
            self._broadcast(lr, Frame(packed=as_bytes(message)))  # (the message is the clients' frame)
            return
        if mine is not None and int(obj["v"]) == mine[0]:  # this node's commit, back through a shared store
            self._deliver(lr, mine[0], mine[1], mine[2], own=True)
            return
        published = Published(obj)
        frames: dict[Audience, Frame] = {None: published.frames[0]}
        for i, frame in enumerate(published.frames[1:]):
            frames[i] = frame
        self._deliver(lr, published.v, frames, published.events, own=False)

    def _deliver(self, lr: LocalRoom, v: int, frames: dict[Audience, Frame], events: list[Event], own: bool) -> None:
        if v <= lr.delivered:
            return  # this node's own commit, delivered when it was made
        lr.delivered = v
        lr.newest = max(lr.newest, v)
        lr.last = time.monotonic()
        if not own and lr.room is not None and lr.room.v < v:
            for observer in self.observers:
                observer.foreign(lr)
        self._broadcast(lr, frames[None], frames if len(frames) > 1 else None)
        self.metrics.updates.inc(by=len(lr.conns))
        if any(e["type"] == "kicked" or e["type"] in SEAT_ENDS for e in events):
            self._drain(lr)  # (the update that removed a seat reaches its connection before the notice)
        for e in events:
            if e["type"] == "kicked":
                for conn in list(lr.conns):
                    if conn.seat_id == e["id"]:
                        conn.send({"type": "notice", "code": "kicked", "message": "the host removed you from the room"})
                        self.spawn(self.detach(conn))
            elif e["type"] in SEAT_ENDS:  # the seat moved to another device, or someone took over a left seat
                for conn in list(lr.conns):
                    notice = seat_end_notice(e, conn.seat_id, conn.token)
                    if notice is not None:
                        conn.send(notice)
                        self.spawn(self.detach(conn))

    def _broadcast(self, lr: LocalRoom, everyone: Frame, frames: dict[Audience, Frame] | None = None) -> None:
        """Sends a frame (per seat: `frames`, in a game that hides things) to every connection of the room here.
        Its bytes are made once (`Frame.wire`); per socket there is only the write. A room of more than
        FANOUT_SLICE sockets gets it a slice at a time, in order behind the frames still going out."""
        conns = lr.conns
        if len(conns) <= FANOUT_SLICE and not lr.outbox:
            if frames is None:
                for conn in conns:  # (push never adds or removes a room's connection)
                    conn.push(everyone)
                return
            room = lr.room
            for conn in conns:
                seat = views.audience_of(room, conn.role, conn.seat_id) if room is not None else None
                conn.push(frames.get(seat, everyone))
            return
        # The players' connections first: the update a player's decision made goes out in the same write as the
        # reply to it (Conn.cork), as in a small room.
        seated = list(lr.seated)
        lr.outbox.append(Fanout(everyone, frames, lr.room, seated + list(conns - lr.seated), len(seated)))
        if lr.pumping is None:
            self._pump(lr)

    def _pump(self, lr: LocalRoom) -> None:
        """Writes the outbox's next FANOUT_SLICE frames, and comes back on the event loop's next turn for the rest."""
        lr.pumping = None
        self._write_out(lr, FANOUT_SLICE)
        if lr.outbox:
            lr.pumping = asyncio.get_running_loop().call_soon(self._pump, lr)

    def _drain(self, lr: LocalRoom) -> None:
        """Every frame of the outbox written now."""
        if lr.pumping is not None:
            lr.pumping.cancel()
            lr.pumping = None
        while lr.outbox:
            self._write_out(lr, FANOUT_SLICE)

    @staticmethod
    def _write_out(lr: LocalRoom, left: int) -> None:
        """Writes up to `left` frames of the outbox, oldest first."""
        outbox, members = lr.outbox, lr.conns
        while outbox and left > 0:
            job = outbox[0]
            conns, everyone, frames, room = job.conns, job.everyone, job.frames, job.room
            start = job.at
            end = min(len(conns), start + left)
            for i in range(start, end):
                conn = conns[i]
                if conn not in members:  # (gone since: left the room, or detached to join again)
                    continue
                if frames is None or i >= job.seated or room is None:
                    conn.push(everyone)
                else:
                    conn.push(frames.get(views.audience_of(room, conn.role, conn.seat_id), everyone))
            left -= end - start
            job.at = end
            if end == len(conns):
                outbox.popleft()

    def _presence_soon(self, lr: LocalRoom) -> None:
        """The room's presence changed: its clients here are told at most once per PRESENCE_EVERY, with the counts
        as they are by then (one frame for every change meanwhile). A small room is told at once after a quiet
        second; a big one at the end of the second, never in the middle of the join or leave that changed it."""
        if lr.presence_timer is not None:
            return
        wait = lr.presence_sent + PRESENCE_EVERY - time.monotonic()
        if wait <= 0 and len(lr.conns) <= FANOUT_SLICE:
            self._send_presence(lr)
        else:
            wait = wait if wait > 0 else PRESENCE_EVERY
            lr.presence_timer = asyncio.get_running_loop().call_later(wait, self._send_presence, lr)

    def _send_presence(self, lr: LocalRoom) -> None:
        lr.presence_timer = None
        lr.presence_sent = time.monotonic()
        counts = lr.heard
        frame = Frame({"type": "presence", "connected": connected_seats(counts),
                       "spectators": counts.get(SPECTATORS, 0)})  # fmt: skip
        self._broadcast(lr, frame)

    # ---- connections and presence ------------------------------------------------------------------------

    async def attach(
        self, conn: Member, code: str, role: str, token: str | None, seat_id: str | None, have: str | None = None
    ) -> Room:
        """Puts a connection in a room and sends it the snapshot (without the components if `have` is their
        digest)."""
        if conn.code is not None:
            await self.detach(conn)
        lr = await self.local(code)
        conn.code, conn.role, conn.token, conn.seat_id = code, role, token, seat_id
        async with lr.lock:
            room = await self.load(code)
            frame = await self.snapshot_frame(lr, room, have, conn)
            while lr.delivered > room.v:  # another node's update went out while the snapshot was made: it is behind
                room = await self.load(code)
                frame = await self.snapshot_frame(lr, room, have, conn)
            lr.conns.add(conn)
            if role == "player":
                lr.seated.add(conn)
            lr.held[conn.cid] = room.components.digest
            conn.push(frame)
        lr.counts = FrozenDict(await self.store.presence(code, _key(conn), +1))
        for observer in self.observers:
            observer.arrived(lr, seat_id)
        return room

    async def detach(self, conn: Member) -> None:
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
        lr.seated.discard(conn)
        lr.held.pop(conn.cid, None)
        try:
            lr.counts = FrozenDict(await self.store.presence(code, key, -1))
        except Exception:  # the store is gone (shutting down); nothing more to count
            return
        if key != SPECTATORS and seat_id is not None and lr.counts.get(key, 0) == 0:
            for observer in self.observers:
                observer.left(lr, seat_id)
        await self.release(lr)

    # ---- snapshots ---------------------------------------------------------------------------------------

    async def snapshot_frame(self, lr: LocalRoom, room: Room, have: str | None, conn: Member) -> Frame:
        """The snapshot of `room` for `conn`'s audience as a frame, without the components when the client holds
        them (`have` is their digest). Made once per room version, chat line and set of connected seats (and at
        most once a second for the spectators' count: `Snapshots`), then shared."""
        snap = lr.snap
        if snap is None or not snap.shows(room, lr.heard, lr.chat_seen):
            chat_seen = lr.chat_seen
            got_recent = [e for e in (unpack(raw) for raw in await self.store.recent(lr.code)) if e["v"] <= room.v]
            lines, open_to_spectators = await self.store.chat.read(lr.code)
            chat = {"spectators": open_to_spectators, "lines": [unpack(line) for line in lines]}
            snap = lr.snap = Snapshots(room, lr.heard, chat_seen, got_recent, chat)
        else:
            self.metrics.snapshots_shared.inc()
        audience = views.audience_of(room, conn.role, conn.seat_id)
        full = have != room.components.digest
        if not full:
            self.metrics.snapshot_sheets_skipped.inc()
        made = snap.frames.get((audience, full))
        if made is None:
            shown = views.snapshot(lr.views, room, snap.counts, snap.recent, snap.chat, audience)
            components = room.components.to_json() if full else None
            made = snap.frames[(audience, full)] = Frame(views.with_components(shown, components))
        return made

    async def resync(self, lr: LocalRoom) -> None:
        """Updates were published while this node could not hear them (Redis restarted): the clients here get
        the room afresh, as a snapshot (without the components for those that hold them)."""
        async with lr.lock:
            room = await self.load(lr.code, fresh=True)
            held = lr.held
            for conn in list(lr.conns):
                conn.push(await self.snapshot_frame(lr, room, held.get(conn.cid), conn))
                held[conn.cid] = room.components.digest
        log.info("missed updates: snapshot resent", extra={"event": "resync", "room": lr.code, "v": room.v})


def _stand_down(lr: LocalRoom) -> None:
    """A room this node lets go of: no presence frame or fan-out slice of it is still to come."""
    if lr.presence_timer is not None:
        lr.presence_timer.cancel()
        lr.presence_timer = None
    if lr.pumping is not None:
        lr.pumping.cancel()
        lr.pumping = None
    lr.outbox.clear()


def _fixed(lr: LocalRoom, room: Room) -> bytes:
    """The room's fixed record packed, once while its parts are the same objects (a decision replaces none of
    them, and the store writes it only when one was replaced)."""
    got = lr.fixed
    if got is not None and got[0] is room.settings and got[1] is room.match and got[2] == room.host_token:
        return got[3]
    packed = pack(room.fixed())
    lr.fixed = (room.settings, room.match, room.host_token, packed)
    return packed


def _packed_changing(room: Room) -> bytes:
    return pack(room.changing())

"""The timers and the bots a room in play needs, run on the node that made the room's last commit: the turn
clock, a grace period for a seat whose owner left, and the driver that plays for bot-held and timed-out seats;
and the watchdog that does what a node that died would have done. They watch the hub (server/rooms/hub.py) and
change rooms through `Hub.change` like anyone else."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from rajas.protocol import ProtocolError
from rajas.server.rooms.changes import BotPlay, ExpireClock
from rajas.server.rooms.hub import Hub, LocalRoom, Observer
from rajas.server.rooms.room import PLAYING, Room, Turn
from rajas.server.rooms.seat_moves import Back, GraceOver, MarkAway
from rajas.server.rooms.turn_rules import turn_based
from rajas.server.storage.store import SPECTATORS

log = logging.getLogger("rajas.server")

_WORKER_BOTS: dict[tuple[str, str, str, float | None], Any] = {}  # a worker process's bots, kept between decisions
_WORKER_COMPONENTS: dict[tuple[str, str], Any] = {}  # and the components its states are played with, by digest
WORKER_NICENESS = 10  # added to a worker process's niceness (the event loop's process keeps its own)
WORKER_KEPT = 256  # (a few dozen rooms' seats: a bot or components are made again if they were let go)


def _plain(x: Any) -> Any:
    """Frozen settings as the JSON they came from (what a worker process can receive whatever the build)."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    return x


def _kept(cache: dict[Any, Any], key: Any, make: Callable[[], Any]) -> Any:
    got = cache.get(key)
    if got is None:
        if len(cache) >= WORKER_KEPT:
            del cache[next(iter(cache))]  # the oldest first
        got = cache[key] = make()
    return got


def _worker_started() -> None:
    """A worker process yields the CPU to the node's own process first: searches wait, people's decisions do not."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)


def warm() -> None:
    """Loads the games in a new worker process, before its first search."""
    import rajas.games.registry  # noqa: F401


def _start(pool: ProcessPoolExecutor, processes: int) -> None:
    """Starts a pool's workers and has each load the games (blocking: run in a thread, not the event loop)."""
    for future in [pool.submit(warm) for _ in range(processes)]:
        future.result()


def search(
    game_id: str, kind: str, seed: str, think: float | None, options: dict[str, Any], digest: str, record: Any
) -> Any:
    """One bot decision in a worker process, as its wire form: a search there holds that process's GIL, not the
    event loop's. The state comes as its record (plain data: a compiled engine's objects need not pickle), the
    bot is the game's own (by id), kept per seed so a bot's choices go on from its last."""
    from rajas.games.registry import game as game_of

    game = game_of(game_id)
    components = _kept(_WORKER_COMPONENTS, (game_id, digest), lambda: game.components(options))
    bot = _kept(_WORKER_BOTS, (game_id, kind, seed, think), lambda: game.bots[kind](seed, think))
    return game.wire(bot(game.from_record(record, components)))


class RoomTasks(Observer):
    def __init__(
        self,
        rooms: Hub,
        pace: float = 0.0,
        throttle: Callable[[], Awaitable[None]] | None = None,
        think: float | None = None,
        processes: int = 0,
    ) -> None:
        self.rooms = rooms
        self.pace = pace  # seconds each bot decision waits, so people can follow the bots (RAJAS_BOT_PACE)
        self.throttle = throttle  # waits for the node's next bot decision (RAJAS_BOT_RATE)
        self.think = think  # seconds one bot decision may search (RAJAS_BOT_THINK; None: no cap)
        self.processes = processes  # worker processes the searching bots run in (RAJAS_BOT_PROCESSES; 0: threads)
        self._pool: ProcessPoolExecutor | None = None  # made at the first search, so a node without bots has none
        self._started: asyncio.Future[None] | None = None  # the pool's workers are up

    def close(self) -> None:
        """Lets the worker processes go (the node is stopping): a search under way is dropped, as its room is."""
        pool, self._pool, self._started = self._pool, None, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    async def _search(self, room: Room, kind: str, seed: str, bot: Any) -> Any:
        """A searching bot's decision for the room's state (its wire form) from a worker process, or from a thread
        when there are none or the worker failed (the search is the same; only the event loop's share of the GIL
        differs)."""
        if self.processes > 0:
            if self._pool is None or self._started is None:
                # (forkserver: the workers are forked from a clean process, not from this one's threads; they are
                # started from a thread, as starting a process blocks for a while)
                context = multiprocessing.get_context("forkserver")
                self._pool = ProcessPoolExecutor(self.processes, context, _worker_started)
                self._started = asyncio.ensure_future(asyncio.to_thread(_start, self._pool, self.processes))
            pool, started = self._pool, self._started
            try:
                await asyncio.shield(started)
                game = room.game
                fields = game.options_model.model_fields
                options = {k: _plain(v) for k, v in room.settings.items() if k in fields}
                record = game.to_record(room.state)
                return await asyncio.get_running_loop().run_in_executor(
                    pool, search, game.id, kind, seed, self.think, options, room.components.digest, record
                )
            except BrokenProcessPool:
                if self._pool is pool:
                    self._pool = self._started = None  # (a worker died: the next search makes a new pool)
                log.warning("bot worker process died; this decision is made in a thread")
            except Exception as e:
                log.warning("bot decision in a worker process failed (%s); made in a thread", e)
        return room.game.wire(await asyncio.to_thread(bot, room.state))

    # ---- hooks -------------------------------------------------------------------------------------------

    def committed(self, lr: LocalRoom, room: Room) -> None:
        if room.status != PLAYING:
            old = lr.timers.pop("clock", None)
            if old is not None:
                old.cancel()
            return
        checked = lr.seats_checked  # (seats and counts are read-only: replaced when they change)
        if checked is None or checked[0] is not room.seats or checked[1] is not lr.counts:
            lr.seats_checked = (room.seats, lr.counts)
            self.grace_for_absent(lr, room)
        # (A turn-based room's deadline is hours away: the turn index, which every node sweeps, keeps it instead
        # of a timer holding the room on this node: server/turn_based.py.)
        timed = room.deadline is not None and room.auto != room.clock_key and not turn_based(room.settings)
        due = (room.clock_key, room.deadline) if timed else None
        if due is None or due != lr.clock_for or "clock" not in lr.timers:  # (within a turn the clock runs on)
            old = lr.timers.pop("clock", None)
            if old is not None:
                old.cancel()
            if due is not None and due[1] is not None:
                self.arm_clock(lr, due[0], due[1])
        if room.bot_to_move() is not None:
            self.drive(lr)

    def foreign(self, lr: LocalRoom) -> None:
        # Another node committed: it now keeps this room's clock, so this node's clock stands down.
        timer = lr.timers.pop("clock", None)
        if timer is not None:
            timer.cancel()

    def arrived(self, lr: LocalRoom, seat_id: str | None) -> None:
        timer = lr.timers.pop(f"grace:{seat_id}", None)
        if timer is not None:
            timer.cancel()

    def left(self, lr: LocalRoom, seat_id: str) -> None:
        room = lr.room
        if room is not None and room.status == PLAYING and not turn_based(room.settings):
            self.start_grace(lr, seat_id, room.settings["grace"])

    def presence(self, lr: LocalRoom) -> None:
        if lr.room is not None and lr.conns:
            self.grace_for_absent(lr, lr.room)

    # ---- timers ------------------------------------------------------------------------------------------

    def grace_for_absent(self, lr: LocalRoom, room: Room) -> None:
        """A seat nobody is connected to gets its grace timer (its own node may be gone)."""
        if room.status != PLAYING or turn_based(room.settings):  # (a turn-based room keeps its seats)
            return
        for seat in room.seats:
            if not seat["bot"] and lr.counts.get(seat["id"], 0) == 0:
                self.start_grace(lr, seat["id"], room.settings["grace"])

    def arm_clock(self, lr: LocalRoom, key: Turn | None, deadline: float) -> None:
        lr.clock_for = (key, deadline)
        lr.timers["clock"] = self.rooms.spawn(self._clock(lr, key, deadline))

    def start_grace(self, lr: LocalRoom, seat_id: str, grace: float) -> None:
        name = f"grace:{seat_id}"
        if name not in lr.timers:
            lr.timers[name] = self.rooms.spawn(self._grace(lr, seat_id, grace))

    async def _grace(self, lr: LocalRoom, seat_id: str, grace: float) -> None:
        try:
            # The room records when the bot takes the seat, so every client can show the countdown (shielded:
            # the owner coming back cancels this timer, never a commit half made).
            now = time.time()
            marking = asyncio.shield(self.rooms.change(lr.code, MarkAway(seat_id, now + grace, now)))
            try:
                got = await marking
            except asyncio.CancelledError:
                if lr.counts.get(seat_id, 0) > 0:  # back while the mark was being made: it comes off after it
                    self.rooms.spawn(self.rooms.change(lr.code, Back(seat_id)))
                raise
            bot_at = got.get("bot_at") if got else None
            if bot_at is None:
                return
            if lr.counts.get(seat_id, 0) > 0:  # back while the mark was being made
                await self.rooms.change(lr.code, Back(seat_id))
                return
            await asyncio.sleep(max(0.0, bot_at - time.time()))
        finally:
            lr.timers.pop(f"grace:{seat_id}", None)
        if lr.counts.get(seat_id, 0) > 0:
            return
        await self.rooms.change(lr.code, GraceOver(seat_id, bot_at))
        await self.rooms.release(lr)

    async def _clock(self, lr: LocalRoom, key: Turn | None, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        lr.timers.pop("clock", None)
        await self.rooms.change(lr.code, ExpireClock(key))
        await self.rooms.release(lr)

    # ---- the bot -----------------------------------------------------------------------------------------

    def drive(self, lr: LocalRoom) -> None:
        if not lr.driving:
            lr.driving = True
            self.rooms.spawn(self._drive(lr))

    async def _drive(self, lr: LocalRoom) -> None:
        """Plays for bot-held and timed-out seats until a person must decide."""
        # (No await in a `finally` or `except` here: compiled with mypyc, an exception pending across that
        # await, such as this task's cancellation, is raised again in whatever coroutine runs next.)
        failure: BaseException | None = None
        try:
            done = await self._play(lr)
        except BaseException as e:
            failure, done = e, True
        lr.driving = False
        if not isinstance(failure, asyncio.CancelledError):
            await self.rooms.release(lr)
        if failure is not None:
            raise failure
        if not done:
            log.error("bot driver gave up in room %s", lr.code)

    async def _play(self, lr: LocalRoom) -> bool:
        """True when a person must decide; False after more bot decisions in a row than any game has."""
        rooms = self.rooms
        for _ in range(10_000):
            room = await rooms.load(lr.code)
            seat = room.bot_to_move()
            if seat is not None and self.pace > 0:
                # one decision at a time, each shown for a moment (also for an away player's seat)
                await asyncio.sleep(self.pace)
                room = await rooms.load(lr.code)  # (a person may have acted meanwhile: the owner came back)
                seat = room.bot_to_move()
            state, match = room.state, room.match
            if seat is None or state is None or match is None:
                return True
            kind = room.seats[seat].get("kind") or room.settings["bot"]  # a bot's seat, or an away player's
            key = (str(match["seed"]), seat)
            bot = lr.bots.get(key)
            game = room.game
            if bot is None:
                if len(lr.bots) >= game.max_players:
                    lr.bots.clear()  # (another game's bots: at most one per seat of the game in play)
                # A turn-based room whose host chose "skip" skips a person's timed-out turn; a bot's seat plays.
                person = room.seats[seat].get("kind") is None
                skip = person and turn_based(room.settings) and room.settings["after_limit"] == "skip"
                bot = lr.bots[key] = game.skip if skip else game.bots[kind](f"{match['seed']}:{seat}", self.think)
            if self.throttle is not None:
                await self.throttle()  # (RAJAS_BOT_RATE: every room's bots share the node's decisions)
            if kind == "random":
                wire = game.wire(bot(state))  # (microseconds: a thread would cost more than the decision)
            elif bot == game.skip:  # (a bound method: equal, not the same object, each time)
                wire = game.wire(await asyncio.to_thread(bot, state))
            else:  # a game's other bots search: off the event loop, and in a worker process when there are some
                wire = await self._search(room, kind, f"{match['seed']}:{seat}", bot)
            with contextlib.suppress(ProtocolError):
                if await rooms.change(lr.code, BotPlay(seat, wire, room.v, time.time())):
                    rooms.metrics.decisions.inc("bot")
        return False


class Watchdog:
    """What a node that died would have done: timers and the bot run on the node that made a room's last commit;
    if that node dies, any node with a connection in the room notices the stall here and takes over. Every few
    beats each node also restates its presence counts (dropping those of dead nodes) and catches updates it
    missed."""

    def __init__(self, rooms: Hub, tasks: RoomTasks, tick: float, stall: float, heartbeat: float) -> None:
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

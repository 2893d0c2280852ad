"""One load-generator process of `rajas bench --spectators N` (python -m rajas.bench.crowd_load, driven by
bench/crowd.py): either the `driver`, which makes the watched room (5 players) and the other rooms (5 players and
2 spectators each) and plays them, or one share of the `crowd`, spectators of the watched room.

Every client speaks JSON text frames as the browser does (client_web/net.js) and, like it, comes back by itself
when its connection drops (after 250 ms, then 500 ms, 1 s, ... each with +-20 % jitter), joining again with the
sheet digest it holds. A spectator is a bare lean socket (bench/wire.py) that reads only the head of each frame
(its type and version), and the spectators' count where a frame carries one; the driver's clients are the protocol
client on lean sockets, which keep a mirror of the room to choose decisions from.

Times are `time.monotonic()`, which on Linux is one clock for every process of the machine: the driver's
intended send time of a decision and a spectator's receive time of its update are compared across processes.
Commands come on stdin, one a line; each is answered with one JSON line on stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import re
import sys
import time
from collections.abc import Callable
from typing import Any

from rajas.protocol import PROTOCOL_VERSION
from rajas.protocol import client as protocol_client
from rajas.protocol.client import Client, ServerError

from .wire import LeanSocket, open_socket
from .wire import connect as lean_connect

PLAYERS, SPECTATORS = 5, 2  # of the watched room (players only) and of each other room
BACKOFF = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)  # seconds before each try to come back (client_web/net.js)
_COUNT = re.compile(rb'"spectators":(\d+)')  # the room view's count (the settings' "spectators" is true or false)
_DIGEST = b'"sheet_digest":"'
_UPDATE = b'{"type":"update","v":'
_SNAPSHOT = b'{"type":"snapshot","v":'
_PRESENCE = b'{"type":"presence"'
_REPLY = b'{"type":"reply"'


def backoff(attempt: int) -> float:
    return BACKOFF[min(attempt, len(BACKOFF) - 1)] * random.uniform(0.8, 1.2)


def _version(frame: bytes, head: bytes) -> int:
    j = len(head)
    return int(frame[j : frame.index(b",", j)])


def reply(obj: Any) -> None:
    print(json.dumps(obj), flush=True)


# ---- the crowd ------------------------------------------------------------------------------------------------


class Crowd:
    """One process's spectators, and what they saw."""

    def __init__(self, url: str, watch: str) -> None:
        self.url = url
        self.watch = watch
        self.watchers: list[Watcher] = []
        self.recording = False
        self.arrivals: dict[int, list[float]] = {}  # update version -> receive times, while recording
        self.mark = -1  # a watcher notes when it first gets an update newer than this (`fresh_at`)
        self.errors: dict[str, int] = {}  # failed tries to join, by what failed

    def failed(self, e: BaseException) -> None:
        key = type(e).__name__ if not isinstance(e, ServerError) else e.code
        self.errors[key] = self.errors.get(key, 0) + 1


class Watcher:
    """A spectator as the browser is one: hello, join with the watch code (and the sheet digest once it holds the
    sheet), the snapshot, then every update in order; a gap asks for a snapshot; a dropped connection comes back."""

    __slots__ = ("away_since", "back_at", "count", "count_at", "crowd", "digest", "fresh_at", "gaps", "joined",
                 "keep", "presence", "reconnects", "sock", "v", "waiting")  # fmt: skip

    def __init__(self, crowd: Crowd, keep: bool = True) -> None:
        self.crowd = crowd
        self.keep = keep  # comes back when dropped (a probe does not)
        self.sock: LeanSocket | None = None
        self.v = -1
        self.digest: str | None = None
        self.count = -1  # the spectators' count it was last shown
        self.count_at = 0.0  # when that count changed
        self.joined = False
        self.back_at = 0.0  # when it last joined
        self.away_since: float | None = None
        self.fresh_at = 0.0  # when it first got an update newer than the crowd's mark
        self.gaps = 0
        self.reconnects = 0
        self.presence = 0  # presence frames received
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}

    def _shown(self, frame: bytes, now: float) -> None:
        m = _COUNT.search(frame)
        if m is not None:
            n = int(m.group(1))
            if n != self.count:
                self.count, self.count_at = n, now

    def on_frame(self, frame: bytes, now: float) -> None:
        if frame.startswith(_UPDATE):
            v = _version(frame, _UPDATE)
            if v <= self.v or self.v < 0:
                return  # (before its snapshot, or in it)
            if v != self.v + 1:
                self.gaps += 1  # missed one: the browser asks for a snapshot
                held = {"sheet_digest": self.digest} if self.digest else {}
                self._send({"type": "snapshot", "id": f"s{v}", **held})
                return
            self.v = v
            self._shown(frame, now)
            crowd = self.crowd
            if crowd.recording:
                got = crowd.arrivals.get(v)
                if got is None:
                    got = crowd.arrivals[v] = []
                got.append(now)
            if v > crowd.mark and self.fresh_at == 0.0:
                self.fresh_at = now
        elif frame.startswith(_PRESENCE):
            self.presence += 1
            n = int(json.loads(frame)["spectators"])
            if n != self.count:
                self.count, self.count_at = n, now
        elif frame.startswith(_SNAPSHOT):
            self.v = max(self.v, _version(frame, _SNAPSHOT))
            d = frame.find(_DIGEST)
            if d > 0:
                start = d + len(_DIGEST)
                self.digest = frame[start : frame.index(b'"', start)].decode()
            self._shown(frame[: frame.find(b'"game":')], now)
        elif frame.startswith(_REPLY):
            msg = json.loads(frame)
            fut = self.waiting.pop(str(msg.get("id")), None)
            if fut is not None and not fut.done():
                fut.set_result(msg)

    def _send(self, obj: dict[str, Any]) -> None:
        if self.sock is not None and not self.sock.closed:
            self.sock.send_now(json.dumps(obj))

    async def _request(self, obj: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[obj["id"]] = fut
        self._send(obj)
        msg = await asyncio.wait_for(fut, timeout)
        if not msg["ok"]:
            raise ServerError(msg["code"], msg["message"])
        return msg

    async def join(self) -> tuple[float, float, float]:
        """One try: (started, joined, when the join message was sent); raises when it failed."""
        started = time.monotonic()
        sock = self.sock = await open_socket(self.crowd.url)
        sock.lean(self.on_frame)
        sock.on_close = self._dropped
        if sock.closed:
            raise ConnectionError("closed at once")
        await self._request({"type": "hello", "id": "h", "protocol": PROTOCOL_VERSION, "client": "rajas-bench"})
        sent = time.monotonic()
        ask = {"type": "join", "id": "j", "room": self.crowd.watch, "role": "spectator"}
        await self._request(ask | ({"sheet_digest": self.digest} if self.digest else {}))
        now = time.monotonic()
        self.joined, self.back_at, self.away_since = True, now, None
        return started, now, sent

    async def join_until(self) -> tuple[float, float, float]:
        """Joins, trying again after the browser's backoff until it is in."""
        attempt = 0
        while True:
            try:
                return await self.join()
            except Exception as e:
                self.crowd.failed(e)
                if self.sock is not None:
                    self.sock.on_close = None
                    await self.sock.close()
                await asyncio.sleep(backoff(attempt))
                attempt += 1

    def _dropped(self) -> None:
        for fut in self.waiting.values():
            if not fut.done():
                fut.set_exception(ConnectionError("closed"))
        self.waiting.clear()
        if not self.joined:
            return  # (a try that failed: join_until goes on)
        self.joined = False
        self.away_since = time.monotonic()
        if self.keep:
            asyncio.get_running_loop().create_task(self._come_back())

    async def _come_back(self) -> None:
        await asyncio.sleep(backoff(0))
        await self.join_until()
        self.reconnects += 1

    async def leave(self) -> None:
        self.keep = self.joined = False
        if self.sock is not None:
            self.sock.on_close = None
            await self.sock.close()


async def join_many(crowd: Crowd, n: int, concurrency: int) -> dict[str, Any]:
    sem = asyncio.Semaphore(concurrency)
    new = [Watcher(crowd) for _ in range(n)]
    crowd.watchers += new

    async def one(w: Watcher) -> tuple[float, float, float]:
        async with sem:
            return await w.join_until()

    got = await asyncio.gather(*(one(w) for w in new))
    gc.collect()
    gc.freeze()  # (what the joins made lives to the end: no collection walks it again)
    return {"joins": [[round(a, 6), round(b, 6), round(c, 6)] for a, b, c in got], "errors": crowd.errors}


async def probe(crowd: Crowd, n: int) -> dict[str, Any]:
    """`n` spectators one after another, each joining alone and leaving: the time of one join."""
    out = []
    for _ in range(n):
        w = Watcher(crowd, keep=False)
        started, joined, sent = await w.join_until()
        out.append([round(joined - started, 6), round(joined - sent, 6)])
        await w.leave()
        await asyncio.sleep(0.1)
    return {"probes": out}


def report(crowd: Crowd) -> dict[str, Any]:
    ws = crowd.watchers
    counts: dict[int, int] = {}
    versions: dict[int, int] = {}
    for w in ws:
        counts[w.count] = counts.get(w.count, 0) + 1
        versions[w.v] = versions.get(w.v, 0) + 1
    joined = [w for w in ws if w.joined]
    return {
        "watchers": len(ws),
        "joined": len(joined),
        "counts": counts,
        "versions": versions,
        "gaps": sum(w.gaps for w in ws),
        "reconnects": sum(w.reconnects for w in ws),
        "presence_frames": [min((w.presence for w in ws), default=0), max((w.presence for w in ws), default=0)],
        "presence_total": sum(w.presence for w in ws),
        "back_last": max((w.back_at for w in ws), default=0.0),
        "count_last": max((w.count_at for w in ws), default=0.0),
        "fresh_last": max((w.fresh_at for w in ws), default=0.0),
        "fresh_missing": sum(1 for w in ws if w.fresh_at == 0.0),
        "errors": crowd.errors,
    }


async def crowd_main(args: argparse.Namespace) -> None:
    crowd = Crowd(args.url, args.watch)
    loop = asyncio.get_running_loop()
    print("ready", flush=True)
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        cmd, *rest = line.split()
        if cmd == "join":
            reply(await join_many(crowd, int(rest[0]), int(rest[1])))
        elif cmd == "probe":
            reply(await probe(crowd, int(rest[0])))
        elif cmd == "record":
            crowd.recording = rest[0] == "on"
            reply({"recording": crowd.recording})
        elif cmd == "mark":
            crowd.mark = int(rest[0])
            for w in crowd.watchers:
                w.fresh_at = 0.0
            reply({"mark": crowd.mark})
        elif cmd == "report":
            reply(report(crowd))
        elif cmd == "arrivals":
            got, crowd.arrivals = crowd.arrivals, {}
            reply({"arrivals": {str(v): [round(t, 6) for t in ts] for v, ts in got.items()}})
        elif cmd == "exit":
            for w in crowd.watchers:
                if w.sock is not None and w.sock.transport is not None:
                    w.sock.on_close = None
                    w.sock.transport.abort()
            return


# ---- the driver -----------------------------------------------------------------------------------------------


class Timed(Client):
    """The protocol client, noting when each update of its room arrives."""

    def __init__(self, url: str, table: Table) -> None:
        super().__init__(url, binary=False, keep=False)
        self.table = table

    def _on(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "update" and self.table.timed:
            self.table.arrivals.append((int(msg["v"]), time.monotonic()))
        super()._on(msg)


class Table:
    """One room the driver plays: its clients (the players' by seat, then its spectators'), kept connected, and
    every decision's intended send time by the version it makes."""

    def __init__(self, url: str, code: str, watch: str, timed: bool) -> None:
        self.url = url
        self.code = code
        self.watch = watch
        self.host_token: str | None = None
        self.timed = timed  # the other rooms' deliveries are timed here; the watched room's by the crowd
        self.clients: list[Timed] = []
        self.tokens: list[str | None] = []  # seat tokens (None: a spectator)
        self.intended: dict[int, float] = {}
        self.arrivals: list[tuple[int, float]] = []
        self.acked = 0  # the newest version a reply of ours named
        self.decisions = 0
        self.refusals: dict[str, int] = {}
        self.reconnects = 0
        self.rematches = 0
        self.stopped = False
        self.keepers: list[asyncio.Task[None]] = []

    def keep(self, i: int) -> None:
        self.keepers.append(asyncio.get_running_loop().create_task(self._keeper(i)))

    async def _keeper(self, i: int) -> None:
        """Brings client i back each time its connection drops, as the browser does."""
        while True:
            c = self.clients[i]
            await c.closed.wait()
            attempt = 0
            while True:
                await asyncio.sleep(backoff(attempt))
                attempt += 1
                fresh = Timed(self.url, self)
                fresh.sheet_digest, fresh.sheet = c.sheet_digest, c.sheet
                try:
                    await fresh.connect()
                    token = self.tokens[i]
                    if token is None:
                        await fresh.join(self.watch, role="spectator")
                    else:
                        await fresh.join(self.code, token=token, host_token=self.host_token if i == 0 else None)
                except Exception:
                    await fresh.close()
                    continue
                self.clients[i] = fresh
                self.reconnects += 1
                break

    async def eyes(self) -> Timed:
        """A player's client at the newest version a reply named (waiting for it to get there)."""
        while True:
            c = next((c for c in self.clients[:PLAYERS] if not c.closed.is_set() and c.room is not None), None)
            if c is not None:
                try:
                    await c.wait_for(lambda c: c.v >= self.acked, timeout=3.0)
                    return c
                except (TimeoutError, ConnectionError):
                    pass
                with contextlib.suppress(Exception):  # (a lost update: the room afresh)
                    await asyncio.wait_for(c.snapshot(), 3.0)
            await asyncio.sleep(0.1)

    async def decide(self, due: float, rng: random.Random) -> None:
        """Decision `due`: the player to move's, with the same message id on every try (a decision the server
        applied before its connection dropped is recognised as a duplicate, never applied twice)."""
        while not self.stopped:
            try:
                eyes = await self.eyes()
                if eyes.over or eyes.game is None:
                    await self.again(eyes)
                    continue
                pending = eyes.pending
                assert pending is not None
                mover = self.clients[pending["player"]]
                v = eyes.v
                self.intended.setdefault(v + 1, due)
                got = await mover.request(
                    "decide", id=f"d{v}", decision=rng.choice(pending["options"]), v=v, timeout=5.0
                )
                self.acked = max(self.acked, int(got["v"]))
                self.decisions += 0 if got.get("duplicate") else 1
                return
            except ServerError as e:
                self.refusals[e.code] = self.refusals.get(e.code, 0) + 1
                await asyncio.sleep(0.05)
            except (TimeoutError, ConnectionError, OSError):
                await asyncio.sleep(0.1)

    async def again(self, eyes: Timed) -> None:
        """The game is over: the host starts the next one with the same table."""
        host = self.clients[0]
        if eyes.over:
            await host.rematch()
        await host.start()
        self.rematches += 1
        await eyes.wait_for(lambda c: c.game is not None and not c.over, timeout=10.0)

    async def play(self, start: float, rate: float, rng: random.Random) -> None:
        phase = rng.random() / rate
        k = 0
        while not self.stopped:
            due = start + phase + k / rate
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if self.stopped:
                break
            await self.decide(due, rng)
            k += 1


async def make_table(url: str, spectators: int, timed: bool) -> Table:
    host = await Client(url, binary=False, keep=False).connect()
    created = await host.create_room(seats=PLAYERS, grace=3600, bot="random")
    await host.close()
    table = Table(url, created["code"], created["watch"], timed)
    table.host_token = created["host_token"]
    for i in range(PLAYERS):
        c = Timed(url, table)
        await c.connect()
        got = await c.join(created["code"], name=f"p{i}", host_token=created["host_token"] if i == 0 else None)
        table.clients.append(c)
        table.tokens.append(got["token"])
    for _ in range(spectators):
        c = Timed(url, table)
        await c.connect()
        await c.join(created["watch"], role="spectator")
        table.clients.append(c)
        table.tokens.append(None)
    await table.clients[0].start()
    for c in table.clients:
        await c.wait_for(lambda c: c.game is not None, timeout=30)
    for i in range(len(table.clients)):
        table.keep(i)
    return table


def latencies(table: Table) -> list[list[float]]:
    """[intended send time, latency] of every timed delivery."""
    out = []
    for v, t in table.arrivals:
        due = table.intended.get(v)
        if due is not None:
            out.append([round(due, 6), round(t - due, 6)])
    return out


def _merged(counts: list[dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in counts:
        for k, n in c.items():
            out[k] = out.get(k, 0) + n
    return out


async def driver_main(args: argparse.Namespace) -> None:
    watched = await make_table(args.url, 0, timed=False)
    others = [await make_table(args.url, SPECTATORS, timed=True) for _ in range(args.others)]
    tables = [watched, *others]
    reply({"code": watched.code, "watch": watched.watch, "others": [t.code for t in others]})
    loop = asyncio.get_running_loop()
    plays: list[asyncio.Task[None]] = []
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        cmd = line.split()[0]
        if cmd == "go":
            start = time.monotonic() + 0.5
            plays = [loop.create_task(t.play(start, args.rate, random.Random(i))) for i, t in enumerate(tables)]
            reply({"start": start})
        elif cmd == "status":
            reply({"acked": watched.acked})
        elif cmd == "stop":
            for t in tables:
                t.stopped = True
            for task in plays:
                task.cancel()
            await asyncio.gather(*plays, return_exceptions=True)
            reply(
                {
                    "intended": {str(v): round(t, 6) for v, t in watched.intended.items()},
                    "acked": watched.acked,
                    "others": [x for t in others for x in latencies(t)],
                    "other_sockets": PLAYERS + SPECTATORS,
                    "decisions": sum(t.decisions for t in tables),
                    "watched_decisions": watched.decisions,
                    "refusals": _merged([t.refusals for t in tables]),
                    "reconnects": sum(t.reconnects for t in tables),
                    "rematches": sum(t.rematches for t in tables),
                }
            )
        elif cmd == "exit":
            for t in tables:
                for k in t.keepers:
                    k.cancel()
            return


def cli() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--role", choices=("driver", "crowd"), required=True)
    p.add_argument("--url", required=True, help="the balancer's websocket url")
    p.add_argument("--watch", help="(crowd) the watched room's spectator code")
    p.add_argument("--others", type=int, default=0, help="(driver) other rooms of 5 players + 2 spectators")
    p.add_argument("--rate", type=float, default=1.0, help="(driver) decisions per second per room")
    args = p.parse_args()
    import uvloop
    from rajas.server.serve import raise_fd_limit

    raise_fd_limit()
    # Full GC passes over thousands of sockets' objects would show up as latency of the server under test.
    gc.set_threshold(100_000, 50, 100)
    # The driver's protocol clients run on lean sockets too (the client's `connect` is bench/wire.py's).
    vars(protocol_client)["connect"] = lean_connect
    main: Callable[[argparse.Namespace], Any] = driver_main if args.role == "driver" else crowd_main
    uvloop.run(main(args))


if __name__ == "__main__":
    cli()

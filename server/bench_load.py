"""One load-generator process of `rajas bench` (python -m rajas.server.bench_load, driven by server/bench.py).

It sets up its share of rooms (5 players + 2 spectators each), says `ready`, reads the common start time
from stdin, and drives every room open-loop: decision k of a room is due at start + phase + k / rate and is
timestamped with that intended time, even when it has to wait for the previous update (so a slow server
is charged for the wait: no coordinated omission). Every socket of the room records, for every update,
receive time minus intended send time. Prints one JSON object at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import struct
import sys
import time
from typing import Any

import msgpack  # type: ignore[import-untyped]
from rajas.protocol import pack, unpack
from rajas.protocol.client import Client
from websockets.asyncio.client import ClientConnection, connect

PLAYERS, SPECTATORS = 5, 2
READERS: set[asyncio.Future[None]] = set()  # the socket readers, kept referenced for the whole run


class Room:
    def __init__(self) -> None:
        self.intended: dict[int, float] = {}
        self.latencies: list[float] = []
        self.changed = asyncio.Event()
        self.v = 0
        self.game: dict[str, Any] | None = None
        self.over = False
        self.sent = 0
        self.refused = 0


def _head(frame: bytes) -> tuple[str | None, int | None]:
    """type and v of a server message, without decoding the rest (most sockets only need those)."""
    u = msgpack.Unpacker(raw=False)
    u.feed(frame)
    n = u.read_map_header()
    kind = v = None
    for _ in range(min(n, 2)):
        key = u.unpack()
        val = u.unpack()
        if key == "type":
            kind = val
        elif key == "v":
            v = val
    return kind, v


class BenchClient(Client):
    """The protocol client, with a lean reader once the game runs: updates are only timed, and decoded in
    full by one socket per room (the room's eyes), so the generator stays light."""

    room: Room | None = None
    eyes = False

    async def lean(self) -> None:
        assert self.ws is not None
        room = self.room
        assert room is not None
        clock = time.perf_counter
        async for frame in self.ws:
            now = clock()
            assert isinstance(frame, bytes)
            kind, v = _head(frame)
            if kind == "update" and v is not None:
                t = room.intended.get(v)
                if t is not None:
                    room.latencies.append(now - t)
                if self.eyes:
                    msg = unpack(frame)
                    room.v, room.game = v, msg["game"]
                    room.over = msg["room"]["status"] == "over"
                    room.changed.set()
            elif kind == "reply" and self.eyes is False:
                msg = unpack(frame)
                if not msg["ok"]:
                    room.refused += 1


async def setup_room(url: str) -> tuple[Room, list[BenchClient]]:
    host = await BenchClient(url, keep=False).connect()
    created = await host.create_room(seats=PLAYERS, grace=3600, bot="random")
    await host.join(created["code"], name="p0", host_token=created["host_token"])
    clients = [host]
    for i in range(1, PLAYERS):
        c = await BenchClient(url, keep=False).connect()
        await c.join(created["code"], name=f"p{i}")
        clients.append(c)
    for _ in range(SPECTATORS):
        c = await BenchClient(url, keep=False).connect()
        await c.join(created["watch"], role="spectator")
        clients.append(c)
    await host.start()
    for c in clients:
        await c.wait_for(lambda c: c.game is not None, timeout=30)
    room = Room()
    room.v, room.game = host.v, host.game
    # Hand the sockets to the lean reader.
    for c in clients:
        assert c._reader is not None
        c._reader.cancel()
        c.room = room
    clients[-1].eyes = True
    for c in clients:
        READERS.add(asyncio.ensure_future(c.lean()))
    return room, clients


async def drive_room(room: Room, clients: list[BenchClient], start: float, end: float, rate: float, seed: int) -> None:
    rng = random.Random(seed)
    players = clients[:PLAYERS]
    phase = rng.random() / rate if rate > 0 else 0.0
    k = 0
    while not room.over:
        due = start + phase + k / rate if rate > 0 else time.perf_counter()
        if due >= end:
            return
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        # The decision needs the newest state: wait for the update of our previous one (still charged from `due`).
        while room.v < room.sent and not room.over and time.perf_counter() < end:
            room.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(room.changed.wait(), max(0.001, end - time.perf_counter()))
        if room.over or time.perf_counter() >= end:
            return
        assert room.game is not None
        pending = room.game["pending"]
        wire = rng.choice(pending["options"])
        v = room.v
        room.intended[v + 1] = due if rate > 0 else time.perf_counter()
        room.sent = v + 1
        c = players[pending["player"]]
        assert c.ws is not None
        await c.ws.send(pack({"type": "decide", "id": f"b{v}", "decision": wire, "v": v}))
        k += 1


# ---- bare baseline ------------------------------------------------------------------------------------------


async def setup_bare(url: str, index: int, payload: int) -> tuple[Room, list[ClientConnection]]:
    room = Room()
    name = f"room-{index}-{random.getrandbits(32)}"
    socks = []
    for _ in range(PLAYERS + SPECTATORS):
        ws = await connect(url, compression=None, max_size=2**20, open_timeout=30)
        await ws.send(name)
        socks.append(ws)
    await asyncio.sleep(0.05)
    clock = time.perf_counter

    async def read(ws: ClientConnection, eyes: bool) -> None:
        async for frame in ws:
            now = clock()
            assert isinstance(frame, bytes)
            (v,) = struct.unpack_from("<I", frame)
            t = room.intended.get(v)
            if t is not None:
                room.latencies.append(now - t)
            if eyes:
                room.v = v
                room.changed.set()

    for i, ws in enumerate(socks):
        READERS.add(asyncio.ensure_future(read(ws, i == len(socks) - 1)))
    return room, socks


async def drive_bare(
    room: Room, socks: list[ClientConnection], start: float, end: float, rate: float, seed: int, payload: int
) -> None:
    rng = random.Random(seed)
    phase = rng.random() / rate if rate > 0 else 0.0
    filler = bytes(max(0, payload - 4))
    k = 0
    while True:
        due = start + phase + k / rate if rate > 0 else time.perf_counter()
        if due >= end:
            return
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        while room.v < room.sent and time.perf_counter() < end:  # as ours: one message in flight per room
            room.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(room.changed.wait(), max(0.001, end - time.perf_counter()))
        if time.perf_counter() >= end:
            return
        v = room.v + 1
        room.intended[v] = due if rate > 0 else time.perf_counter()
        room.sent = v
        await socks[rng.randrange(PLAYERS)].send(struct.pack("<I", v) + filler)
        k += 1


async def main(args: argparse.Namespace) -> None:
    url = args.url
    sem = asyncio.Semaphore(20)

    if args.target == "idle":
        idle = []
        for _ in range(args.rooms):
            async with sem:
                idle.append(await Client(url, keep=False).connect())
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        return

    async def one(i: int) -> tuple[Room, list[Any]]:
        async with sem:
            if args.target == "bare":
                return await setup_bare(url, args.index * 100_000 + i, args.payload)
            return await setup_room(url)

    rooms = await asyncio.gather(*(one(i) for i in range(args.rooms)))
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    start_wall, duration = (float(x) for x in line.split())
    start = time.perf_counter() + (start_wall - time.time())
    end = start + duration
    if args.target == "bare":
        runs = [drive_bare(r, s, start, end, args.rate, i, args.payload) for i, (r, s) in enumerate(rooms)]
    else:
        runs = [drive_room(r, s, start, end, args.rate, i) for i, (r, s) in enumerate(rooms)]
    await asyncio.gather(*runs)
    await asyncio.sleep(max(0.0, end - time.perf_counter()) + args.drain)
    lat = [x for r, _ in rooms for x in r.latencies]
    out = {
        "decisions": sum(len(r.intended) for r, _ in rooms),
        "deliveries": len(lat),
        "refused": sum(r.refused for r, _ in rooms),
        "games_over": sum(r.over for r, _ in rooms),
        "lat_us": [round(x * 1e6) for x in lat],
    }
    print(json.dumps(out), flush=True)
    for _, socks in rooms:
        for s in socks:
            ws = s.ws if isinstance(s, Client) else s
            if ws is not None:
                ws.transport.abort() if hasattr(ws, "transport") else None


def cli() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--target", choices=("ours", "bare", "idle"), default="ours")
    p.add_argument("--rooms", type=int, required=True)
    p.add_argument("--rate", type=float, default=1.0, help="decisions per second per room; 0: as fast as possible")
    p.add_argument("--payload", type=int, default=2000)
    p.add_argument("--index", type=int, default=0)
    p.add_argument("--drain", type=float, default=1.0)
    args = p.parse_args()
    import uvloop

    from .serve import raise_fd_limit

    raise_fd_limit()
    # The generator must not add its own pauses to what it measures: full GC passes over 3,500 sockets'
    # objects would show up as latency of the server.
    gc.set_threshold(100_000, 50, 100)
    uvloop.run(main(args))


if __name__ == "__main__":
    cli()

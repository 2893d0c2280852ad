"""One load-generator process of `rajas bench` (python -m rajas.bench.load, driven by bench/run.py).

It sets up its share of rooms (5 players + 2 spectators each, spread round-robin over the --url list),
says `ready`, reads the common start time from stdin, and drives every room open-loop: decision k of a room
is due at start + phase + k / rate and is timestamped with that intended time, even when it has to wait for
the previous update (so a slow server is charged for the wait: no coordinated omission). Every socket of
the room records, for every update, receive time minus intended send time. Prints one JSON object at the end.

Every socket is a wire.LeanSocket: the protocol client runs the setup on it unchanged, then the socket hands
each frame to a per-socket callback that reads only `type` and `v` (not the whole update), so the generators
take as little CPU as possible from the server they measure. The bare baseline is measured by the same
sockets. With `--clients json` every client speaks as the browser client does (client_web/net.js): the
hello and every later message are JSON text frames, so the server answers in JSON text too.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import struct
import sys
import time
from typing import Any

from rajas.protocol import client as protocol_client
from rajas.protocol import pack, to_json, unpack
from rajas.protocol.client import Client

from .peek import eyes_view, eyes_view_json, head, head_json
from .wire import LeanSocket, open_socket
from .wire import connect as lean_connect

PLAYERS, SPECTATORS = 5, 2


REFUSALS: dict[str, int] = {}  # refused decisions by error code


class Room:
    def __init__(self) -> None:
        self.intended: dict[int, float] = {}
        self.latencies: list[float] = []
        self.stamps: list[float] = []  # the intended send time of each latency's decision, for the timeline
        self.waiter: asyncio.Future[None] | None = None  # the driver waiting for the next update
        self.stopped = False  # the measured window is over
        self.v = 0
        self.game: dict[str, Any] | None = None
        self.over = False
        self.over_at: float | None = None  # when the update that ended the game came
        self.sent = 0
        self.refused = 0
        self.update_bytes = 0  # of the updates the room's eyes received
        self.updates_seen = 0

    def wake(self) -> None:
        w = self.waiter
        if w is not None and not w.done():
            w.set_result(None)

    def stop(self) -> None:
        self.stopped = True
        self.wake()


def lean_reader(room: Room, eyes: bool, text: bool = False) -> Any:
    """The per-frame callback of one socket once the game runs: updates are only timed, and decoded in full
    by one socket per room (the room's eyes), so the generator stays light. `text`: JSON text frames."""
    intended = room.intended
    record, stamp = room.latencies.append, room.stamps.append
    read_head = head_json if text else head
    decode = json.loads if text else unpack

    def on_frame(frame: bytes, now: float) -> None:
        kind, v = read_head(frame)
        if kind == "update" and v is not None:
            t = intended.get(v)
            if t is not None:
                record(now - t)
                stamp(t)
            if eyes:
                room.update_bytes += len(frame)
                room.updates_seen += 1
                status, pending = eyes_view_json(frame) if text else eyes_view(frame)
                if status is None or pending is None:  # JSON, or not the usual shape: decode it all
                    msg = decode(frame)
                    status, pending = msg["room"]["status"], msg["game"]["pending"]
                room.v, room.game = v, {"pending": pending}
                room.over = status == "over"
                if room.over and room.over_at is None:
                    room.over_at = now
                room.wake()
        elif kind == "reply" and not eyes:
            reply = decode(frame)
            if not reply["ok"]:
                room.refused += 1
                REFUSALS[reply.get("code", "?")] = REFUSALS.get(reply.get("code", "?"), 0) + 1

    return on_frame


def lean_socket(c: Client) -> LeanSocket:
    """The protocol client's socket (see main: the client's `connect` is bench_wire's)."""
    assert isinstance(c.ws, LeanSocket)
    return c.ws


async def setup_room(urls: list[str], index: int, text: bool = False) -> tuple[Room, list[LeanSocket]]:
    """A room whose socket j talks to urls[(index + j) % len(urls)]: with several nodes the players of a
    room are spread over them, as behind a load balancer without sticky sessions. `text`: every client
    speaks JSON text frames from its hello on, as the browser client does."""

    def url(j: int) -> str:
        return urls[(index + j) % len(urls)]

    binary = not text
    host = await Client(url(0), binary=binary, keep=False).connect()
    created = await host.create_room(seats=PLAYERS, grace=3600, bot="random")
    await host.join(created["code"], name="p0", host_token=created["host_token"])
    clients = [host]
    for i in range(1, PLAYERS):
        c = await Client(url(i), binary=binary, keep=False).connect()
        await c.join(created["code"], name=f"p{i}")
        clients.append(c)
    for i in range(SPECTATORS):
        c = await Client(url(PLAYERS + i), binary=binary, keep=False).connect()
        await c.join(created["watch"], role="spectator")
        clients.append(c)
    await host.start()
    for c in clients:
        await c.wait_for(lambda c: c.game is not None, timeout=30)
    room = Room()
    room.v, room.game = host.v, host.game
    # Hand the sockets to the lean reader: stop the protocol client's reader task (frames it has not read
    # yet stay queued in the socket and go to the lean reader first).
    for c in clients:
        assert c._reader is not None
        c._reader.cancel()
    socks = [lean_socket(c) for c in clients]
    for i, sock in enumerate(socks):
        sock.lean(lean_reader(room, eyes=i == len(socks) - 1, text=text))
    return room, socks


async def wait_update(room: Room) -> None:
    """Until the update of the room's last decision arrived (or the measured window ended: Room.stop)."""
    while room.v < room.sent and not room.over and not room.stopped:
        room.waiter = asyncio.get_running_loop().create_future()
        await room.waiter
        room.waiter = None


async def turn(room: Room, start: float, phase: float, k: int, rate: float, end: float) -> float | None:
    """Waits for decision k of a room: until it is due, then for the update of the room's previous decision
    (one in flight per room; the wait is still charged from the due time). Returns the time the decision is
    stamped with (its due time; in a closed loop, now), or None once the run or the game is over."""
    due = start + phase + k / rate if rate > 0 else time.perf_counter()
    if due >= end:
        return None
    delay = due - time.perf_counter()
    if delay > 0:
        await asyncio.sleep(delay)
    if room.v < room.sent:
        await wait_update(room)
    if room.over or room.stopped or time.perf_counter() >= end:
        return None
    return due if rate > 0 else time.perf_counter()


async def drive_room(
    room: Room, socks: list[LeanSocket], start: float, end: float, rate: float, seed: int, text: bool = False
) -> None:
    rng = random.Random(seed)
    encode: Any = to_json if text else pack
    players = socks[:PLAYERS]
    phase = rng.random() / rate if rate > 0 else 0.0
    k = 0
    while (stamp := await turn(room, start, phase, k, rate, end)) is not None:
        assert room.game is not None
        pending = room.game["pending"]
        wire = rng.choice(pending["options"])
        v = room.v
        room.intended[v + 1] = stamp
        room.sent = v + 1
        players[pending["player"]].send_now(encode({"type": "decide", "id": f"b{v}", "decision": wire, "v": v}))
        k += 1


# ---- bare baseline ------------------------------------------------------------------------------------------


def bare_reader(room: Room, eyes: bool, text: bool = False) -> Any:
    """`text`: the version is the frame's first 8 characters, in hex; else its first 4 bytes."""
    intended = room.intended
    record, stamp = room.latencies.append, room.stamps.append
    unpack_v = struct.Struct("<I").unpack_from

    def on_frame(frame: bytes, now: float) -> None:
        v = int(frame[:8], 16) if text else unpack_v(frame)[0]
        t = intended.get(v)
        if t is not None:
            record(now - t)
            stamp(t)
        if eyes:
            room.v = v
            room.wake()

    return on_frame


async def setup_bare(url: str, index: int, payload: int, text: bool = False) -> tuple[Room, list[LeanSocket]]:
    room = Room()
    name = f"room-{index}-{random.getrandbits(32)}"
    socks = []
    for _ in range(PLAYERS + SPECTATORS):
        ws = await open_socket(url)
        ws.send_now(name)
        socks.append(ws)
    await asyncio.sleep(0.05)
    for i, ws in enumerate(socks):
        ws.lean(bare_reader(room, eyes=i == len(socks) - 1, text=text))
    return room, socks


async def drive_bare(
    room: Room, socks: list[LeanSocket], start: float, end: float, rate: float, seed: int, payload: int,
    text: bool = False,
) -> None:
    rng = random.Random(seed)
    phase = rng.random() / rate if rate > 0 else 0.0
    filler = bytes(max(0, payload - 4))
    text_filler = "x" * max(0, payload - 8)
    k = 0
    while (stamp := await turn(room, start, phase, k, rate, end)) is not None:  # as ours: one in flight per room
        v = room.v + 1
        room.intended[v] = stamp
        room.sent = v
        socks[rng.randrange(PLAYERS)].send_now(f"{v:08x}{text_filler}" if text else struct.pack("<I", v) + filler)
        k += 1


async def main(args: argparse.Namespace) -> None:
    urls = args.url.split(",")
    sem = asyncio.Semaphore(20)
    # Every socket of this process, the protocol client's included, is a LeanSocket: the client's setup runs
    # unchanged on top of it, and the socket then switches to the lean reader.
    vars(protocol_client)["connect"] = lean_connect

    if args.target == "idle":
        idle = []
        for i in range(args.rooms):
            async with sem:
                idle.append(await Client(urls[i % len(urls)], keep=False).connect())
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        return

    async def one(i: int) -> tuple[Room, list[LeanSocket]]:
        async with sem:
            if args.target == "bare":
                return await setup_bare(urls[i % len(urls)], args.index * 100_000 + i, args.payload, args.bare_text)
            return await setup_room(urls, args.index + i, text=args.clients == "json")

    rooms = await asyncio.gather(*(one(i) for i in range(args.rooms)))
    gc.collect()
    gc.freeze()  # what setup made lives to the end: no collection needs to walk it again
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    start_wall, duration = (float(x) for x in line.split())
    start = time.perf_counter() + (start_wall - time.time())
    end = start + duration

    def stop() -> None:  # wakes the drivers still waiting for an update when the window closes
        for r, _ in rooms:
            r.stop()

    asyncio.get_running_loop().call_later(max(0.0, end - time.perf_counter()), stop)
    if args.target == "bare":
        runs = [
            drive_bare(r, s, start, end, args.rate, i, args.payload, args.bare_text) for i, (r, s) in enumerate(rooms)
        ]
    else:
        text = args.clients == "json"
        runs = [drive_room(r, s, start, end, args.rate, i, text) for i, (r, s) in enumerate(rooms)]
    await asyncio.gather(*runs)
    await asyncio.sleep(max(0.0, end - time.perf_counter()) + args.drain)
    lat = [x for r, _ in rooms for x in r.latencies]
    out = {
        "decisions": sum(len(r.intended) for r, _ in rooms),
        "deliveries": len(lat),
        "update_bytes": sum(r.update_bytes for r, _ in rooms),
        "updates_seen": sum(r.updates_seen for r, _ in rooms),
        "refused": sum(r.refused for r, _ in rooms),
        "refusals": REFUSALS,
        "games_over": sum(r.over for r, _ in rooms),
        "over_ms": [round((r.over_at - start) * 1e3) for r, _ in rooms if r.over_at is not None],
        "sent_ms": [round((t - start) * 1e3) for r, _ in rooms for t in r.intended.values()],
        "closed_sockets": sum(s.closed for _, socks in rooms for s in socks),
        "lat_us": [round(x * 1e6) for x in lat],
        "at_ms": [round((t - start) * 1e3) for r, _ in rooms for t in r.stamps],
    }
    print(json.dumps(out), flush=True)
    for _, socks in rooms:
        for s in socks:
            if s.transport is not None:
                s.transport.abort()


def cli() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True, help="websocket url; several, comma-separated: sockets spread over them")
    p.add_argument("--target", choices=("ours", "bare", "idle"), default="ours")
    p.add_argument("--rooms", type=int, required=True)
    p.add_argument("--rate", type=float, default=1.0, help="decisions per second per room; 0: as fast as possible")
    p.add_argument("--payload", type=int, default=2000)
    p.add_argument("--index", type=int, default=0)
    p.add_argument("--drain", type=float, default=1.0)
    p.add_argument("--clients", choices=("msgpack", "json"), default="msgpack", help="the frames clients speak")
    p.add_argument("--bare-text", action="store_true", help="the baseline's messages are text frames")
    args = p.parse_args()
    import uvloop
    from rajas.server.serve import raise_fd_limit

    raise_fd_limit()
    # The generator must not add its own pauses to what it measures: full GC passes over thousands of sockets'
    # objects would show up as latency of the server.
    gc.set_threshold(100_000, 50, 100)
    uvloop.run(main(args))


if __name__ == "__main__":
    cli()

"""A crowd in one room (issue 32): a spectator's join or leave costs the same whatever the room's size. Presence
reaches the room's connections at most once a second per node, not once per arrival; the snapshot is made once per
room version and shared by the arrivals; a frame is encoded once and a big room's fan-out goes a slice at a time,
in order, letting the event loop serve others between slices. Everyone still ends with the right counts and the
newest version. On both stores, through the hub with connections that record what they are sent."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import orjson
import pytest
from rajas.games.dice_charmers.engine.bots import random_bot
from rajas.protocol.messages import RoomSettings, Start
from rajas.server.frames import Frame
from rajas.server.rooms import changes, hub
from rajas.server.rooms.hub import Hub
from rajas.server.rooms.room import Room

from .conftest import make_store

CROWD = 400  # spectators: more than a slice of the fan-out (hub.FANOUT_SLICE)
_cids = itertools.count(1)


class Member:
    """A connection as the hub sees it, keeping every frame it was sent (the JSON text a browser would read)."""

    def __init__(self) -> None:
        self.cid = next(_cids)
        self.binary = False
        self.code: str | None = None
        self.role: str | None = None
        self.token: str | None = None
        self.seat_id: str | None = None
        self.frames: list[Frame] = []

    def push(self, frame: Frame) -> None:
        self.frames.append(frame)

    def send(self, obj: Any) -> Frame:
        frame = Frame(obj)
        self.push(frame)
        return frame

    def sent(self, kind: str) -> list[dict[str, Any]]:
        got = [orjson.loads(f.json) for f in self.frames if f.json.startswith(b'{"type":"%s"' % kind.encode())]
        return got


async def _playing(h: Hub, players: int = 2) -> tuple[Room, list[Member], list[str]]:
    """A started room with `players` seated connections; (room, their members, their seat tokens)."""
    room = await h.create_room(RoomSettings(seats=players))
    members, tokens = [], []
    for i in range(players):
        got = await h.change(room.code, changes.TakeSeat(f"p{i}", room.host_token if i == 0 else None))
        assert got is not None
        m = Member()
        await h.attach(m, room.code, "player", got["token"], got["id"])
        members.append(m)
        tokens.append(got["token"])
    await h.change(room.code, changes.HostAction(room.host_token, None, Start(type="start", id="s"), time.time()))
    return await h.load(room.code, fresh=True), members, tokens


async def _decide(h: Hub, code: str, tokens: list[str], mid: str) -> int:
    room = await h.load(code, fresh=True)
    assert room.state is not None
    wire = random_bot(1)(room.state).to_wire()
    got = await h.change(code, changes.Play(tokens[room.state.current], mid, wire, room.v, time.time()))
    assert got is not None
    return int(got["v"])


async def _until(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("store_kind", ["memory", "redis"])
async def test_a_crowd_joining_costs_each_connection_a_presence_frame_a_second_not_one_per_arrival(
    store_kind: str, request: pytest.FixtureRequest
) -> None:
    store = make_store(store_kind, request.getfixturevalue("redis_url") if store_kind == "redis" else None)
    await store.start()
    h = Hub(store)
    try:
        room, players, tokens = await _playing(h)
        watchers = [Member() for _ in range(CROWD)]
        started = time.monotonic()
        for m in watchers:
            await h.attach(m, room.code, "spectator", None, None)
        took = time.monotonic() - started
        # Everyone hears the final counts within a second of the last arrival (the frame that was due goes out).
        everyone = players + watchers

        def counted() -> bool:
            return all(m.sent("presence") and m.sent("presence")[-1]["spectators"] == CROWD for m in everyone)

        await _until(counted)
        elapsed = time.monotonic() - started
        frames_a_second = elapsed / hub.PRESENCE_EVERY + 2  # (the first change at once, then one a second at most)
        for m in everyone:
            presence = m.sent("presence")
            assert len(presence) <= frames_a_second, (len(presence), elapsed)
            assert sorted(presence[-1]["connected"]) == sorted(p.seat_id for p in players if p.seat_id)
        # Before: one presence frame to every connection per arrival, CROWD * (CROWD + 1) / 2 frames in all.
        pushed = sum(len(m.sent("presence")) for m in everyone)
        assert pushed <= len(everyone) * frames_a_second < CROWD * CROWD / 20
        # One snapshot for the whole crowd, made again at most once a second for the count it shows.
        snapshots = {id(f) for m in watchers for f in m.frames if f.json.startswith(b'{"type":"snapshot"')}
        assert len(snapshots) <= took / hub.PRESENCE_EVERY + 2, (len(snapshots), took)
        assert all(len(m.sent("snapshot")) == 1 for m in watchers[:: CROWD // 8])

        # A decision reaches every connection once, the same frame (encoded once), in order; so does the next.
        v1 = await _decide(h, room.code, tokens, "d1")
        v2 = await _decide(h, room.code, tokens, "d2")
        last = b'{"type":"update","v":%d,' % v2
        await _until(lambda: all(any(f.json.startswith(last) for f in m.frames) for m in everyone))
        for v in (v1, v2):
            prefix = b'{"type":"update","v":%d,' % v
            assert len({id(f) for m in everyone for f in m.frames if f.json.startswith(prefix)}) == 1
        for m in watchers[:: CROWD // 8]:
            assert [u["v"] for u in m.sent("update")] == [v1, v2]

        # Half the crowd leaves: the counts come down to the right number for those who stay, just as cheaply.
        leaving, staying = watchers[: CROWD // 2], players + watchers[CROWD // 2 :]
        for m in staying:
            m.frames.clear()
        started = time.monotonic()
        for m in leaving:
            await h.detach(m)

        def left() -> bool:
            return all(m.sent("presence") and m.sent("presence")[-1]["spectators"] == CROWD // 2 for m in staying)

        await _until(left)
        frames_a_second = (time.monotonic() - started) / hub.PRESENCE_EVERY + 2
        assert all(len(m.sent("presence")) <= frames_a_second for m in staying)
        # A late arrival gets the newest version and, within a second, the count as it is.
        late = Member()
        await h.attach(late, room.code, "spectator", None, None)
        assert late.sent("snapshot")[0]["v"] == v2
        await _until(lambda: bool(late.sent("presence")) and late.sent("presence")[-1]["spectators"] == CROWD // 2 + 1)

    finally:
        await h.close()
        await store.close()


async def test_a_big_rooms_fan_out_goes_a_slice_at_a_time_in_order_and_lets_others_run_between() -> None:
    store = make_store("memory", None)
    await store.start()
    h = Hub(store)
    try:
        room, players, tokens = await _playing(h)
        watchers = [Member() for _ in range(3 * hub.FANOUT_SLICE)]
        for m in watchers:
            await h.attach(m, room.code, "spectator", None, None)
        await asyncio.sleep(hub.PRESENCE_EVERY + 0.1)  # (the crowd's presence frame is out)
        for m in [*players, *watchers]:
            m.frames.clear()
        lr = h.rooms[room.code]
        between: list[int] = []  # how many spectators had the update when something else got its turn
        v = room.v

        def other_room() -> None:
            between.append(sum(1 for m in watchers if m.frames))

        asyncio.get_running_loop().call_soon(other_room)
        v1 = await _decide(h, room.code, tokens, "d1")
        v2 = await _decide(h, room.code, tokens, "d2")
        assert v1 == v + 1 and v2 == v + 2
        # The players' connections are written to first, with the first slice (their reply follows their update).
        assert all(p.frames for p in players)
        await _until(lambda: not lr.outbox)
        assert between and 0 < between[0] < len(watchers)  # the other work ran while the fan-out was under way
        for m in [*players, *watchers]:
            assert [orjson.loads(f.json)["v"] for f in m.frames] == [v1, v2]
        # One that leaves while a frame is on its way to it is not written to any more.
        await _decide(h, room.code, tokens, "d3")
        gone = next(m for m in watchers if len(m.frames) == 2)  # (not in the slice written at once)
        await h.detach(gone)
        await _until(lambda: not lr.outbox)
        assert len(gone.frames) == 2 and all(len(m.frames) == 3 for m in watchers if m is not gone)
    finally:
        await h.close()
        await store.close()

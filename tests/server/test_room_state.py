"""What a room holds and sends: a snapshot leaves out the sheet a client says it holds and is built once per
room version; parsed custom sheets sit in a bounded cache; GET /api/rooms reads the store's lobby index; a
room's record keeps its fixed part (with the sheet) apart from what a decision changes. Both stores."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from rajas.games.dice_charmers.engine import load_sheet
from rajas.games.dice_charmers.game import GAME
from rajas.protocol import unpack
from rajas.protocol.client import Client
from rajas.server.rooms.room import ComponentsCache
from rajas.server.storage.memory_store import MemoryStore

from .conftest import Clients, Running, mover, seated_room, sync


def custom_sheet(title: str = "Wide river", note: str = "") -> dict[str, Any]:
    return {**load_sheet("sun").to_json(), "name": "custom", "title": title, "reconstruction_note": note}


def snapshots(c: Client) -> list[dict[str, Any]]:
    return [m for m in c.received if m.get("type") == "snapshot"]


async def test_a_snapshot_leaves_out_the_sheet_the_client_holds(server: Running, clients: Clients) -> None:
    sheet = custom_sheet()
    c = await clients.open(server.url)
    created = await c.create_room(seats=2, sheet=sheet)
    await c.join(created["code"], name="a", host_token=created["host_token"])
    first = snapshots(c)[-1]
    assert first["sheet"] is not None and first["sheet_digest"] == load_sheet_digest(sheet)
    assert c.sheet_digest == first["sheet_digest"]

    await c.snapshot()  # the client says which sheet it holds: the same one, so it is left out
    lean = snapshots(c)[-1]
    assert lean["sheet"] is None and lean["sheet_digest"] == first["sheet_digest"]
    assert c.sheet == first["sheet"]  # the client draws from the one it kept

    await c.request("snapshot", sheet_digest="0000000000000000")  # another sheet: the whole file comes
    assert snapshots(c)[-1]["sheet"] == first["sheet"]
    await c.request("snapshot")  # an older client, saying nothing: the whole file, as before
    assert snapshots(c)[-1]["sheet"] == first["sheet"]

    # The host changes the sheet in the lobby: the digest the client holds is no longer the room's.
    await c.change_settings(seats=2, sheet="moon")
    await c.snapshot()
    moon = snapshots(c)[-1]
    assert moon["sheet"] == load_sheet("moon").to_json() and moon["sheet_digest"] == load_sheet("moon").digest


def load_sheet_digest(spec: dict[str, Any]) -> str:
    from rajas.games.dice_charmers.engine import parse_sheet

    return parse_sheet(spec).digest


async def test_a_client_joining_with_the_digest_gets_the_room_without_its_sheet(
    server: Running, clients: Clients
) -> None:
    sheet = custom_sheet()
    host = await clients.open(server.url)
    created = await host.create_room(seats=2, sheet=sheet)
    await host.join(created["code"], name="a", host_token=created["host_token"])
    back = await clients.open(server.url)
    back.sheet, back.sheet_digest = host.sheet, host.sheet_digest  # a reloaded page that kept the sheet
    await back.join(created["watch"], role="spectator")
    got = snapshots(back)[-1]
    assert got["sheet"] is None and back.sheet == host.sheet


async def test_repeated_snapshots_of_one_version_are_the_same_packed_frame(server: Running, clients: Clients) -> None:
    _, seated = await seated_room(clients, server.url, players=2)
    c = seated[0]
    shared = server.hub.metrics.snapshots_shared.value()
    for _ in range(5):
        await c.snapshot()
    assert server.hub.metrics.snapshots_shared.value() - shared >= 4
    got = snapshots(c)[-5:]
    assert all(s == got[0] for s in got) and got[0]["v"] == c.v
    # A decision makes a new version: the next snapshot is built again and shows it.
    m = mover(seated)
    assert m.pending is not None
    data = await m.decide(m.pending["options"][0], v=m.v)
    await sync(seated, data["v"])
    await c.snapshot()
    assert snapshots(c)[-1]["v"] == data["v"]


def test_the_sheet_cache_keeps_the_newest_sheets_up_to_its_limit() -> None:
    cache = ComponentsCache(2)
    a, b, c = ({"sheet": custom_sheet(name)} for name in "ABC")
    first = cache.get(GAME, a)
    assert cache.get(GAME, dict(a)) is first and len(cache) == 1  # equal content: one parse
    cache.get(GAME, b)
    cache.get(GAME, a)  # used again: b is now the oldest
    cache.get(GAME, c)
    assert len(cache) == 2 and cache.evictions == 1
    assert cache.get(GAME, a) is first  # still there
    assert cache.get(GAME, b) is not None and cache.evictions == 2  # parsed again after eviction


async def test_the_room_list_comes_from_the_lobby_index(server: Running, clients: Clients) -> None:
    host = await clients.open(server.url)
    listed = await host.create_room(seats=3, public=True, sheet=custom_sheet())
    hidden = await host.create_room(seats=2)

    async def rooms() -> dict[str, dict[str, Any]]:
        async with httpx.AsyncClient(base_url=server.url) as http:
            return {r["code"]: r for r in (await http.get("/api/rooms")).json()["rooms"]}

    got = await rooms()
    line = got[listed["code"]]
    sheet = line.pop("sheet")
    assert line == {
        "code": listed["code"],
        "game": "dice_charmers",
        "seats": 3,
        "taken": 0,
        "names": [],
        "spectators": True,
    }
    assert set(sheet) == {"custom"}  # a custom sheet is listed by its name, never with its file
    assert hidden["code"] not in got
    await host.join(listed["code"], name="a", host_token=listed["host_token"])
    guest = await clients.open(server.url)
    await guest.join(listed["code"], name="b")
    line = (await rooms())[listed["code"]]
    assert line["taken"] == 2 and line["names"] == ["a", "b"]  # seats taken: the line follows
    await host.change_settings(seats=2, sheet="sun", public=True)
    assert (await rooms())[listed["code"]]["seats"] == 2
    await host.start()
    assert listed["code"] not in await rooms()  # the game started: no longer in the lobby

    other = await host.create_room(seats=2, public=True)
    assert other["code"] in await rooms()
    other_host = await clients.open(server.url)
    await other_host.join(other["code"], name="h", host_token=other["host_token"])
    await other_host.change_settings(seats=2, public=False)
    assert other["code"] not in await rooms()


@pytest.mark.own_server  # fills the server's room list
async def test_the_room_list_is_bounded(memory_server: Running) -> None:
    from rajas.server.rooms.hub import LISTED

    store = memory_server.store
    assert isinstance(store, MemoryStore)
    for i in range(LISTED + 20):
        store.public[f"code{i}"] = b"\x81\xa4code\xa1x"
    async with httpx.AsyncClient(base_url=memory_server.url) as http:
        assert len((await http.get("/api/rooms")).json()["rooms"]) == LISTED


async def test_a_decision_leaves_the_fixed_part_of_the_record_as_it_was(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=2, sheet=custom_sheet(note="x" * 1000))
    code = created["code"]
    before = await fixed_part(server, code)
    assert b"x" * 1000 in before  # the sheet lives in the fixed part
    for _ in range(6):
        m = mover(seated)
        assert m.pending is not None
        data = await m.decide(m.pending["options"][0], v=m.v)
        await sync(seated, data["v"])
    assert await fixed_part(server, code) is before or await fixed_part(server, code) == before
    record = unpack(await server.store.load(code) or b"")
    assert record["v"] == seated[0].v and record["settings"]["sheet"]["reconstruction_note"] == "x" * 1000


async def fixed_part(server: Running, code: str) -> bytes:
    store = server.store
    if isinstance(store, MemoryStore):
        return store.fixed[code]
    from rajas.server.storage.redis_store import RedisStore

    assert isinstance(store, RedisStore)
    got = await store.redis.hget(store._room(code), "fix")
    assert isinstance(got, bytes)
    return got


@pytest.mark.parametrize("store_kind", ["redis"])
async def test_a_record_written_whole_gets_its_fixed_part_at_the_next_commit(server: Running) -> None:
    """A room stored whole (before records had a fixed part) is split at its next commit, nothing lost."""
    from rajas.protocol import pack
    from rajas.protocol.messages import RoomSettings
    from rajas.server.rooms import changes
    from rajas.server.rooms.room import Room

    store = server.store
    room = Room.create(RoomSettings(seats=2, sheet=custom_sheet()))  # type: ignore[call-arg]
    assert await store.create(room.code, room.watch, pack(room.to_record()), False)
    new = room.clone()
    changes.take_seat(new, "a", None)
    new.v = 2
    ok = await store.commit(
        room.code, 1, pack(new.changing()), None, pack({"v": 2}), None, pack(new.fixed()), False, None
    )
    assert ok
    loaded = Room.from_record(unpack(await store.load(room.code) or b""))
    assert loaded.v == 2 and loaded.seats[0]["name"] == "a" and loaded.settings == room.settings


async def test_a_node_checks_the_store_before_refusing_from_a_copy_that_missed_updates(
    redis_url: str, clients: Clients
) -> None:
    """Node one stops hearing the room's channel (as across a Redis restart); node two plays on. A valid decision
    sent to node one without `v` is applied, not refused from node one's old copy; a wrong one is still refused."""
    from rajas.protocol.client import ServerError
    from rajas.server.storage.redis_store import RedisStore

    from .conftest import run_server

    async with run_server(RedisStore(redis_url)) as one, run_server(RedisStore(redis_url)) as two:
        a = await clients.open(one.url)
        created = await a.create_room(seats=2)
        await a.join(created["code"], name="a", host_token=created["host_token"])
        b = await clients.open(two.url)
        await b.join(created["code"], name="b")
        await a.start()
        for c in (a, b):
            await c.wait_for(lambda c: c.game is not None)
        while b.pending is not None and b.pending["player"] != b.seat:  # b is to decide
            m = mover([a, b])
            assert m.pending is not None
            await sync([a, b], (await m.decide(m.pending["options"][0], v=m.v))["v"])
        lr = one.hub.rooms[created["code"]]
        assert lr.listener is not None
        await one.store.unsubscribe(created["code"], lr.listener)  # node one hears nothing more of the room
        while b.pending is not None and b.pending["player"] == b.seat:
            data = await b.decide(b.pending["options"][0], v=b.v)
            await b.wait_for(lambda c, v=data["v"]: c.v >= v)
        assert b.pending is not None and a.v < b.v
        newest = b.v
        got = await a.decide(b.pending["options"][0])  # a's turn, though node one's copy says b's
        assert got["v"] == newest + 1
        assert one.hub.metrics.stale_refusals_avoided.value() >= 1
        with pytest.raises(ServerError) as e:  # a wrong decision is still refused, with its own code
            await a.decide(["river", [99], -1])
        assert e.value.code not in ("internal", "not_your_turn")


async def test_an_expired_room_leaves_the_lobby_index(redis_url: str) -> None:
    from rajas.protocol import pack
    from rajas.server.storage.redis_lobby import LOBBY
    from rajas.server.storage.redis_store import RedisStore

    memory = MemoryStore(ttl=10)
    assert await memory.create("m1", "mw1", b"\x80", True, b"\x80", pack({"code": "m1"}))
    assert await memory.listed(10) == [pack({"code": "m1"})]
    memory.sweep(now=memory.touched["m1"] + 11)  # abandoned past the TTL: swept
    assert await memory.listed(10) == [] and await memory.public_rooms() == []

    redis = RedisStore(redis_url, ttl=1)
    await redis.start()
    try:
        code = "expiring-room"
        assert await redis.create(code, "expiring-watch", b"\x80", True, b"\x80", pack({"code": code}))
        assert pack({"code": code}) in await redis.listed(100)
        assert await redis.redis.zscore(f"{LOBBY}public", code) is not None
        await asyncio.sleep(2.1)  # the room's keys expire; its index entries are dropped when next met
        assert pack({"code": code}) not in await redis.listed(100)
        assert await redis.redis.zscore(f"{LOBBY}public", code) is None
        assert await redis.redis.hget(f"{LOBBY}lines", code) is None
    finally:
        await redis.close()

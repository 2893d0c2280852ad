"""Game history: a finished game is archived, listed for its room, kept after the room is gone, replayed step by
step, and forgotten after the retention (or, in memory, past the count): on the in-memory store and on Redis."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
from rajas.server.fairness import log_game, verify
from rajas.server.history.service import History
from rajas.server.metrics import Metrics
from rajas.server.storage.archive import Archive, HistorySettings, MemoryArchive, game_id
from rajas.server.storage.archive_redis import RedisArchive, game_key
from rajas.server.storage.memory_store import MemoryStore
from rajas.server.storage.redis_store import RedisStore

from .conftest import Clients, Running, free_port, make_store, play_random, run_server, seated_room


async def finished_game(server: Running, clients: Clients, seed: int) -> tuple[dict[str, Any], str]:
    """Plays a 2-player game to its end; the room's creation reply and the archived game's id."""
    created, seated = await seated_room(clients, server.url, players=2)
    await play_random(seated, seed=seed)
    async with httpx.AsyncClient(base_url=server.url) as http:
        for _ in range(250):
            games = (await http.get(f"/api/rooms/{created['code']}/games")).json()["games"]
            if games:
                return created, games[0]["id"]
            await asyncio.sleep(0.02)
    raise AssertionError("the finished game was not archived")


async def remove_room(server: Running, clients: Clients, code: str) -> None:
    """The room expires: everyone has left and its keys are gone (as its TTL would do)."""
    await clients.close()
    store = server.store
    if isinstance(store, MemoryStore):
        for _ in range(100):
            if not store.sweep(time.time() + 10**6) and code not in store.records:
                break
            await asyncio.sleep(0.02)
    else:
        assert isinstance(store, RedisStore)
        await store.redis.delete(store._room(code), store._log(code), store._recent(code))


async def test_a_finished_game_is_archived_listed_and_kept_after_its_room(server: Running, clients: Clients) -> None:
    created, gid = await finished_game(server, clients, seed=3)
    async with httpx.AsyncClient(base_url=server.url) as http:
        room_log = (await http.get(f"/api/rooms/{created['code']}/log")).json()
        by_watch = (await http.get(f"/api/rooms/{created['watch']}/games")).json()["games"]
        assert [g["id"] for g in by_watch] == [gid]  # the spectator code lists the same games
        assert by_watch[0]["players"] == ["p0", "p1"] and by_watch[0]["result"] == room_log["result"]
        await remove_room(server, clients, created["code"])
        assert (await http.get(f"/api/rooms/{created['code']}")).status_code == 404
        got = await http.get(f"/api/games/{gid}")
        assert got.status_code == 200
        record = got.json()
    assert gid == game_id(record["seed"])
    assert record["code"] == created["watch"]  # named by its spectator code, never by the invite code
    assert record["seats"] == [{"name": "p0", "bot": False}, {"name": "p1", "bot": False}]
    assert record["settings"]["seats"] == 2 and record["finished"] <= time.time()
    assert record["decisions"] == room_log["decisions"] and record["final_state"] == room_log["final_state"]
    report = verify(record)
    assert report["ok"], report["problems"]


async def test_the_replay_serves_the_engine_state_at_each_step(server: Running, clients: Clients) -> None:
    _, gid = await finished_game(server, clients, seed=5)
    async with httpx.AsyncClient(base_url=server.url) as http:
        record = (await http.get(f"/api/games/{gid}")).json()
        first = (await http.get(f"/api/games/{gid}/steps", params={"from": 0, "to": 9})).json()
        total = first["total"]
        last = (await http.get(f"/api/games/{gid}/steps", params={"from": total - 1})).json()
        download = await http.get(f"/api/games/{gid}", params={"download": "1"})
    assert total == len(record["decisions"]) + 1 == len(first["marks"])
    assert [s["step"] for s in first["steps"]] == list(range(10))
    assert last["steps"][-1]["state"] == record["final_state"]
    assert "attachment" in download.headers["content-disposition"] and download.json() == record
    # Step 7 is the engine's state after the log's first seven decisions.
    game, components = log_game(record)
    state, _ = game.setup(2, record["seed"], [c["value"] for c in record["contributions"]], components)
    for seat, wire, _, _ in record["decisions"][:7]:
        state, _ = game.apply(state, game.decision(wire), seat)
    assert first["steps"][7]["state"] == json.loads(json.dumps(game.view(state, None)["state"]))
    assert first["steps"][7]["decision"][:2] == record["decisions"][6][:2]


async def test_games_past_the_retention_are_gone(store_kind: str, request: pytest.FixtureRequest) -> None:
    url = request.getfixturevalue("redis_url") if store_kind == "redis" else None
    clients = Clients()
    try:
        async with run_server(make_store(store_kind, url), history=HistorySettings(retention=3.0)) as server:
            created, gid = await finished_game(server, clients, seed=9)
            async with httpx.AsyncClient(base_url=server.url) as http:
                kept = await http.get(f"/api/games/{gid}")
                assert kept.status_code == 200
                await asyncio.sleep(max(0.0, kept.json()["finished"] + 3.2 - time.time()))
                gone = await http.get(f"/api/games/{gid}")
                assert gone.status_code == 404 and gone.json()["code"] == "game_not_found"
                assert (await http.get(f"/api/rooms/{created['code']}/games")).json()["games"] == []
    finally:
        await clients.close()


# ---- the archives themselves: pruning by the index, bounded work, the in-memory count ---------------------


def record(gid: str, finished: float) -> dict[str, Any]:
    return {"id": gid, "finished": finished, "players": ["a", "b"], "result": None, "decisions": []}


@pytest.fixture
async def archive_of(store_kind: str, request: pytest.FixtureRequest) -> Any:
    made: list[aioredis.Redis] = []

    async def make(settings: HistorySettings) -> Archive:
        if store_kind == "memory":
            return MemoryArchive(settings)
        base = str(request.getfixturevalue("redis_url"))
        r = aioredis.Redis.from_url(base.rsplit("/", 1)[0] + "/3")  # a database of its own: flushed here
        await r.flushdb()
        made.append(r)
        return RedisArchive(r, settings)

    yield make
    for r in made:
        await r.flushdb()
        await r.aclose()


async def test_pruning_forgets_old_games_a_bounded_batch_at_a_time(archive_of: Any) -> None:
    archive = await archive_of(HistorySettings(retention=60.0, prune_batch=5))
    now = time.time()
    old = [f"{i:024x}" for i in range(7)]
    for gid in old:
        assert await archive.put("ROOM1", record(gid, now - 3600))
    new = f"{99:024x}"
    await archive.put("ROOM1", record(new, now))
    assert not await archive.put("ROOM1", record(new, now))  # a game is archived once
    assert await archive.prune(now) == 5  # one pass does a bounded batch
    assert await archive.prune(now) == 2
    assert await archive.prune(now) == 0
    assert await archive.get(new) is not None
    assert all([await archive.get(gid) is None for gid in old])
    assert [s["id"] for s in await archive.of_room("ROOM1")] == [new]
    if isinstance(archive, RedisArchive):
        assert not await archive.redis.exists(*(game_key(g) for g in old))  # deleted, not merely hidden


async def test_kept_for_ever_when_the_retention_is_zero(archive_of: Any) -> None:
    archive = await archive_of(HistorySettings(retention=0.0))
    gid = f"{5:024x}"
    await archive.put("ROOM2", record(gid, 1.0))  # finished in 1970
    assert await archive.prune(time.time()) == 0
    assert (await archive.get(gid))["id"] == gid


async def test_the_memory_archive_keeps_a_bounded_count() -> None:
    archive = MemoryArchive(HistorySettings(max_games=3, per_room=2))
    now = time.time()
    for i in range(5):
        await archive.put(f"ROOM{i % 2}", record(f"{i:024x}", now + i))
    assert len(archive) == 3 and archive.pruned == 2
    assert await archive.get(f"{0:024x}") is None and await archive.get(f"{4:024x}") is not None
    assert [s["id"] for s in await archive.of_room("ROOM0")] == [f"{4:024x}", f"{2:024x}"]
    assert [s["id"] for s in await archive.of_room("ROOM1")] == [f"{3:024x}"]


async def test_archiving_with_the_store_away_costs_the_game_nothing(memory_server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, memory_server.url, players=2)
    await play_random(seated, seed=4)
    room = await memory_server.hub.load(created["code"])
    history = History(memory_server.store, HistorySettings(), Metrics("test"))
    history.archive = RedisArchive(aioredis.Redis.from_url(f"redis://127.0.0.1:{free_port()}/0"), HistorySettings())
    assert await history.keep(room) is None  # refused by the absent Redis: logged and counted, not raised
    assert history.archive.errors == 1 and history.archive.archived == 0
    async with httpx.AsyncClient(base_url=memory_server.url) as http:
        assert (await http.get(f"/api/rooms/{created['code']}/log")).status_code == 200


@pytest.mark.own_server  # switches the server's archiving off
async def test_a_game_whose_node_died_before_archiving_is_archived_when_its_room_lists_games(
    server: Running, clients: Clients
) -> None:
    server.hub.observers.remove(server.history)  # the committing node is gone before it archived the game
    created, seated = await seated_room(clients, server.url, players=2)
    await play_random(seated, seed=6)
    async with httpx.AsyncClient(base_url=server.url) as http:
        games = (await http.get(f"/api/rooms/{created['watch']}/games")).json()["games"]
        assert len(games) == 1
        record = (await http.get(f"/api/games/{games[0]['id']}")).json()
        again = (await http.get(f"/api/rooms/{created['code']}/games")).json()["games"]
    assert again == games  # archived once
    assert verify(record)["ok"]

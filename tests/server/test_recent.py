"""Snapshots carry the room's last updates (`recent`: {v, time, events}) so a reloaded page can show its game
log again, and every update carries the unix `time` of its commit. On both stores."""

from __future__ import annotations

import time

from rajas.server.storage.store import RECENT

from .conftest import Clients, Running, play_random, seated_room, sync


async def test_updates_have_a_time_and_snapshots_the_recent_ones(server: Running, clients: Clients) -> None:
    before = time.time()
    created, seated = await seated_room(clients, server.url, players=2, start=False, seats=3)
    live = seated[0]
    # in the lobby: a new snapshot already has every update so far (seats taken)
    late = await clients.open(server.url)
    await late.join(created["watch"], role="spectator")
    snap = next(m for m in late.received if m["type"] == "snapshot")
    assert [e["v"] for e in snap["recent"]] == list(range(2, snap["v"] + 1))
    assert snap["recent"][0]["events"][0]["type"] == "seat_taken"
    await live.start()
    for c in seated:  # (with Redis, another node's update can come after the reply: wait for it)
        await c.wait_for(lambda c: c.game is not None)
    await play_random(seated, seed=5, max_decisions=40)
    await sync(seated, seated[1].v)
    updates = {m["v"]: m for m in live.received if m["type"] == "update"}
    assert updates and all(before <= u["time"] <= time.time() for u in updates.values())
    times = [updates[v]["time"] for v in sorted(updates)]
    assert times == sorted(times)
    # a reload: a new connection with the seat token gets the last RECENT updates exactly as they were sent
    back = await clients.open(server.url, binary=False)
    await back.join(created["code"], token=seated[1].token)
    snap = next(m for m in back.received if m["type"] == "snapshot")
    recent = snap["recent"]
    assert len(recent) == min(RECENT, snap["v"] - 1)
    assert [e["v"] for e in recent] == list(range(snap["v"] - len(recent) + 1, snap["v"] + 1))
    for e in recent:
        if e["v"] in updates:
            assert e["events"] == updates[e["v"]]["events"] and e["time"] == updates[e["v"]]["time"]
    # asked for explicitly, too
    await back.snapshot()
    await back.wait_for(lambda c: sum(m["type"] == "snapshot" for m in c.received) >= 2)
    again = [m for m in back.received if m["type"] == "snapshot"][-1]
    assert again["recent"][-1]["v"] == again["v"]


async def test_recent_keeps_only_the_last_ones(server: Running) -> None:
    from rajas.protocol import pack, unpack

    store = server.store
    code, watch = "rec-ent0-test", "rec-ent1-test"
    assert await store.create(code, watch, b"rec", False)
    for v in range(1, RECENT + 11):
        assert await store.commit(code, v, b"rec", None, pack({"v": v + 1}), pack({"v": v + 1, "events": []}))
    got = [unpack(r)["v"] for r in await store.recent(code)]
    assert got == list(range(12, RECENT + 12))
    assert await store.commit(code, RECENT + 11, b"rec", None, pack({"v": 0}))  # without a recent entry: fine
    assert len(await store.recent(code)) == RECENT

"""Failures: a node killed with -9 in the middle of games, and Redis killed and restarted. Players come back
through the balancer and finish; every acknowledged decision is in the game's log, none twice."""

from __future__ import annotations

import asyncio
import time

from rajas.protocol.client import Client

from .players import check_and_close, seat_room
from .topology import Topology


async def _finish(top: Topology, rooms: list[tuple[dict, list, list]], pause: asyncio.Event) -> None:
    plays = [asyncio.ensure_future(s.play(pause)) for _, seats, _ in rooms for s in seats]
    done = await asyncio.wait_for(asyncio.gather(*plays), timeout=120)
    assert all(c.over for c in done)
    for _, _, watchers in rooms:
        for w in watchers:
            await w.wait_for(lambda c: c.over, timeout=20)  # spectators were not on the killed node... or came back
    await check_and_close(top.url, rooms)


async def test_kill_9_a_node_in_the_middle_of_games(three_nodes: Topology) -> None:
    rooms = [await seat_room(three_nodes.url, players=4, grace=30, bot="random") for _ in range(3)]
    for _, seats, _ in rooms:
        for s in seats:
            s.think = 0.002
    go = asyncio.Event()
    go.set()
    task = asyncio.ensure_future(_finish(three_nodes, rooms, go))
    await asyncio.sleep(1.0)  # games under way
    assert not task.done()
    victim = three_nodes.kill_node(1)
    try:
        await task
    finally:
        three_nodes.start_node(1)  # a fresh node in its place for the next tests
    assert sum(s.reconnects for _, seats, _ in rooms for s in seats) >= 1, f"nobody was on {victim.name}"


async def test_turn_clock_and_bot_survive_the_node_that_ran_them(three_nodes: Topology) -> None:
    """The clock runs on the node that made the last commit; kill exactly that node while everyone waits."""
    created, seats, _ = await seat_room(three_nodes.url, players=2, turn_clock=1.5, grace=30, bot="random")
    at_kill = seats[0].client.v if seats[0].client else 0
    armed = [i for i, n in enumerate(three_nodes.nodes) if n.metrics()['rajas_timers{kind="clock"}'] >= 1]
    assert len(armed) == 1
    slot = armed[0]
    three_nodes.kill_node(slot)
    killed_at = time.monotonic()
    try:
        # Nobody moves. The clock's node is gone; a node holding a connection of the room (at least the
        # spectator's, who comes in through the balancer now) sees the missed deadline, expires the turn,
        # and the bot finishes it.
        w = await Client(three_nodes.url, keep=True).connect()
        await w.join(created["watch"], role="spectator")
        await w.wait_for(lambda c: c.v > at_kill + 1, timeout=15)
        await w.wait_for(lambda c: any(e["type"] == "decided" and e["by"] == "bot" for e in c.events), timeout=15)
        assert time.monotonic() - killed_at < 10
        alive = [n for n in three_nodes.nodes if n.proc.poll() is None]
        # the watchdog of a node holding a connection took the clock over, or that node committed first:
        # marking away the seats whose connections died with the node (a commit arms the clock where it is made)
        marked = any(e["type"] == "away" for e in w.events) or any(s.get("bot_at") for s in w.room["seats"])  # type: ignore[index]
        assert sum(n.metrics().get('rajas_takeovers_total{kind="clock"}', 0) for n in alive) >= 1 or marked
        await w.close()
        for s in seats:
            if s.client is not None:
                await s.client.close()
    finally:
        three_nodes.start_node(slot)


async def test_redis_restart_keeps_every_room(three_nodes: Topology) -> None:
    rooms = [await seat_room(three_nodes.url, players=3, spectators=1, grace=30, bot="random") for _ in range(2)]
    for _, seats, _ in rooms:
        for s in seats:
            s.think = 0.003
    go = asyncio.Event()
    go.set()
    task = asyncio.ensure_future(_finish(three_nodes, rooms, go))
    await asyncio.sleep(0.8)
    assert not task.done()
    three_nodes.kill_redis()  # kill -9: only the append-only file remembers
    await asyncio.sleep(0.5)
    three_nodes.start_redis()
    await task
    retries = sum(s.internal_retries + s.reconnects for _, seats, _ in rooms for s in seats)
    noticed = sum(n.metrics().get("rajas_store_reconnects_total", 0) for n in three_nodes.nodes)
    assert retries + noticed >= 1  # the outage was hit (clients now rarely see it: the store retries)

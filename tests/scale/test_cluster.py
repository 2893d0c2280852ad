"""The deployment on a Redis Cluster of three masters (`RAJAS_REDIS_URL=redis+cluster://...`): two nodes behind
nginx play whole games, the players of one room on both nodes; rooms live on the masters owning their slots, and
each master that holds rooms runs their commits."""

from __future__ import annotations

import asyncio

import pytest
from rajas.bench.bots import run_bots
from rajas.server.fairness import verify
from rajas.server.storage.redis_cluster import key_slot

from .players import check_acked, check_and_close, fetch_log, seat_room
from .topology import Topology


def rooms_by_master(top: Topology) -> dict[int, set[str]]:
    """Each master's rooms, from the keys it holds (each checked to be in a slot that master serves)."""
    assert top.cluster is not None
    out: dict[int, set[str]] = {}
    for port in top.cluster.ports:
        keys = top.cluster.cli("--scan", "--pattern", "rajas:{*}:room", port=port).split()
        for k in keys:
            assert int(top.cluster.cli("cluster", "countkeysinslot", str(key_slot(k.encode())), port=port)) >= 1
        out[port] = {k.split("{", 1)[1].split("}", 1)[0] for k in keys}
    return out


def commits_by_master(top: Topology) -> dict[int, int]:
    assert top.cluster is not None
    out = {}
    for port in top.cluster.ports:
        stats = top.cluster.cli("info", "commandstats", port=port)
        line = next((x for x in stats.splitlines() if x.startswith("cmdstat_evalsha:")), "calls=0,")
        out[port] = int(line.split("calls=", 1)[1].split(",", 1)[0])
    return out


@pytest.mark.timeout(600)  # minutes on a loaded machine
async def test_games_through_the_balancer_on_a_cluster(cluster_nodes: Topology) -> None:
    before = [n.metrics() for n in cluster_nodes.nodes]
    commits_before = commits_by_master(cluster_nodes)
    result = await run_bots(cluster_nodes.url, players=4, games=6, spectators=1, concurrency=3, timeout=180)
    assert result["errors"] == 0, result["error_samples"]
    assert result["completed"] == 6 and result["verified"] == 6 and result["states_match"]
    for b, a in zip(before, [n.metrics() for n in cluster_nodes.nodes], strict=True):
        assert a['rajas_decisions_total{by="player"}'] > b.get('rajas_decisions_total{by="player"}', 0)
    held = rooms_by_master(cluster_nodes)
    assert sum(len(rooms) for rooms in held.values()) >= 3  # (a room per table; each played two games by rematch)
    commits_after = commits_by_master(cluster_nodes)
    for port, rooms in held.items():  # a room's decisions are committed on the master that holds it
        if rooms:
            assert commits_after[port] > commits_before[port]


async def test_one_room_spread_over_both_nodes_on_a_cluster(cluster_nodes: Topology) -> None:
    created, seats, watchers = await seat_room(cluster_nodes.url, players=5, spectators=2)
    holders = [n for n in cluster_nodes.nodes if n.metrics()["rajas_rooms"] >= 1]
    assert len(holders) == 2  # 7 sockets round robin over 2 nodes: both hold the room
    await asyncio.gather(*(s.play() for s in seats))
    for w in watchers:
        await w.wait_for(lambda c: c.over, timeout=10)
    log = fetch_log(cluster_nodes.url, created["code"])
    assert verify(log)["ok"]
    check_acked(log, seats)
    states = [s.client.game for s in seats if s.client is not None] + [w.game for w in watchers]
    assert all(st == states[0] for st in states)
    for c in [*(s.client for s in seats), *watchers]:
        if c is not None:
            await c.close()


async def test_a_node_killed_mid_game_on_a_cluster(cluster_nodes: Topology) -> None:
    rooms = [await seat_room(cluster_nodes.url, players=4, grace=30, bot="random") for _ in range(2)]
    for _, seats, _ in rooms:
        for s in seats:
            s.think = 0.005  # (games long enough to be under way when the node dies)
    plays = [asyncio.ensure_future(s.play()) for _, seats, _ in rooms for s in seats]
    await asyncio.sleep(0.5)
    assert not all(p.done() for p in plays)
    cluster_nodes.kill_node(0)
    try:
        done = await asyncio.wait_for(asyncio.gather(*plays), timeout=120)
    finally:
        cluster_nodes.start_node(0)
    assert all(c.over for c in done)
    await check_and_close(cluster_nodes.url, rooms)
    assert sum(s.reconnects for _, seats, _ in rooms for s in seats) >= 1


async def test_a_master_killed_and_restarted_keeps_its_rooms(cluster_nodes: Topology) -> None:
    assert cluster_nodes.cluster is not None
    rooms = [await seat_room(cluster_nodes.url, players=4, grace=30, bot="random") for _ in range(4)]
    for _, seats, _ in rooms:
        for s in seats:
            s.think = 0.005
    plays = [asyncio.ensure_future(s.play()) for _, seats, _ in rooms for s in seats]
    await asyncio.sleep(0.5)
    assert not all(p.done() for p in plays)
    codes = {created["code"] for created, _, _ in rooms}
    ports = cluster_nodes.cluster.ports
    victim = next(i for i, port in enumerate(ports) if rooms_by_master(cluster_nodes)[port] & codes)
    cluster_nodes.cluster.kill_master(victim)  # kill -9: its rooms come back from its append-only file
    await asyncio.sleep(0.5)
    cluster_nodes.cluster.start_master(victim)
    done = await asyncio.wait_for(asyncio.gather(*plays), timeout=120)
    assert all(c.over for c in done)
    await check_and_close(cluster_nodes.url, rooms)

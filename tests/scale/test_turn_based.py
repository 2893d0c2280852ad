"""A turn-based game across two nodes on a real redis-server behind nginx: every player leaves after each of
their turns and stays away longer than the real-time grace period, with nobody connected at all in between,
and a node is killed and restarted halfway; no bot takes a seat, and the game is played to its end. The finished
game is archived, and `rajas verify` checks the archived game after the room is gone."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from rajas.protocol.client import Client
from rajas.server.fairness import verify

from .players import fetch_log
from .topology import Topology, topology

GRACE = 0.1  # the real-time grace period these rooms are given: every absence below is longer


@pytest.fixture(scope="module")
def two_nodes() -> Iterator[Topology]:
    # An hour of a turn limit is 2 s here, so a limit of 24 "hours" is 48 s: never reached in this test.
    with topology(2, env={"RAJAS_TURN_UNIT": "2"}) as top:
        yield top


async def _play_turn(url: str, code: str, token: str, rng: random.Random) -> tuple[bool, list[dict[str, object]]]:
    """A player comes back with their seat token, plays their turn, and leaves. Returns (game over, events)."""
    c = await Client(url).connect()
    try:
        await c.join(code, token=token)
        await c.wait_for(lambda c: c.room is not None and c.game is not None)
        seat = c.seat
        while not c.over and c.pending is not None and c.pending["player"] == seat:
            data = await c.decide(rng.choice(c.pending["options"]), v=c.v)
            await c.wait_for(lambda c, v=data["v"]: c.v >= v)
        return c.over, list(c.events)
    finally:
        await c.close()


@pytest.mark.timeout(600)  # minutes on a loaded machine
async def test_a_turn_based_game_outlasts_absences_and_a_node_restart(two_nodes: Topology) -> None:
    url = two_nodes.url
    host = await Client(url).connect()
    created = await host.create_room(seats=2, mode="turns", turn_limit=24, after_limit="bot", grace=GRACE)
    code = created["code"]
    await host.join(code, name="p0", host_token=created["host_token"])
    guest = await Client(url).connect()
    await guest.join(code, name="p1")
    tokens = {0: host.token, 1: guest.token}
    await host.start()
    await host.wait_for(lambda c: c.game is not None)
    await host.close()
    await guest.close()
    rng = random.Random(19)
    turns = 0
    restarted = False
    seen_bot = False
    over = False
    while not over:
        await asyncio.sleep(GRACE * 2.5)  # nobody is connected: longer than the grace period
        watcher = await Client(url).connect()
        await watcher.join(created["watch"], role="spectator")
        await watcher.wait_for(lambda c: c.game is not None)
        assert not any(s["bot"] for s in watcher.room["seats"])  # type: ignore[index]
        mover = watcher.pending["player"]  # type: ignore[index]
        await watcher.close()
        over, events = await _play_turn(url, code, tokens[mover], rng)
        seen_bot = seen_bot or any(e["type"] in ("bot_took_over", "clock_expired") for e in events)
        turns += 1
        if turns == 8 and not restarted:
            two_nodes.kill_node(0)
            two_nodes.start_node(0)
            restarted = True
        assert turns < 400
    assert restarted and not seen_bot
    log = fetch_log(url, code)
    assert verify(log)["ok"]
    assert all(entry[2] == "player" for entry in log["decisions"])  # every decision was a player's own

    # The game is archived; the room goes (its keys deleted, as its TTL would); the archive still verifies.
    games: list[dict[str, Any]] = []
    for _ in range(100):
        games = _get(f"{url}/api/rooms/{code}/games")["games"]
        if games:
            break
        await asyncio.sleep(0.05)
    assert len(games) == 1
    r = redis.Redis.from_url(two_nodes.redis_url)
    try:
        keys = [k for k in r.scan_iter(match=f"rajas:{{{code}}}:*") if not k.endswith(b":games")]
        r.delete(*keys, f"rajas:watch:{created['watch']}")
    finally:
        r.close()
    done = subprocess.run(
        [sys.executable, "-m", "rajas.server.cli", "verify", f"{url}/api/games/{games[0]['id']}", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["ok"], report["problems"]
    assert report["decisions"] == len(log["decisions"])


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.loads(resp.read())

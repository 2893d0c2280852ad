"""Game history across nodes (issue 19): a game played on two `rajas serve` nodes sharing a real redis-server is
archived when it ends, and `rajas verify URL` checks the archived game through the other node after the room is
gone (its keys deleted, as its TTL would)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from .players import seat_room
from .topology import Topology, topology


@pytest.fixture(scope="module")
def two_nodes() -> Iterator[Topology]:
    with topology(2) as top:
        yield top


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.loads(resp.read())


async def test_an_archived_game_verifies_through_another_node_after_its_room_is_gone(two_nodes: Topology) -> None:
    first, second = two_nodes.nodes
    created, seats, _ = await seat_room(first.url, players=3)
    assert seats[0].client is not None
    seen = seats[0].client.room["commitment"]  # type: ignore[index]  # what the page showed at the start
    await asyncio.gather(*(s.play() for s in seats))
    for s in seats:
        if s.client is not None:
            await s.client.close()
    games: list[dict[str, Any]] = []
    for _ in range(100):
        games = _get(f"{second.url}/api/rooms/{created['code']}/games")["games"]
        if games:
            break
        await asyncio.sleep(0.05)
    assert len(games) == 1 and games[0]["players"] == ["p0", "p1", "p2"]
    gid = games[0]["id"]

    # The room expires: its keys go (the archived game has none of its own TTL).
    r = redis.Redis.from_url(two_nodes.redis_url)
    try:
        code = created["code"]
        room_keys = [k for k in r.scan_iter(match=f"rajas:{{{code}}}:*") if not k.endswith(b":games")]
        assert room_keys
        r.delete(*room_keys, f"rajas:watch:{created['watch']}")
        assert r.ttl(f"rajas:game:{{{gid}}}") == -1  # kept by the index, not by a TTL
    finally:
        r.close()
    for node in (first, second):
        with pytest.raises(urllib.error.HTTPError) as gone:
            _get(f"{node.url}/api/rooms/{code}")
        assert gone.value.code == 404

    url = f"{second.url}/api/games/{gid}"
    done = subprocess.run(
        [sys.executable, "-m", "rajas.server.cli", "verify", url, "--commitment", seen, "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["ok"], report["problems"]
    assert report["decisions"] == sum(len(s.acked) for s in seats) and report["rolls"] > 10
    # and through the first node, and its replay's last step is the final state the log names
    record = _get(f"{first.url}/api/games/{gid}")
    total = len(record["decisions"]) + 1
    last = _get(f"{first.url}/api/games/{gid}/steps?from={total - 1}")["steps"][-1]
    assert last["state"] == record["final_state"]

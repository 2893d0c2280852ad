"""Provably fair dice: the commitment, the revealed seed, and `rajas verify` catching any tampering."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import httpx
from rajas.server.cli import main
from rajas.server.fairness import verify

from .conftest import Clients, Running, play_random, seated_room


async def finished_log(server: Running, clients: Clients, seed: int) -> dict[str, Any]:
    created, seated = await seated_room(clients, server.url, players=2)
    commitment = seated[0].room["commitment"]  # type: ignore[index]
    async with httpx.AsyncClient(base_url=server.url) as http:
        early = await http.get(f"/api/rooms/{created['code']}/log")
        assert early.status_code == 409  # no log (and no seed) before the end
        await play_random(seated, seed=seed)
        log: dict[str, Any] = (await http.get(f"/api/rooms/{created['code']}/log")).json()
    assert log["commitment"] == commitment == hashlib.sha256(log["seed"].encode()).hexdigest()
    return log


async def test_finished_game_verifies_and_tampering_is_caught(
    server: Running, clients: Clients, tmp_path: Path
) -> None:
    log = await finished_log(server, clients, seed=11)
    report = verify(log)
    assert report["ok"], report["problems"]
    assert report["decisions"] == len(log["decisions"]) and report["rolls"] > 10

    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    assert main(["verify", str(path)]) == 0

    other_seed = copy.deepcopy(log)
    other_seed["seed"] = "0" * 64
    assert "commitment" in verify(other_seed)["problems"][0]

    loaded = copy.deepcopy(log)
    roll_at = next(i for i, d in enumerate(loaded["decisions"]) if d[3])
    loaded["decisions"][roll_at][3][0]["faces"][0] ^= 1  # announce a different die face than the seed gave
    assert not verify(loaded)["ok"]
    path.write_text(json.dumps(loaded))
    assert main(["verify", str(path)]) == 1

    first_roll = copy.deepcopy(log)
    first_roll["start_rolls"][0]["faces"][0] ^= 1
    assert not verify(first_roll)["ok"]

    start = copy.deepcopy(log)
    start["start_player"] = 1 - start["start_player"]
    assert not verify(start)["ok"]

    cut = copy.deepcopy(log)
    cut["decisions"] = cut["decisions"][:-1]
    assert not verify(cut)["ok"]

"""Provably fair dice: the commitment, the revealed seed, and `rajas verify` catching any tampering."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
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


# ---- everyone's entropy ------------------------------------------------------------------------------------

VALUES = [hashlib.sha256(f"browser {i}".encode()).hexdigest() for i in range(3)]


async def contributed_game(server: Running, clients: Clients, seed: int, contribute: int = 3) -> dict[str, Any]:
    """A finished 3-player game in which the first `contribute` seats sent a contribution; returns its log."""
    created, seated = await seated_room(clients, server.url, players=3, start=False)
    for c, value in zip(seated[:contribute], VALUES, strict=False):
        await c.contribute(value)
    await seated[0].wait_for(lambda c: sum(s["contributed"] for s in c.room["seats"]) == contribute)  # type: ignore[index]
    await seated[0].start()
    for c in seated:
        await c.wait_for(lambda c: c.game is not None)
    await play_random(seated, seed=seed)
    async with httpx.AsyncClient(base_url=server.url) as http:
        log: dict[str, Any] = (await http.get(f"/api/rooms/{created['code']}/log")).json()
    return log


@pytest.mark.own_server  # counts the server's contributions
async def test_every_seats_contribution_is_in_the_dice(memory_server: Running, clients: Clients) -> None:
    log = await contributed_game(memory_server, clients, seed=5, contribute=2)
    assert log["dice"] == "rajas-dice/2"
    assert log["contributions"][:2] == [{"value": VALUES[0], "by": "player"}, {"value": VALUES[1], "by": "player"}]
    assert log["contributions"][2]["by"] == "bot"  # seat 2 sent nothing: its bot's value, derived from the seed
    counted = memory_server.hub.metrics.contributions
    assert (counted.value("player"), counted.value("bot")) == (2, 1)
    async with httpx.AsyncClient(base_url=memory_server.url) as http:
        assert 'rajas_dice_contributions_total{by="player"} 2' in (await http.get("/metrics")).text
    report = verify(log, log["commitment"], VALUES[1])
    assert report["ok"], report["problems"]

    # A server cannot make the dice without a player's value: swapping it for another (even for the one a bot
    # would have had, marked as the bot's) changes the rolls, and the player's own value is missing from the log.
    dropped = copy.deepcopy(log)
    dropped["contributions"][1] = {"value": hashlib.sha256(b"server's pick").hexdigest(), "by": "player"}
    problem = verify(dropped)["problems"][0]
    assert "start" in problem or "drawn" in problem, problem
    from rajas.games.rng import bot_contribution

    as_bot = copy.deepcopy(log)
    as_bot["contributions"][1] = {"value": bot_contribution(log["seed"], 1), "by": "bot"}
    assert not verify(as_bot)["ok"]
    assert "your contribution is not among" in verify(as_bot, None, VALUES[1])["problems"][-1]
    fewer = copy.deepcopy(log)
    fewer["contributions"] = fewer["contributions"][:2]
    assert "one dice contribution per seat" in verify(fewer)["problems"][0]
    chosen_bot = copy.deepcopy(log)
    chosen_bot["contributions"][2]["value"] = "0" * 64  # a bot's value the server chose, not the derived one
    assert "bot derives" in verify(chosen_bot)["problems"][0]


async def test_verify_commitment_refuses_a_log_made_from_another_seed(
    memory_server: Running, clients: Clients, tmp_path: Path
) -> None:
    mine = await contributed_game(memory_server, clients, seed=6)
    other = await contributed_game(memory_server, clients, seed=7)  # a consistent game, with its own commitment
    assert verify(other)["ok"]
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other))
    assert main(["verify", str(path), "--commitment", mine["commitment"]]) == 1
    assert "another game's log" in verify(other, mine["commitment"])["problems"][0]
    assert main(["verify", str(path), "--commitment", other["commitment"], "--contribution", VALUES[0]]) == 0


async def test_verify_refuses_an_illegal_bot_decision(memory_server: Running, clients: Clients, tmp_path: Path) -> None:
    from rajas.games.dice_charmers.engine import Decision, apply, legal_decisions, new_game

    log = await contributed_game(memory_server, clients, seed=8)
    state, _ = new_game(
        3, log["seed"], log["options"]["sheet"], contributions=[c["value"] for c in log["contributions"]]
    )
    for _seat, wire, _by, _rolls in log["decisions"][:40]:
        state, _ = apply(state, Decision.from_wire(wire))
    legal = {json.dumps(d.to_wire()) for d in legal_decisions(state)}
    illegal = next(w for w in (["pass", [], -1], ["die", [0], -1], ["reroll", [], -1]) if json.dumps(w) not in legal)
    forged = copy.deepcopy(log)
    forged["decisions"][40][1:3] = [illegal, "bot"]  # the server claims its bot took this decision
    problem = verify(forged)["problems"][0]
    assert problem.startswith("decision 40") and "bot" in problem and "not legal" in problem
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    assert main(["verify", str(path), "--commitment", log["commitment"]]) == 1
    path.write_text(json.dumps(log))
    assert main(["verify", str(path), "--commitment", log["commitment"]]) == 0


async def test_verify_never_opens_a_path_the_log_names(
    memory_server: Running, clients: Clients, tmp_path: Path
) -> None:
    log = await contributed_game(memory_server, clients, seed=9)
    sheet_file = tmp_path / "sun.json"
    from rajas.games.dice_charmers.engine.sheet import load_sheet

    sheet_file.write_text(json.dumps(load_sheet("sun").to_json()))
    for spec in (str(sheet_file), "/etc/passwd", "../sun.json"):
        named = copy.deepcopy(log)
        named["options"]["sheet"] = spec
        assert verify(named)["problems"][0].startswith("options: sheet")  # refused as a name, never opened
    carried = copy.deepcopy(log)
    carried["options"]["sheet"] = load_sheet("sun").to_json()  # a custom sheet travels inside the log
    assert verify(carried)["ok"]


async def test_contribute_refusals_change_nothing(memory_server: Running, clients: Clients) -> None:
    from rajas.protocol import pack
    from rajas.protocol.client import ServerError

    created, seated = await seated_room(clients, memory_server.url, players=2, start=False)
    host, guest = seated
    seen = host.room["commitment"]  # type: ignore[index]
    assert len(seen) == 64  # published in the lobby, before anyone contributes
    await host.contribute(VALUES[0])
    await host.contribute(VALUES[0])  # the same value again (a reloaded page): accepted, nothing changes
    v = host.v

    async def refused(c: Any, code: str, **fields: Any) -> None:
        with pytest.raises(ServerError) as e:
            await c.request("contribute", **fields)
        assert e.value.code == code

    await refused(host, "contribution_fixed", commitment=seen, value=VALUES[1])
    await refused(guest, "bad_commitment", commitment="0" * 64, value=VALUES[1])
    await refused(guest, "malformed_frame", commitment=seen, value=VALUES[1].upper())
    await refused(guest, "malformed_frame", commitment=seen, value=VALUES[1] + "0")
    await refused(guest, "malformed_frame", commitment=seen, value="0" * 5000)
    await guest.send_raw(pack({"type": "contribute", "id": "big", "commitment": seen, "value": "0" * 70_000}))
    await guest.wait_for(lambda c: any(m.get("id") == "big" for m in c.received))
    assert next(m for m in guest.received if m.get("id") == "big")["code"] == "malformed_frame"
    watcher = await clients.open(memory_server.url)
    await watcher.join(created["watch"], role="spectator")
    await refused(watcher, "not_a_player", commitment=seen, value=VALUES[2])
    loner = await clients.open(memory_server.url)
    await refused(loner, "not_joined", commitment=seen, value=VALUES[2])
    assert await guest.request("ping")  # still connected and answered
    snap = await guest.snapshot()
    assert snap["v"] == v and [s["contributed"] for s in guest.room["seats"]] == [True, False]  # type: ignore[index]
    await host.start()
    await guest.wait_for(lambda c: c.game is not None)
    await refused(guest, "wrong_phase", commitment=seen, value=VALUES[1])  # too late: the dice are rolling

"""The card game through the real server: whole games by players choosing among what the server offers, bots in
seats, a spectator, and a scan of every frame each of them received for a dice side it could not know then. A
dice side shows in a frame only as {"card", "number"}: in the receiver's own hand, on the discard pile or on its
way there (paid with, discarded: face up for everyone), or in an event addressed to the receiver; anywhere else
it is a leak."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest
from rajas.protocol.client import Client, ServerError
from rajas.server.fairness import verify

from .conftest import Clients, Running, seated_room


def leaks(c: Client) -> list[str]:
    """Every place a dice side showed in a frame `c` received where its seat (None: a spectator) may not see one."""
    seat = c.seat if c.role == "player" else None
    found: list[str] = []

    def walk(x: Any, path: str) -> None:
        if isinstance(x, dict):
            if "number" in x and "card" in x and not allowed(path):
                found.append(path)
            for k, v in x.items():
                walk(v, f"{path}.{k}")
        elif isinstance(x, list):
            for i, v in enumerate(x):
                walk(v, f"{path}[{i}]")

    def allowed(path: str) -> bool:
        if ".discard[" in path or "event(discarded" in path or "event(paid" in path:  # face up on the discard pile
            return True
        return seat is not None and (f".seats[{seat}].hand[" in path or f"to={seat}" in path)

    for i, msg in enumerate(c.received):
        if msg.get("type") == "snapshot" and msg["room"]["status"] == "over":
            continue  # (the seed is out: nothing is hidden any more)
        if msg.get("type") == "update" and msg["room"]["status"] == "over":
            continue
        events = [*msg.get("events", []), *(e for r in msg.get("recent") or [] for e in r["events"])]
        for e in events:
            label = f"{e['type']}" + (f" to={e['to']}" if "to" in e else "")
            walk(e, f"frame{i}.event({label})")
        if msg.get("game") is not None:
            walk(msg["game"], f"frame{i}.game")
    return found


async def play_out(seated: list[Client], seed: int, limit: int = 3000) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        if all(c.over for c in seated):
            return
        movers = [c for c in seated if c.my_turn and not c.over]
        if not movers:
            await asyncio.sleep(0.005)
            continue
        c = movers[0]
        assert c.pending is not None and "options" in c.pending
        try:
            await c.decide(rng.choice(c.pending["options"]), v=c.v)
        except ServerError as e:
            assert e.code == "stale_version"
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_whole_card_game_shows_no_one_a_dice_side_before_its_time(
    memory_server: Running, clients: Clients, players: int
) -> None:
    created, seated = await seated_room(clients, memory_server.url, players=players, game="card_game")
    watcher = await clients.open(memory_server.url)
    await watcher.join(created["watch"], role="spectator")
    for c in seated:
        assert c.game is not None and ("options" in c.game["pending"]) == c.my_turn  # options for the mover only
    async with httpx.AsyncClient(base_url=memory_server.url) as http:
        early = await http.get(f"/api/rooms/{created['code']}/log")
    assert early.status_code == 409  # the log waits for the end of the game (its seed pairs every card)
    await play_out(seated, seed=players)
    for c in (*seated, watcher):
        await c.wait_for(lambda c: c.over, timeout=20)
        assert leaks(c) == [], leaks(c)[:5]
    # Each seat did see its own hand's dice sides (the scan is not looking at nothing).
    me = seated[0]
    own = [h for m in me.received if m.get("game") for h in m["game"]["state"]["seats"][me.seat or 0]["hand"]]
    assert own and all("number" in h for h in own)
    async with httpx.AsyncClient(base_url=memory_server.url) as http:
        log = (await http.get(f"/api/rooms/{created['code']}/log")).json()
    report = verify(log)
    assert report["ok"], report["problems"]
    assert log["game"] == "card_game" and len(log["decisions"]) > 20


async def test_bots_play_the_card_game_for_nobody_but_the_person_who_started_it(
    memory_server: Running, clients: Clients
) -> None:
    host = await clients.open(memory_server.url)
    created = await host.create_room(seats=3, game="card_game")
    await host.join(created["code"], name="solo", host_token=created["host_token"])
    await host.add_bot("greedy")
    await host.add_bot("random")
    await host.start()
    await host.wait_for(lambda c: c.game is not None)
    await play_out([host], seed=7)
    await host.wait_for(lambda c: c.over, timeout=30)
    assert leaks(host) == []
    assert host.game is not None and host.game["state"]["breakdown"]  # where the points came from
    assert any(e["type"] == "decided" and e["by"] == "bot" for e in host.events)

"""The platform knows a game only through the game interface: a tiny game kept in tests (tests/games/tiny), with
cards each player holds secretly, is played through the real server, both stores, undo, bots, turn-based rooms,
rematch, the archive and replay, and `rajas verify` — the same room features the real games use — and no
frame ever shows a player another's hand, or a spectator any hand, before the game is over."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from rajas.games.registry import GAMES
from rajas.protocol.client import Client, ServerError
from rajas.server.fairness import verify

from ..games.tiny.game import GAME as TINY
from .conftest import Clients, Running, seated_room


@pytest.fixture(autouse=True)
def tiny_offered() -> Iterator[None]:
    """The tiny game in this process's registry while a test runs (never in a real server's)."""
    GAMES[TINY.id] = TINY
    try:
        yield
    finally:
        GAMES.pop(TINY.id, None)


def hands_seen(c: Client) -> dict[int, set[int]]:
    """Every card number each seat's hand showed in a frame this client received, by seat."""
    seen: dict[int, set[int]] = {}
    for msg in c.received:
        game = msg.get("game")
        if msg.get("type") in ("update", "snapshot") and game is not None:
            for seat, hand in enumerate(game["state"]["hands"]):
                if isinstance(hand, list) and not game["state"]["result"]:
                    seen.setdefault(seat, set()).update(hand)
        for e in msg.get("events") or []:
            if "to" in e:
                seen.setdefault(e["to"], set()).update(e["cards"])
        for entry in msg.get("recent") or []:
            for e in entry["events"]:
                if "to" in e:
                    seen.setdefault(e["to"], set()).update(e["cards"])
    return seen


async def play_out(seated: list[Client], seed: int) -> None:
    """Each player picks at random among what the server offers it, until the game is over."""
    rng = random.Random(seed)
    for _ in range(500):
        if all(c.over for c in seated):
            return
        movers = [c for c in seated if c.my_turn and not c.over]
        if not movers:
            await asyncio.sleep(0.01)
            continue
        c = movers[0]
        assert c.pending is not None
        try:
            await c.decide(rng.choice(c.pending["options"]), v=c.v)
        except ServerError as e:
            assert e.code == "stale_version"
        await asyncio.sleep(0)
    raise AssertionError("the game did not end")


async def test_a_whole_game_of_another_game_through_the_real_server(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=3, game="tiny")
    watcher = await clients.open(server.url)
    await watcher.join(created["watch"], role="spectator")
    assert seated[0].room is not None and seated[0].room["settings"]["game"] == "tiny"
    await play_out(seated, seed=1)
    for c in (*seated, watcher):
        await c.wait_for(lambda c: c.over, timeout=10)
    # Nobody saw a hand but their own before the end; a spectator saw none.
    for c in seated:
        assert set(hands_seen(c)) <= {c.seat}, hands_seen(c)
    assert hands_seen(watcher) == {}
    async with httpx.AsyncClient(base_url=server.url) as http:
        log = (await http.get(f"/api/rooms/{created['code']}/log")).json()
        games = (await http.get(f"/api/rooms/{created['code']}/games")).json()["games"]
    assert log["game"] == "tiny" and verify(log)["ok"], verify(log)["problems"]
    assert [g["id"] for g in games] and games[0]["players"] == log["players"]  # archived with the room's games
    forged = json.loads(json.dumps(log))
    forged["seed"] = "another"
    assert not verify(forged)["ok"]
    assert watcher.room is not None and [s["score"] for s in watcher.room["series"]["seats"]]


async def test_undo_within_the_turn_of_another_game_and_never_across_a_draw(
    server: Running, clients: Clients
) -> None:
    _, seated = await seated_room(clients, server.url, players=2, game="tiny")
    me = next(c for c in seated if c.my_turn)
    assert me.pending is not None and me.game is not None
    before = me.game["state"]
    play = next(o for o in me.pending["options"] if o[0] == "play")
    await me.decide(play, v=me.v)
    await me.wait_for(lambda c: c.game is not None and c.game["undo"] == 1)
    await me.undo(v=me.v)
    await me.wait_for(lambda c: c.game is not None and c.game["state"] == before)
    assert me.pending is not None
    await me.decide(["draw"], v=me.v)
    await me.wait_for(lambda c: c.game is not None and c.game["state"]["deck"] < before["deck"])
    with pytest.raises(ServerError) as refused:
        await me.undo(v=me.v)
    assert refused.value.code == "undo_after_roll"


async def test_bots_play_another_game_and_a_turn_based_skip_ends_its_turns(
    memory_server: Running, clients: Clients
) -> None:
    host = await clients.open(memory_server.url)
    created = await host.create_room(seats=3, game="tiny")
    await host.join(created["code"], name="person", host_token=created["host_token"])
    await host.add_bot("greedy")
    await host.add_bot("random")
    await host.start()
    await host.wait_for(lambda c: c.game is not None)
    await play_out([host], seed=2)
    await host.wait_for(lambda c: c.over, timeout=10)
    assert any(e["type"] == "decided" and e["by"] == "bot" for e in host.events)
    # Another game's rematch: the series counts what that game sums.
    await host.rematch()
    await host.wait_for(lambda c: c.room is not None and c.room["status"] == "lobby")
    assert host.room is not None and host.room["series"]["played"] == 1
    assert "score" in host.room["series"]["seats"][0]


async def test_the_replay_of_another_game_shows_every_hand_once_it_is_over(
    memory_server: Running, clients: Clients
) -> None:
    created, seated = await seated_room(clients, memory_server.url, players=2, game="tiny")
    await play_out(seated, seed=3)
    await seated[0].wait_for(lambda c: c.over, timeout=10)
    async with httpx.AsyncClient(base_url=memory_server.url) as http:
        games = (await http.get(f"/api/rooms/{created['code']}/games")).json()["games"]
        gid = games[0]["id"]
        outline = (await http.get(f"/api/games/{gid}/replay")).json()
        steps = (await http.get(f"/api/games/{gid}/steps", params={"from": 0, "to": 0})).json()["steps"]
    assert outline["game"] == "tiny" and outline["total"] > 2
    first: Any = steps[0]["state"]
    assert all(isinstance(h, list) for h in first["hands"])  # nothing is hidden in a finished game's replay


async def test_settings_another_game_does_not_know_are_refused(memory_server: Running, clients: Clients) -> None:
    host = await clients.open(memory_server.url)
    with pytest.raises(ServerError) as refused:
        await host.create_room(seats=2, game="tiny", sheet="moon")  # the Dice Charmers' setting, not this game's
    assert refused.value.code == "bad_settings" and "sheet" in refused.value.message
    with pytest.raises(ServerError) as refused:
        await host.create_room(seats=5, game="tiny")  # 2-4 players
    assert refused.value.code == "bad_settings"
    assert await host.create_room(seats=4, game="tiny", target=7)

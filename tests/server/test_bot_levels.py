"""The bots a room offers are its game's: the room view lists them, a host seats any of them (the Dice Charmers'
expert plays a whole game, its search capped by RAJAS_BOT_THINK and run in a worker process), and a kind the
game does not offer is refused, in the settings and in `add_bot`."""

from __future__ import annotations

import asyncio
import random

import pytest
from pydantic import ValidationError
from rajas.protocol.client import Client, ServerError
from rajas.server.config import ServeSettings
from rajas.server.storage.memory_store import MemoryStore

from .conftest import Clients, Running, run_server


async def refused(code: str, request: object) -> None:
    with pytest.raises(ServerError) as e:
        await request  # type: ignore[misc]
    assert e.value.code == code


async def play_against_bots(c: Client, seed: int, limit: int = 3000) -> int:
    """`c` takes random legal decisions whenever it is to move, until the game is over; returns how many."""
    rng = random.Random(seed)
    n = 0
    for _ in range(limit):
        if c.over:
            return n
        if not c.my_turn:
            await asyncio.sleep(0.005)
            continue
        assert c.pending is not None
        try:
            await c.decide(rng.choice(c.pending["options"]), v=c.v)
            n += 1
        except ServerError as e:
            assert e.code == "stale_version"  # (the page saw the version before a bot's decision)
    raise AssertionError("the game did not end")


@pytest.mark.timeout(120)
async def test_a_host_seats_an_expert_that_plays_a_whole_dice_charmers_game(clients: Clients) -> None:
    settings = ServeSettings(bot_think=0.02, bot_processes=1)  # (a short think: a quick test)
    async with run_server(MemoryStore(), settings) as server:
        host = await clients.open(server.url)
        created = await host.create_room(seats=2, bot="expert")
        await host.join(created["code"], name="solo", host_token=created["host_token"])
        assert host.room is not None
        assert {"random", "greedy", "easy", "normal", "expert"} == set(host.room["bots"])
        assert host.room["settings"]["bot"] == "expert"
        await host.add_bot("expert")
        await host.wait_for(lambda c: len(c.room["seats"]) == 2)  # type: ignore[index]
        assert host.room["seats"][1]["kind"] == "expert"
        await host.start()
        await host.wait_for(lambda c: c.game is not None)
        assert await play_against_bots(host, seed=3) > 10
        await host.wait_for(lambda c: c.over, timeout=30)
        bot_decisions = [e for e in host.events if e["type"] == "decided" and e.get("by") == "bot"]
        assert len(bot_decisions) > 10
        assert server.tasks is not None and server.tasks.think == 0.02
        assert server.tasks._pool is not None  # the expert searched in a worker process


async def test_a_bot_kind_the_game_does_not_offer_is_refused_in_settings_and_in_add_bot(
    memory_server: Running, clients: Clients
) -> None:
    host = await clients.open(memory_server.url)
    await refused("bad_settings", host.create_room(seats=2, bot="perfect"))
    await refused("malformed_frame", host.create_room(seats=2, bot="Perfect!"))  # not a kind's shape at all
    created = await host.create_room(seats=3)
    await host.join(created["code"], name="host", host_token=created["host_token"])
    v = host.v
    await refused("bad_settings", host.change_settings(seats=3, bot="perfect"))
    await refused("bad_settings", host.add_bot("perfect"))
    await refused("malformed_frame", host.add_bot("x" * 17))
    assert (await host.request("ping"))["time"] > 0 and host.v == v  # nothing changed
    await host.change_settings(seats=3, bot="easy")
    await host.wait_for(lambda c: c.room["settings"]["bot"] == "easy")  # type: ignore[index]


async def test_a_card_game_room_refuses_a_dice_charmers_level(memory_server: Running, clients: Clients) -> None:
    host = await clients.open(memory_server.url)
    await refused("bad_settings", host.create_room(seats=2, game="card_game", bot="expert"))
    created = await host.create_room(seats=3, game="card_game")
    await host.join(created["code"], name="host", host_token=created["host_token"])
    assert host.room is not None and host.room["bots"] == ["random", "greedy"]
    await refused("bad_settings", host.add_bot("expert"))
    await refused("bad_settings", host.change_settings(seats=3, game="card_game", bot="easy"))
    # a Dice Charmers room with an expert seated cannot turn into a card game room under it
    await host.change_settings(seats=3)
    await host.wait_for(lambda c: c.room["bots"] == ["random", "greedy", "easy", "normal", "expert"])  # type: ignore[index]
    await host.add_bot("expert")
    await refused("bad_settings", host.change_settings(seats=3, game="card_game"))
    await host.remove_bot(1)
    await host.change_settings(seats=3, game="card_game")
    await host.wait_for(lambda c: c.room["bots"] == ["random", "greedy"])  # type: ignore[index]


def test_the_think_budget_defaults_to_a_second_and_refuses_what_no_search_can_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = ServeSettings()
    assert settings.bot_think == 1.0 and settings.bot_processes == 1
    monkeypatch.setenv("RAJAS_BOT_THINK", "0.25")
    monkeypatch.setenv("RAJAS_BOT_PROCESSES", "0")
    settings = ServeSettings()
    assert settings.bot_think == 0.25 and settings.bot_processes == 0
    for name, bad in (("RAJAS_BOT_THINK", "0"), ("RAJAS_BOT_THINK", "61"), ("RAJAS_BOT_PROCESSES", "-1")):
        monkeypatch.setenv(name, bad)
        with pytest.raises(ValidationError, match=name):
            ServeSettings()
        monkeypatch.delenv(name)

"""Undo within the turn over real websockets, on both stores: the player to move takes back their last
decision; everyone gets the new version; spectators, other seats, a room with undo off, and an undo after a
karma reroll are refused with their codes and change nothing; the game log with undos still verifies."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest
from rajas.games.dice_charmers.engine.bots import random_bot
from rajas.protocol import pack, unpack
from rajas.protocol.client import Client, ServerError
from rajas.protocol.messages import RoomSettings
from rajas.server.fairness import verify
from rajas.server.rooms import changes
from rajas.server.rooms.room import Room
from rajas.server.rooms.undo import available, take_back
from rajas.server.storage.store import merge_records

from tests.scale.topology import parse_metrics

from .conftest import Clients, Running, mover, seated_room, sync


async def _decide(seated: list[Client], c: Client, wire: Any) -> int:
    data = await c.decide(wire, v=c.v)
    await sync(seated, data["v"])
    return int(data["v"])


async def _until_undoable(seated: list[Client], rng: random.Random) -> tuple[Client, dict[str, Any], Any]:
    """Plays random decisions until one leaves its player something to take back; returns that player, the
    game as it was before the decision, and the decision."""
    for _ in range(400):
        c = mover(seated)
        before = json.loads(json.dumps(c.game))
        wire = rng.choice(c.pending["options"])  # type: ignore[index]
        await _decide(seated, c, wire)
        if c.game["undo"] > 0:  # type: ignore[index]
            return c, before, wire
    raise AssertionError("no decision left anything to take back")


async def _refused(c: Client, code: str, v: int | None = None) -> None:
    with pytest.raises(ServerError) as e:
        await c.undo(v=v)
    assert e.value.code == code
    assert e.value.message


async def test_a_player_takes_back_a_decision_and_everyone_sees_the_state_before_it(
    server: Running, clients: Clients
) -> None:
    created, seated = await seated_room(clients, server.url, players=3)
    watcher = await clients.open(server.url)
    await watcher.join(created["watch"])
    me, before, wire = await _until_undoable(seated, random.Random(4))
    v = me.v

    data = await me.undo(v=v)

    assert data["v"] == v + 1
    await sync([*seated, watcher], v + 1)
    for c in [*seated, watcher]:
        assert c.game["state"] == before["state"]  # type: ignore[index]
        assert c.game["pending"] == before["pending"]  # type: ignore[index]
    took = [e for e in watcher.events if e["type"] == "took_back"]
    assert took == [{"type": "took_back", "player": me.seat, "decision": wire, "left": 0}]
    # the same decision can be made again, and the game goes on
    await _decide(seated, me, wire)


async def test_nobody_else_can_undo_and_a_refusal_changes_nothing(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=3)
    watcher = await clients.open(server.url)
    await watcher.join(created["watch"])
    me, _, _ = await _until_undoable(seated, random.Random(4))
    v = me.v
    others = [c for c in seated if c is not me]

    await _refused(watcher, "not_a_player")
    for c in others:
        await _refused(c, "not_your_turn", v=v)
    await _refused(me, "stale_version", v=v - 1)

    assert all(c.v == v for c in [*seated, watcher])
    assert me.game["undo"] == 1  # type: ignore[index]
    await me.undo(v=v)  # the player still can


async def test_nothing_to_undo_at_the_start_of_a_turn_or_after_the_turn_passed(
    server: Running, clients: Clients
) -> None:
    _created, seated = await seated_room(clients, server.url, players=2)
    first = mover(seated)
    await _refused(first, "nothing_to_undo", v=first.v)  # nothing decided yet this turn
    while mover(seated) is first:
        await _decide(seated, first, first.pending["options"][0])  # type: ignore[index]
    # seat 0's turn passed: the next player has nothing to take back, and seat 0 may not
    await _refused(first, "not_your_turn", v=first.v)
    await _refused(mover(seated), "nothing_to_undo", v=first.v)


async def test_undo_is_refused_after_a_karma_reroll(server: Running, clients: Clients) -> None:
    _created, seated = await seated_room(clients, server.url, players=2)
    rng = random.Random(2)
    for _ in range(200):
        c = mover(seated)
        karma = [o for o in c.pending["options"] if o[0] == "karma"]  # type: ignore[index]
        if karma:
            await _decide(seated, c, karma[0])
            break
        await _decide(seated, c, rng.choice([o for o in c.pending["options"] if o[0] != "pass"]))  # type: ignore[index]
    else:
        raise AssertionError("karma was never offered")
    assert c.pending["phase"] == "reroll" and c.game["undo"] == 0  # type: ignore[index]
    v = c.v

    await _refused(c, "undo_after_roll", v=v)

    assert all(s.v == v for s in seated)


async def test_the_host_can_switch_undo_off(server: Running, clients: Clients) -> None:
    _created, seated = await seated_room(clients, server.url, players=2, undo=False)
    assert seated[0].room["settings"]["undo"] is False  # type: ignore[index]
    c = mover(seated)
    await _decide(seated, c, next(o for o in c.pending["options"] if o[0] == "die"))  # type: ignore[index]
    c = mover(seated)
    assert c.game["undo"] == 0  # type: ignore[index]
    await _refused(c, "undo_off", v=c.v)


async def test_a_player_cannot_take_a_die_and_take_it_back_for_ever(memory_server: Running, clients: Clients) -> None:
    """Each undo is an entry of the game log: at most UNDOS_PER_TURN of them between two barriers."""
    from rajas.server.rooms.undo import UNDOS_PER_TURN

    _created, seated = await seated_room(clients, memory_server.url, players=3)
    me, _, wire = await _until_undoable(seated, random.Random(4))
    for _ in range(UNDOS_PER_TURN - 1):
        await sync(seated, (await me.undo(v=me.v))["v"])
        await _decide(seated, me, wire)
    await sync(seated, (await me.undo(v=me.v))["v"])
    await _decide(seated, me, wire)
    assert me.game["undo"] == 0  # type: ignore[index]  # (the button is gone)
    v = me.v
    await _refused(me, "too_many_undos", v=v)
    assert all(c.v == v for c in seated)
    assert me.pending["player"] == me.seat  # type: ignore[index]  # the turn goes on: the player decides


async def test_an_undo_sent_again_is_applied_once(memory_server: Running, clients: Clients) -> None:
    _created, seated = await seated_room(clients, memory_server.url, players=3)
    me, _, _ = await _until_undoable(seated, random.Random(4))
    v = me.v
    first = await me.undo(v=v, id="undo-1")
    again = await me.undo(v=v, id="undo-1")
    assert first == again and first["v"] == v + 1
    await sync(seated, v + 1)
    assert me.v == v + 1


@pytest.mark.own_server  # counts the server's undos
async def test_a_game_with_undos_verifies(server: Running, clients: Clients) -> None:
    """The game log carries each undo as an entry `rajas verify` replays (docs/fairness.md)."""
    created, seated = await seated_room(clients, server.url, players=2)
    rng = random.Random(9)
    undos = 0
    for _ in range(3000):
        if seated[0].over:
            break
        await asyncio.sleep(0.005)  # (a person's pace: under the connection's message rate)
        c = mover(seated)
        if c.game["undo"] and rng.random() < 0.5:  # type: ignore[index]
            data = await c.undo(v=c.v)
            await sync(seated, data["v"])
            undos += 1
            continue
        await _decide(seated, c, rng.choice(c.pending["options"]))  # type: ignore[index]
    assert seated[0].over and undos >= 5
    async with httpx.AsyncClient(base_url=server.url) as http:
        log = (await http.get(f"/api/rooms/{created['code']}/log")).json()
        metrics = (await http.get("/metrics")).text
    assert sum(1 for e in log["decisions"] if e[1] == "undo") == undos
    report = verify(log)
    assert report["ok"], report["problems"]
    # an undo the player could not have made is caught
    forged = json.loads(json.dumps(log))
    at = next(i for i, e in enumerate(forged["decisions"]) if e[1] != "undo" and e[3])  # a decision that rolled
    forged["decisions"].insert(at + 1, [forged["decisions"][at][0], "undo", "player", []])
    assert not verify(forged)["ok"]
    assert parse_metrics(metrics)["rajas_undos_total"] == undos


def test_the_turns_history_is_in_the_rooms_record_so_any_node_can_take_back() -> None:
    """A node that loads the room from the store (another node committed the decision) can undo it."""
    room = Room.create(RoomSettings(seats=2))
    for i in range(2):
        changes.take_seat(room, f"p{i}", None)
    changes.start(room, 0.0)
    bot = random_bot(3)
    for k in range(200):
        room = room.clone()
        assert room.state is not None
        seat = room.state.current
        before = room.state.to_dict()
        changes.decide(room, seat, bot(room.state).to_wire(), "player", float(k))
        room.v += 1
        room.shown = room.v  # (as a commit sets them)
        if available(room):
            break
    else:
        raise AssertionError("no decision left anything to take back")
    loaded = Room.from_record(unpack(merge_records(pack(room.fixed()), pack(room.changing()))))
    assert available(loaded) == available(room) == 1

    events, entry = take_back(loaded, seat, 1.0)

    assert loaded.state is not None and loaded.state.to_dict() == before
    assert entry == [seat, "undo", "player", []] and events[0]["type"] == "took_back"
    assert available(loaded) == 0

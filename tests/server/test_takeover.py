"""A dropped seat is played by the bot after the grace period until its owner returns; the turn clock too."""

from __future__ import annotations

from .conftest import Clients, Running, mover, play_random, seated_room, sync


async def test_bot_takes_a_dropped_seat_and_lets_go_when_the_owner_returns(server: Running, clients: Clients) -> None:
    created, (a, b) = await seated_room(clients, server.url, players=2, grace=0.2, bot="random")
    token = b.token
    await b.close()
    # After the grace period the room shows the bot in seat b, and the game goes on without b.
    await a.wait_for(lambda c: c.room["seats"][1]["bot"], timeout=5)  # type: ignore[index]
    assert any(e["type"] == "bot_took_over" and e["player"] == 1 for e in a.events)
    for _ in range(3):  # a plays; the bot answers for b each time it is b's turn
        await a.wait_for(lambda c: c.my_turn or c.over, timeout=5)
        await play_until_not_my_turn(a)
    assert any(e["type"] == "decided" and e["by"] == "bot" and e["player"] == 1 for e in a.events)
    back = await clients.open(server.url)
    await back.join(created["code"], token=token)
    await a.wait_for(lambda c: not c.room["seats"][1]["bot"], timeout=5)  # type: ignore[index]
    assert any(e["type"] == "bot_released" for e in a.events)
    await back.wait_for(lambda c: c.v == a.v)
    await play_random([a, back], seed=7)


async def play_until_not_my_turn(c: object) -> None:
    from rajas.protocol.client import Client

    assert isinstance(c, Client)
    while c.my_turn and not c.over:
        data = await c.decide(c.pending["options"][0], v=c.v)  # type: ignore[index]
        await c.wait_for(lambda c, v=data["v"]: c.v >= v)


async def test_turn_clock_lets_the_bot_finish_a_slow_turn(server: Running, clients: Clients) -> None:
    _created, (a, _b) = await seated_room(clients, server.url, players=2, turn_clock=0.2, bot="random")
    first = a.pending["player"]  # type: ignore[index]
    assert a.room["deadline"] is not None  # type: ignore[index]
    # Nobody moves: the clock runs out and the bot finishes that turn; then the other player's clock runs.
    await a.wait_for(lambda c: any(e["type"] == "clock_expired" for e in c.events), timeout=5)
    await a.wait_for(lambda c: c.pending["player"] != first, timeout=5)  # type: ignore[index]
    expired = next(e for e in a.events if e["type"] == "clock_expired")
    assert expired["player"] == first
    assert all(e["by"] == "bot" for e in a.events if e["type"] == "decided")
    assert not a.room["seats"][first]["bot"]  # type: ignore[index]  # the seat stays its owner's


async def test_the_turn_clock_runs_on_through_a_turns_decisions_and_starts_again_for_the_next_turn(
    server: Running, clients: Clients
) -> None:
    created, seated = await seated_room(clients, server.url, players=2, turn_clock=60)
    here = server.hub.rooms[created["code"]]
    kept = restarted = 0
    while not (kept and restarted):
        assert here.room is not None
        turn, timer = here.room.clock_key, here.timers["clock"]
        c = mover(seated)
        data = await c.decide(c.pending["options"][0], v=c.v)  # type: ignore[index]
        await sync(seated, data["v"])
        if here.room.clock_key == turn:  # the same turn goes on: its clock, untouched
            assert here.timers["clock"] is timer
            kept += 1
        else:  # a new turn: a new clock, the old one stopped
            assert here.timers["clock"] is not timer and (timer.cancelling() or timer.cancelled())
            restarted += 1

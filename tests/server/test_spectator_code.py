"""A spectator never learns the invite code (it would let them take a seat): not in the join reply, the
snapshot, any update, presence or notice, nor over HTTP by the spectator code. On both stores."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from rajas.protocol.client import ServerError

from .conftest import Clients, Running, play_random, seated_room, sync


def _leaks(code: str, obj: Any) -> bool:
    text = json.dumps(obj)
    return code in text or code.replace("-", "") in text


async def test_a_spectator_never_sees_the_invite_code(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=2, start=False, seats=3)
    code, watch = created["code"], created["watch"]
    spectator = await clients.open(server.url)
    data = await spectator.join(watch, name="nosy", role="player")  # the watch code only ever watches
    assert data["role"] == "spectator" and data["room"] == watch
    assert spectator.room is not None and spectator.room["code"] == watch
    # a second spectator on a JSON connection, and updates of every kind: seats, start, the whole game, the end
    text = await clients.open(server.url, binary=False)
    await text.join(watch, role="spectator")
    late = await clients.open(server.url)
    await late.join(code, name="p2")
    await late.leave()
    await seated[0].start()
    for c in (*seated, spectator, text):
        await c.wait_for(lambda c: c.game is not None)
    await play_random(seated, seed=3)
    await sync([spectator, text], seated[0].v)
    await spectator.snapshot()
    await spectator.wait_for(lambda c: sum(m.get("type") == "snapshot" for m in c.received) >= 2)
    for c in (spectator, text):
        kinds = {m.get("type") for m in c.received}
        assert {"reply", "snapshot", "update"} <= kinds
        assert c.over and c.room is not None and c.room["code"] == watch
        assert not _leaks(code, c.received)
    # the seat is out of reach: with the watch code a join is always a spectator's
    assert (await spectator.join(watch, name="again"))["role"] == "spectator"
    async with httpx.AsyncClient(base_url=server.url) as http:
        info = (await http.get(f"/api/rooms/{watch}")).json()
        assert info["code"] == watch and not _leaks(code, info)
        log = (await http.get(f"/api/rooms/{watch}/log")).json()
        assert log["code"] == watch and not _leaks(code, log)
        assert (await http.get(f"/api/rooms/{code}/log")).json()["code"] == code


async def test_a_spectator_in_the_lobby_cannot_take_a_seat(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=2, start=False, seats=4)
    spectator = await clients.open(server.url)
    await spectator.join(created["watch"], role="spectator")
    # players still see the invite code in their own join reply; the room view is the same for everyone
    assert seated[1].code == created["code"]
    await seated[0].wait_for(lambda c: c.presence is not None and c.presence["spectators"] == 1)
    assert seated[0].room is not None and seated[0].room["code"] == created["watch"]
    assert not _leaks(created["code"], spectator.received)
    # even with a real seat token, the watch code only watches
    again = await spectator.join(created["watch"], token=seated[1].token)
    assert again["role"] == "spectator" and again["token"] is None and again["room"] == created["watch"]
    with pytest.raises(ServerError) as e:
        await spectator.join(created["watch"].replace("-", "")[::-1], name="guess")
    assert e.value.code == "room_not_found"

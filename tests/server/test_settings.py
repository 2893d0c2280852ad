"""The host changes the room's settings in the lobby: checked like create_room, broadcast with a
`settings_changed` event; anyone else, or after the start, is refused. On both stores."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from rajas.protocol.client import ServerError

from .conftest import Clients, Running, seated_room

NEW: dict[str, Any] = {
    "seats": 3, "sheet": "moon", "spectators": False, "turn_clock": 120, "grace": 30, "bot": "random", "public": True,
    "undo": False,
    "takeover": True,
    "mode": "turns", "turn_limit": 48, "after_limit": "skip",
}


async def test_host_changes_settings_everyone_sees_them(server: Running, clients: Clients) -> None:
    created, (host, guest) = await seated_room(clients, server.url, players=2, start=False, seats=4)
    watcher = await clients.open(server.url)
    await watcher.join(created["watch"], role="spectator")
    v = host.v
    assert await host.change_settings(**NEW) is None
    for c in (host, guest, watcher):
        await c.wait_for(lambda c: c.v == v + 1)
        assert c.room is not None and c.room["settings"] == NEW | {"game": "dice_charmers"}
        assert c.events[-1] == {"type": "settings_changed", "settings": NEW | {"game": "dice_charmers"}}
    async with httpx.AsyncClient(base_url=server.url) as http:
        info = (await http.get(f"/api/rooms/{created['code']}")).json()
        assert info["settings"] == NEW | {"game": "dice_charmers"}
        listed = (await http.get("/api/rooms")).json()["rooms"]
        assert any(r["code"] == created["code"] and r["seats"] == 3 for r in listed)
        await host.change_settings(**(NEW | {"public": False}))
        listed = (await http.get("/api/rooms")).json()["rooms"]
        assert all(r["code"] != created["code"] for r in listed)
    # spectators are off now: a new one is refused; and the game starts on the moon sheet
    late = await clients.open(server.url)
    with pytest.raises(ServerError) as e:
        await late.join(created["watch"], role="spectator")
    assert e.value.code == "spectators_not_allowed"
    await host.start()
    await guest.wait_for(lambda c: c.game is not None)
    assert guest.room is not None and guest.room["settings"]["sheet"] == "moon"
    snap = await guest.snapshot()
    await guest.wait_for(lambda c: c.v >= snap["v"])
    assert guest.sheet is not None and "moon" in str(guest.sheet.get("name", "")).lower()


async def test_settings_refusals(server: Running, clients: Clients) -> None:
    created, (host, guest, _third) = await seated_room(clients, server.url, players=3, start=False, seats=4)
    v = host.v
    with pytest.raises(ServerError) as e:
        await guest.change_settings(seats=5)
    assert e.value.code == "not_host"
    watcher = await clients.open(server.url)
    await watcher.join(created["watch"], role="spectator")
    with pytest.raises(ServerError) as e:
        await watcher.change_settings(seats=5)
    assert e.value.code == "not_host"
    with pytest.raises(ServerError) as e:
        await host.change_settings(seats=2)  # three are seated
    assert e.value.code == "bad_settings"
    for bad in ({"seats": 6}, {"seats": 1}, {"turn_clock": 0}, {"grace": -1}, {"bot": "Smart!"}, {"bot": "x" * 17}):
        with pytest.raises(ServerError) as e:
            await host.change_settings(**bad)
        assert e.value.code == "malformed_frame", bad
    # the game's own settings are the game's to check: a setting no game knows, or one the game cannot play with
    # a bot kind of the right shape is the game's to offer
    for bad in ({"sheet": "mars"}, {"colour": "red"}, {"game": "chess"}, {"bot": "smart"}):
        with pytest.raises(ServerError) as e:
            await host.change_settings(**bad)
        assert e.value.code == "bad_settings", bad
    with pytest.raises(ServerError) as e:
        await host.change_settings(sheet={"name": "broken"})
    assert e.value.code == "bad_settings"
    outsider = await clients.open(server.url)
    with pytest.raises(ServerError) as e:
        await outsider.change_settings(seats=5)
    assert e.value.code == "not_joined"
    assert host.v == v and host.room is not None and host.room["settings"]["seats"] == 4  # nothing changed
    await host.change_settings(seats=3)  # exactly the seated count is fine
    await host.start()
    await guest.wait_for(lambda c: c.game is not None)
    with pytest.raises(ServerError) as e:
        await host.change_settings(seats=5)
    assert e.value.code == "wrong_phase"

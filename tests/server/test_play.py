"""Playing: what everyone receives, every error code, reconnection, races and resent messages."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from rajas.protocol import ERROR_CODES, pack
from rajas.protocol.client import Client, ServerError

from .conftest import Clients, Running, mover, play_random, seated_room, sync


async def test_whole_game_everyone_ends_with_the_servers_state(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=3)
    watcher = await clients.open(server.url, binary=False)
    await watcher.join(created["watch"])
    n = await play_random(seated, seed=1)
    assert n > 50
    await watcher.wait_for(lambda c: c.over)
    async with httpx.AsyncClient(base_url=server.url) as http:
        log = (await http.get(f"/api/rooms/{created['code']}/log")).json()
    assert len(log["decisions"]) == n
    for c in [*seated, watcher]:
        assert json.loads(json.dumps(c.game["state"])) == log["final_state"]  # type: ignore[index]
        assert c.room["seed"] == log["seed"]  # type: ignore[index]
        assert c.gaps == 0
    kinds = {e["type"] for e in watcher.events}
    for kind in ("dice_rolled", "die_picked", "elephant_loaded", "turn_ended", "round_ended", "elephant_passed"):
        assert kind in kinds
    assert {"game_over", "seed_revealed", "decided"} <= kinds
    over = next(e for e in watcher.events if e["type"] == "game_over")
    assert [r for r in over["result"]] == log["result"]


async def test_every_rules_error_code(server: Running, clients: Clients) -> None:
    _created, seated = await seated_room(clients, server.url, players=2)
    me = mover(seated)
    other = next(c for c in seated if c is not me)
    cases = [
        ("not_your_turn", other, ["pass", [], -1]),
        ("illegal_decision", me, ["road", [0, 15], -1]),
        ("malformed_decision", me, ["fly", [1], -1]),
        ("malformed_decision", me, "die 3"),
    ]
    for code, who, decision in cases:
        with pytest.raises(ServerError) as e:
            await who.decide(decision, v=who.v)
        assert e.value.code == code, decision
        assert e.value.message
    with pytest.raises(ServerError) as e:
        await me.decide(me.pending["options"][0], v=me.v - 1)  # type: ignore[index]
    assert e.value.code == "stale_version"
    with pytest.raises(ServerError) as e:  # a version never made (a newer one is looked for in the store first)
        await me.decide(me.pending["options"][0], v=me.v + 5)  # type: ignore[index]
    assert e.value.code == "stale_version"
    # Nothing above changed the room, and every connection is still open.
    v = me.v
    await me.decide(me.pending["options"][0], v=v)  # type: ignore[index]
    await sync(seated, v + 1)


async def test_game_over_refuses_decisions(memory_server: Running, clients: Clients) -> None:
    _created, seated = await seated_room(clients, memory_server.url, players=2)
    await play_random(seated, seed=3)
    with pytest.raises(ServerError) as e:
        await seated[0].decide(["pass", [], -1])
    assert e.value.code == "game_over"


async def test_malformed_frames_protocol_version_and_no_hello(memory_server: Running, clients: Clients) -> None:
    c = Client(memory_server.url)
    clients.all.append(c)
    import websockets.asyncio.client as wsc

    c.ws = await wsc.connect(c.url)
    c._reader = asyncio.create_task(c._read())
    with pytest.raises(ServerError) as e:
        await c.request("ping")
    assert e.value.code == "protocol_version"
    with pytest.raises(ServerError) as e:
        await c.request("hello", protocol=99)
    assert e.value.code == "protocol_version"
    await c.request("hello", protocol=1)
    for frame in [b"\xc1\xc1", pack([1, 2]), pack({"type": "nonsense", "id": 5}), pack({"type": "join", "id": 6})]:
        await c.send_raw(frame)
    await c.send_raw("{not json")
    await c.wait_for(lambda c: sum(1 for m in c.received if m.get("code") == "malformed_frame") == 5)
    refused = [m for m in c.received if m.get("code") == "malformed_frame"]
    assert [m["id"] for m in refused] == [None, None, 5, 6, None]  # the id is named whenever it can be read
    await c.send_raw(pack({"type": "ping", "id": "big", "pad": "x" * 70_000}))
    await c.wait_for(lambda c: any(m.get("id") == "big" for m in c.received))
    assert next(m for m in c.received if m.get("id") == "big")["code"] == "malformed_frame"
    assert await c.request("ping")  # still connected


async def test_the_error_code_list_is_what_the_tests_cover() -> None:
    covered = {
        "malformed_frame", "protocol_version", "not_joined", "bad_token", "room_not_found", "room_full",
        "spectators_not_allowed", "not_host", "wrong_phase", "bad_settings", "not_a_player", "not_your_turn",
        "illegal_decision", "malformed_decision", "game_over", "stale_version", "rate_limited", "internal",
        "bad_commitment", "contribution_fixed",  # tests/server/test_fairness.py
        "name_taken",  # tests/server/test_lobby.py
        "undo_off", "nothing_to_undo", "undo_after_roll", "too_many_undos",  # tests/server/test_undo.py
        "chat_closed", "chat_rate_limited",  # tests/server/test_chat.py
        "not_away", "takeover_not_allowed", "seat_not_free",  # tests/server/test_seats_in_play.py
        "not_a_bot",  # tests/server/test_rematch.py
        "bad_email", "email_unavailable",  # tests/server/test_turns.py
    }  # fmt: skip
    # The limits' refusals: each replayed against a real `rajas serve` in tests/security.
    covered |= {"too_large", "too_many_rooms", "server_full", "too_many_connections", "request_timeout"}
    # The budgets of issue 27: tests/security/test_budgets.py, tests/server/test_rematch.py, test_turn_emails.py.
    covered |= {"too_many_listed", "too_many_games", "too_many_emails"}
    assert set(ERROR_CODES) == covered  # "internal" is the one no client can provoke on purpose


async def test_bad_settings_over_websocket(memory_server: Running, clients: Clients) -> None:
    c = await clients.open(memory_server.url)
    with pytest.raises(ServerError) as e:
        await c.create_room(seats=2, sheet={"name": "mine"})
    assert e.value.code in ("bad_settings", "malformed_frame")
    with pytest.raises(ServerError) as e:
        await c.create_room(seats=2, sheet={"name": "mine", "title": "x"}, turn_clock=0)
    assert e.value.code == "malformed_frame"


async def test_reconnect_mid_turn_gets_snapshot_and_plays_on(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=2)
    for _ in range(200):  # play on until a player is mid-turn: decided once, with more to decide
        me = mover(seated)
        v = me.v
        await me.decide(me.pending["options"][0], v=v)  # type: ignore[index]
        await sync(seated, v + 1)
        if me.my_turn:
            break
    assert me.my_turn
    others = [c for c in seated if c is not me]
    await me.close()
    await others[0].wait_for(lambda c: c.presence is not None and me.seat_id not in c.presence["connected"])
    back = await clients.open(server.url)  # "another tab"
    await back.join(created["code"], token=me.token)
    # (the seat was marked away meanwhile, and back again: versions of the room, not of the game)
    assert back.seat_id == me.seat_id and back.v >= v + 1
    await others[0].wait_for(lambda c: c.v >= back.v)
    assert back.game == others[0].game and back.my_turn
    await others[0].wait_for(lambda c: me.seat_id in c.presence["connected"])  # type: ignore[index]
    await play_random([back, *others], seed=4)
    assert back.over


async def test_gap_in_versions_asks_for_a_snapshot(memory_server: Running, clients: Clients) -> None:
    _created, seated = await seated_room(clients, memory_server.url, players=2)
    c = seated[0]
    c.v -= 1  # as if an update had been lost
    me = mover(seated)
    v = me.v if me is not c else c.v + 1
    await me.decide(me.pending["options"][0], v=v)  # type: ignore[index]
    await c.wait_for(lambda c: c.v == v + 1)
    assert c.gaps == 1
    assert c.game == seated[1].game


async def test_two_clients_race_for_one_decision_exactly_one_wins(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=2)
    me = mover(seated)
    twin = await clients.open(server.url)
    await twin.join(created["code"], token=me.token)
    options = me.pending["options"]  # type: ignore[index]
    v = me.v
    results = await asyncio.gather(me.decide(options[0], v=v), twin.decide(options[-1], v=v), return_exceptions=True)
    wins = [r for r in results if not isinstance(r, Exception)]
    losses = [r for r in results if isinstance(r, ServerError)]
    assert len(wins) == 1 and len(losses) == 1 and losses[0].code == "stale_version"
    await sync(seated, v + 1)
    decided = [e for e in seated[0].events if e["type"] == "decided"]
    assert len(decided) == 1


async def test_duplicate_message_id_is_applied_once(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=2)
    me = mover(seated)
    decision, v = me.pending["options"][0], me.v  # type: ignore[index]
    first = await me.decide(decision, id="d-1")
    again = await me.decide(decision, id="d-1")  # same connection: the same answer
    assert first == again
    # Resent from a new connection after a drop (the first reply never arrived): still applied once.
    await me.close()
    back = await clients.open(server.url)
    await back.join(created["code"], token=me.token)
    third = await back.decide(decision, id="d-1")
    assert third["duplicate"] is True
    await sync([back, *seated[1:]], v + 1)
    # (the room's version also counts the seat marked away and back: the game's state is what matters)
    other = next(c for c in seated if c is not me)
    await sync([back, other], max(back.v, other.v))
    assert back.game == other.game
    assert sum(1 for e in seated[1].events if e["type"] == "decided") == 1


async def test_a_json_clients_duplicate_message_id_gets_the_same_text_again(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=2)
    me = mover(seated)
    json_me = await clients.open(server.url, binary=False)  # (the same seat, from a JSON client)
    await json_me.join(created["code"], token=me.token)
    decision = json_me.pending["options"][0]  # type: ignore[index]
    first = await json_me.decide(decision, id="j-1")
    again = await json_me.decide(decision, id="j-1")
    assert first == again and "duplicate" not in first
    assert sum(1 for e in seated[1].events if e["type"] == "decided") <= 1


async def test_not_joined(memory_server: Running, clients: Clients) -> None:
    c = await clients.open(memory_server.url)
    for call in (c.decide(["pass", [], -1]), c.start(), c.snapshot(), c.leave()):
        with pytest.raises(ServerError) as e:
            await call
        assert e.value.code == "not_joined"

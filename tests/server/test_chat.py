"""Chat in a room (docs/protocol.md, Chat), on both stores: players and spectators write lines that everyone in the
room gets with the writer's own name and seat; lines are plain text of at most 200 characters, rate-limited per
connection; the host can close the chat for spectators; the last lines come back in a snapshot; a line never
changes the room's version; across two nodes on one Redis; nothing of it outlives the room or enters its log."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import Any

import httpx
import pytest
from rajas.protocol.client import Client, ServerError
from rajas.server.config import ServeSettings
from rajas.server.storage.chat_store import CHAT_KEEP, MemoryChat
from rajas.server.storage.memory_store import MemoryStore
from rajas.server.storage.redis_store import RedisStore

from .conftest import Clients, Running, make_store, mover, play_random, run_server, seated_room, sync

MANY = ServeSettings(chat_per_minute=1_000_000)  # (a node where the chat's rate does not get in the way)


async def _refused(code: str, call: Awaitable[Any]) -> None:
    with pytest.raises(ServerError) as e:
        await call
    assert e.value.code == code


def _texts(c: Client) -> list[str | None]:
    return [line["text"] or line["reaction"] for line in c.chat]


async def test_players_and_spectators_talk_each_line_with_name_seat_and_time(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=2, start=False, seats=3)
    named = await clients.open(server.url)
    await named.join(created["watch"], name="Grandma", role="spectator")
    anonymous = await clients.open(server.url, binary=False)
    await anonymous.join(created["watch"], role="spectator")
    before = time.time()
    await seated[1].say("hello all")
    await named.say("go p1!")
    await anonymous.say(reaction="dice")
    everyone = [*seated, named, anonymous]
    for c in everyone:
        await c.wait_for(lambda c: len(c.chat) == 3)
        assert _texts(c) == ["hello all", "go p1!", "dice"]
    lines = seated[0].chat
    assert [(line["name"], line["seat"]) for line in lines] == [
        ("p1", seated[1].seat_id), ("Grandma", None), ("", None)
    ]
    assert all(before - 1 <= line["time"] <= time.time() + 1 for line in lines)
    assert len({line["id"] for line in lines}) == 3


async def test_nobody_writes_as_someone_else(server: Running, clients: Clients) -> None:
    _, seated = await seated_room(clients, server.url, players=2, start=False)
    await _refused("malformed_frame", seated[1].request("chat", text="hi", name="p0"))
    await _refused("malformed_frame", seated[1].request("chat", text="hi", seat=seated[0].seat_id))
    await seated[1].say("it is me")
    await seated[0].wait_for(lambda c: len(c.chat) == 1)
    assert (seated[0].chat[0]["name"], seated[0].chat[0]["seat"]) == ("p1", seated[1].seat_id)
    outsider = await clients.open(server.url)
    await _refused("not_joined", outsider.say("hello?"))


async def test_a_line_is_plain_text_of_at_most_200_characters(server: Running, clients: Clients) -> None:
    _, seated = await seated_room(clients, server.url, players=2, start=False)
    await seated[0].say("x" * 200)
    await seated[0].say("😀" * 200)  # characters, not bytes
    await _refused("malformed_frame", seated[0].say("x" * 201))
    await _refused("malformed_frame", seated[0].say(""))
    await _refused("malformed_frame", seated[0].say(" \n\t "))  # nothing to read
    await _refused("malformed_frame", seated[0].request("chat", text="both", reaction="oops"))
    await _refused("malformed_frame", seated[0].request("chat", reaction="<b>boo</b>"))  # not a quick reaction
    markup = '<img src=x onerror="alert(1)"><b>bold</b> &amp;'
    await seated[0].say(markup)
    await seated[0].say("line\nbreak\u202eevil")  # line breaks and bidi overrides become spaces
    await seated[1].wait_for(lambda c: len(c.chat) == 4)
    assert _texts(seated[1])[2:] == [markup, "line break evil"]  # exactly as written: escaped by nobody, shown as text


@pytest.mark.own_server  # counts the server's chat refusals and lines
async def test_chat_has_its_own_rate_limit(server: Running, clients: Clients) -> None:
    _, seated = await seated_room(clients, server.url, players=2, start=False)
    for i in range(5):  # RAJAS_CHAT_PER_MINUTE 20: five at once, then one every three seconds
        await seated[0].say(f"line {i}")
    await _refused("chat_rate_limited", seated[0].say("one too many"))
    await seated[1].say("another connection has its own")
    assert server.hub.metrics.limit_refusals.value("chat_rate") == 1
    assert server.hub.metrics.chat_lines.value("player") == 6
    await seated[1].wait_for(lambda c: len(c.chat) == 6)
    assert "one too many" not in _texts(seated[1])
    assert "rajas_chat_lines_total" in server.hub.metrics.render()


@pytest.mark.own_server  # counts the server's chat refusals
async def test_many_spectators_together_cannot_flood_the_room(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=2, start=False)
    crowd = []
    for i in range(5):
        c = await clients.open(server.url)
        await c.join(created["watch"], role="spectator", name=f"fan{i}")
        crowd.append(c)
    said = 0
    for c in crowd:  # five each (every one within its own limit): twenty pass, RAJAS_CHAT_SPECTATORS_PER_MINUTE 60
        for j in range(5):
            try:
                await c.say(f"{j}")
                said += 1
            except ServerError as e:
                assert e.code == "chat_rate_limited"
    assert said == 20
    assert server.hub.metrics.limit_refusals.value("chat_spectators_rate") == 5
    await seated[1].say("the players are never held up by the spectators")
    await seated[0].wait_for(lambda c: len(c.chat) == 21)


async def test_the_host_closes_the_chat_for_spectators_during_play(server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, server.url, players=2)
    spectator = await clients.open(server.url)
    await spectator.join(created["watch"], name="fan", role="spectator")
    assert spectator.chat_spectators is True
    await spectator.say("before")
    await _refused("not_host", seated[1].chat_rules(False))
    await _refused("not_host", spectator.chat_rules(False))
    await seated[0].chat_rules(False)
    for c in (*seated, spectator):
        await c.wait_for(lambda c: c.chat_spectators is False)
    await _refused("chat_closed", spectator.say("after"))
    await _refused("chat_closed", spectator.say(reaction="oops"))
    await seated[1].say("players still talk")
    await spectator.wait_for(lambda c: len(c.chat) == 2)
    assert _texts(spectator) == ["before", "players still talk"]
    # kept with the room: a page loaded now is told, and the closed chat holds
    late = await clients.open(server.url)
    await late.join(created["watch"], role="spectator")
    assert late.chat_spectators is False and _texts(late) == ["before", "players still talk"]
    await _refused("chat_closed", late.say("me too"))
    await seated[0].chat_rules(True)
    await late.wait_for(lambda c: c.chat_spectators is True)
    await late.say("open again")


async def test_a_chat_line_does_not_change_the_rooms_version(server: Running, clients: Clients) -> None:
    _, seated = await seated_room(clients, server.url, players=2)
    c = mover(seated)
    other = next(o for o in seated if o is not c)
    v = c.v
    await other.say("take the elephant!")
    await c.wait_for(lambda c: len(c.chat) == 1)
    await seated[0].chat_rules(False)
    await c.wait_for(lambda c: c.chat_spectators is False)
    assert c.pending is not None
    data = await c.decide(c.pending["options"][0], v=v)  # made seeing v, after the line: still v
    assert data["v"] == v + 1
    assert await server.store.version(seated[0].code or "") in (None, v + 1)


async def test_a_reload_shows_the_last_lines(store_kind: str, request: pytest.FixtureRequest, clients: Clients) -> None:
    url = request.getfixturevalue("redis_url") if store_kind == "redis" else None
    async with run_server(make_store(store_kind, url), MANY) as server:
        created, seated = await seated_room(clients, server.url, players=2, start=False)
        for i in range(CHAT_KEEP + 5):
            await seated[i % 2].say(f"line {i}")
        again = await clients.open(server.url)
        await again.join(created["code"], token=seated[1].token)
        assert _texts(again) == [f"line {i}" for i in range(5, CHAT_KEEP + 5)]
        await seated[0].snapshot()  # the snapshot asked for again has the lines said since it was made
        await seated[0].say("newest")
        fresh = await clients.open(server.url)
        await fresh.join(created["watch"], role="spectator")
        assert _texts(fresh)[-1] == "newest" and len(fresh.chat) == CHAT_KEEP


async def test_a_line_said_on_one_node_reaches_a_spectator_on_another(redis_url: str, clients: Clients) -> None:
    async with run_server(RedisStore(redis_url)) as a, run_server(RedisStore(redis_url)) as b:
        created, seated = await seated_room(clients, a.url, players=2)
        spectator = await clients.open(b.url)
        await spectator.join(created["watch"], name="far away", role="spectator")
        await seated[0].say("hello from node A")
        await spectator.wait_for(lambda c: _texts(c) == ["hello from node A"])
        await spectator.say("hello from node B")
        await seated[1].wait_for(lambda c: len(c.chat) == 2)
        assert seated[1].chat[1]["name"] == "far away"
        await seated[0].chat_rules(False)  # on node A; the spectator on node B is refused
        await spectator.wait_for(lambda c: c.chat_spectators is False)
        await _refused("chat_closed", spectator.say("still here?"))
        v = seated[0].v
        await sync(seated, v)
        assert seated[0].v == v  # neither the lines nor the rule made a version


async def test_nothing_of_the_chat_outlives_the_room_or_enters_its_log(
    server: Running, clients: Clients, redis_url: str
) -> None:
    created, seated = await seated_room(clients, server.url, players=2)
    await seated[0].say("secret plan")
    await play_random(seated, seed=5)
    async with httpx.AsyncClient(base_url=server.url) as http:
        log = (await http.get(f"/api/rooms/{created['code']}/log")).text
    assert "secret plan" not in log
    code = created["code"]
    store = server.store
    if isinstance(store, RedisStore):
        room_left = await store.redis.pttl(f"rajas:{{{code}}}:room")
        chat_left = await store.redis.pttl(f"rajas:{{{code}}}:chat")
        assert 0 < chat_left <= room_left + 1000  # it expires with the room, not after (give or take a moment)
    else:
        assert isinstance(store, MemoryStore)
        for c in seated:
            await c.close()
        for _ in range(200):  # (the node counts the connections out as it sees them close)
            if not any(store.counts.get(code, {}).values()):
                break
            await asyncio.sleep(0.02)
        store.sweep(time.time() + store.ttl + 1)
        assert code not in store.records
        assert await store.chat.read(code) == ([], True)
        assert isinstance(store.chat, MemoryChat) and code not in store.chat.chats  # (nothing left in memory either)

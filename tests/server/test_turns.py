"""Turn-based rooms: a limit per turn (hours; here an hour is shortened by the test-only RAJAS_TURN_UNIT), the bot
or a skip after it, seats kept however long their players are away, and a room kept while its game runs."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from rajas.games.dice_charmers.engine import apply, load_sheet, new_game, pending
from rajas.games.dice_charmers.engine.skip import choices as skip_choices
from rajas.games.dice_charmers.game import GAME
from rajas.protocol import unpack
from rajas.protocol.client import ServerError
from rajas.server.rooms.series import current_entries
from rajas.server.storage.memory_store import MemoryStore
from rajas.server.storage.redis_store import RedisStore

from .conftest import Clients, Running, make_store, run_server, seated_room

UNIT = 0.3  # seconds in an "hour" of a turn limit, for these tests


@pytest.fixture
async def turns_server(
    store_kind: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Running]:
    monkeypatch.setenv("RAJAS_TURN_UNIT", str(UNIT))
    # (the greedy bot answers at once: in a thread, not the worker process bot searches start, whose start-up a
    # turn limit of a fraction of a second would have to wait for on a loaded machine)
    monkeypatch.setenv("RAJAS_BOT_PROCESSES", "0")
    url = request.getfixturevalue("redis_url") if store_kind == "redis" else None
    async with run_server(make_store(store_kind, url)) as running:
        yield running


def events_of(c: object, kind: str) -> list[dict[str, object]]:
    return [e for e in getattr(c, "events") if e["type"] == kind]  # noqa: B009


async def test_when_the_limit_runs_out_the_bot_plays_the_turn(turns_server: Running, clients: Clients) -> None:
    _created, (a, _b) = await seated_room(clients, turns_server.url, mode="turns", turn_limit=1, after_limit="bot")
    first = a.pending["player"]  # type: ignore[index]
    room = a.room
    assert room is not None and room["settings"]["mode"] == "turns"
    assert room["deadline"] - room["turn_began"] == pytest.approx(UNIT, abs=0.01)
    # Nobody moves: after the limit the bot finishes the turn, and the next player's turn begins.
    # (20 s: the bot's first decision starts the node's worker process for bot searches, slow on a loaded machine)
    await a.wait_for(lambda c: any(e["type"] == "clock_expired" for e in c.events), timeout=20)
    await a.wait_for(lambda c: any(e["type"] == "decided" and e["by"] == "bot" for e in c.events), timeout=20)
    assert events_of(a, "clock_expired")[0]["player"] == first
    await a.wait_for(lambda c: c.pending["player"] != first, timeout=20)  # type: ignore[index]
    assert a.room["turn_began"] > room["turn_began"]  # type: ignore[index]


async def test_when_the_limit_runs_out_with_skip_the_turn_is_skipped(turns_server: Running, clients: Clients) -> None:
    created, (a, _b) = await seated_room(clients, turns_server.url, mode="turns", turn_limit=1, after_limit="skip")
    state = (await turns_server.hub.load(created["code"], fresh=True)).state
    assert state is not None
    expected = GAME.skip(state).to_wire()
    await a.wait_for(lambda c: any(e["type"] == "decided" for e in c.events), timeout=20)
    assert events_of(a, "decided")[0]["decision"] == list(expected)


async def test_a_turn_based_room_keeps_its_seats_while_everyone_is_away(
    turns_server: Running, clients: Clients
) -> None:
    created, (a, b) = await seated_room(clients, turns_server.url, mode="turns", turn_limit=100, grace=0.1)
    token = b.token
    await a.close()
    await b.close()
    await asyncio.sleep(1.0)  # ten grace periods: a live room's bot would have taken both seats
    back = await clients.open(turns_server.url)
    await back.join(created["code"], token=token)
    await back.wait_for(lambda c: c.room is not None)
    assert [s["bot"] for s in back.room["seats"]] == [False, False]  # type: ignore[index]
    assert not events_of(back, "bot_took_over")
    room = await turns_server.hub.load(created["code"], fresh=True)
    assert not any(s["bot"] for s in room.seats) and room.auto is None


async def test_a_turn_based_room_outlives_the_quiet_room_ttl_while_its_game_runs(
    turns_server: Running, clients: Clients
) -> None:
    created, seated = await seated_room(clients, turns_server.url, mode="turns", turn_limit=100)
    code = created["code"]
    store = turns_server.store
    first = next(c for c in seated if c.my_turn)
    await first.decide(first.pending["options"][0], v=first.v)  # type: ignore[index]  # (the log is made now)
    for c in seated:
        await c.close()  # (presence changes must not shorten the room's life again)
    await asyncio.sleep(0.3)
    if isinstance(store, RedisStore):
        ttl = await store.redis.ttl(f"rajas:{{{code}}}:room")
        assert ttl > store.ttl * 10  # 30 days, not two hours
        assert await store.redis.ttl(f"rajas:{{{code}}}:log") > store.ttl * 10
    else:
        assert isinstance(store, MemoryStore)
        assert store.keep[code] == 30 * 86400
        assert code not in store.sweep(time.time() + store.ttl + 60)  # quiet for longer than the TTL: kept


async def test_a_live_room_still_expires_as_before(turns_server: Running, clients: Clients) -> None:
    created, seated = await seated_room(clients, turns_server.url)
    store = turns_server.store
    if isinstance(store, RedisStore):
        assert 0 < await store.redis.ttl(f"rajas:{{{created['code']}}}:room") <= store.ttl
    else:
        assert isinstance(store, MemoryStore)
        for c in seated:
            await c.close()
        await asyncio.sleep(0.1)
        assert created["code"] in store.sweep(time.time() + store.ttl + 60)


async def test_e_mail_is_refused_without_smtp(turns_server: Running, clients: Clients) -> None:
    _created, (a, _b) = await seated_room(clients, turns_server.url, mode="turns")
    hello = next(m for m in a.received if m.get("type") == "reply" and m["data"] and "protocol" in m["data"])
    assert hello["data"]["email"] is False
    with pytest.raises(ServerError) as e:
        await a.request("email", address="a@example.org")
    assert e.value.code == "email_unavailable"
    assert await a.request("ping")


async def test_a_turn_limit_outlives_the_node_that_armed_it(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, clients: Clients
) -> None:
    """Two nodes on one Redis: the node that began the turn stops, nobody is connected anywhere, and the other
    node, which never had the room, sees the deadline in the turn index and lets the skip play the turn."""
    monkeypatch.setenv("RAJAS_TURN_UNIT", str(UNIT))
    async with run_server(RedisStore(redis_url)) as other:
        async with run_server(RedisStore(redis_url)) as first:
            created, seated = await seated_room(clients, first.url, mode="turns", turn_limit=3, after_limit="skip")
            code = created["code"]
            for c in seated:
                await c.close()
        assert code not in other.hub.rooms
        deadline = time.monotonic() + 10
        entries: list[Any] = []
        while not entries and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            # (the game's decisions follow its ["game", n] mark in the room's log: server/series.py)
            entries = current_entries([unpack(e) for e in await other.store.log(code)])
        assert entries and entries[0][2] == "bot"  # (the skip is played by the server, as the bot's moves are)
        room = await other.hub.load(code, fresh=True)
        assert room.status == "playing" and not any(s["bot"] for s in room.seats)


def _rest_of_turn(state: Any, choose: Any) -> Any:
    """The state once the player to move has finished the turn, each decision chosen by `choose`."""
    seat, turn = state.current, (state.round, state.turn)
    while not state.is_over and (state.round, state.turn) == turn:
        state, _ = apply(state, choose(state), player=seat)
    return state


def _least_by_every_way(state: Any, budget: list[int]) -> int | None:
    """The least fame plus money any way through the rest of the turn ends with (a skip's choices at each step),
    by trying them all; None when that takes more than the budget's steps."""
    seat, turn = state.current, (state.round, state.turn)
    least = None
    for d in skip_choices(state):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        after, _ = apply(state, d, player=seat)
        if after.is_over or (after.round, after.turn) != turn:
            me = after.players[seat]
            total: int | None = me.fame + me.money
        else:
            total = _least_by_every_way(after, budget)
            if total is None:
                return None
        least = total if least is None else min(least, total)
    return least


def _least_next(state: Any) -> Any:
    """The skip's choice looking one decision ahead only: the least fame plus money right after it."""
    seat = state.current

    def held(d: Any) -> int:
        me = apply(state, d, player=seat)[0].players[seat]
        return int(me.fame + me.money)

    return min(skip_choices(state), key=held)


def test_the_skip_passes_where_the_rules_allow_it_and_otherwise_takes_the_smallest_way_through_the_turn() -> None:
    """docs/rules-decisions.md 37: the skip is the smallest legal way through a turn: `pass` where offered, no
    karma spent while another option is open, and of the ways left the one that ends with the least fame plus
    money (every way tried here where that is affordable); never more than choosing least one decision at a
    time."""
    sheet = load_sheet("sun")
    passed = compared = 0
    for g in range(4):
        state, _ = new_game(3, f"skip-{g}", sheet)
        rng = random.Random(g)
        while not state.is_over:
            p = pending(state)
            options, seat = p["options"], p["player"]
            skip = GAME.skip(state)
            assert skip in options
            if any(o.kind == "pass" for o in options):
                assert skip.kind == "pass"
                passed += 1
            elif compared < 30 and rng.random() < 0.3:  # (every way through a turn: a sample of the game's states)
                assert skip in ([o for o in options if o.kind not in ("karma", "reroll")] or options)
                skipped = _rest_of_turn(state, GAME.skip).players[seat]
                least = _least_by_every_way(state, [1500])
                if least is not None:
                    assert skipped.fame + skipped.money == least
                    compared += 1
                greedy = _rest_of_turn(state, _least_next).players[seat]
                assert skipped.fame + skipped.money <= greedy.fame + greedy.money
            state, _ = apply(state, rng.choice(options), player=seat)
    assert passed > 0 and compared >= 20


def test_a_game_whose_every_turn_is_skipped_still_ends() -> None:
    for sheet in ("sun", "moon"):
        state, _ = new_game(4, "all-away", load_sheet(sheet))
        for _ in range(5000):
            if state.is_over:
                break
            state, _ = apply(state, GAME.skip(state), player=pending(state)["player"])
        assert state.is_over and all(r["karma_used"] == 0 for r in state.result)

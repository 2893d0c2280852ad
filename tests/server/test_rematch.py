"""Rematch and bots in seats (issue 17): the room stays together after a game, with its seats, codes and seat
tokens, a new dice seed and a series table; the host seats bots, which play paced; nobody else can do either."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
import urllib.request
from typing import Any

import pytest
from rajas.protocol.client import Client, ServerError
from rajas.server.fairness import verify
from rajas.server.storage.memory_store import MemoryStore

from .conftest import Clients, Running, play_random, run_server, seated_room


def fetch_log(url: str, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/rooms/{code}/log", timeout=10) as resp:
        data: dict[str, Any] = json.loads(resp.read())
    return data


async def refused(code: str, request: Any) -> None:
    with pytest.raises(ServerError) as e:
        await request
    assert e.value.code == code


async def test_a_rematch_keeps_seats_codes_tokens_and_spectators_and_the_series_counts_both_games(
    server: Running, clients: Clients
) -> None:
    created, (a, b) = await seated_room(clients, server.url, players=2)
    watcher = await clients.open(server.url)
    await watcher.join(created["watch"], role="spectator")
    first_commitment = a.room["commitment"]  # type: ignore[index]
    await play_random([a, b], seed=1)
    first_log = await asyncio.to_thread(fetch_log, server.url, created["code"])
    assert verify(first_log)["ok"] and first_log["game_number"] == 1
    series = a.room["series"]  # type: ignore[index]
    assert series["game"] == 1 and series["played"] == 1
    assert sum(s["wins"] for s in series["seats"]) >= 1

    # each player says "play again" for their own seat; only the host takes the room back to the lobby
    await b.ready()
    await a.wait_for(lambda c: c.room["seats"][1]["ready"])  # type: ignore[index]
    assert not a.room["seats"][0]["ready"]  # type: ignore[index]
    await refused("not_host", b.rematch())
    await a.rematch()
    for c in (a, b, watcher):
        await c.wait_for(lambda c: c.room["status"] == "lobby")  # type: ignore[index]
    room = a.room
    assert room is not None
    assert [s["id"] for s in room["seats"]] == [a.seat_id, b.seat_id]
    assert room["code"] == created["watch"] and room["seats"][1]["ready"]  # the ready flag lasts until the start
    assert room["commitment"] != first_commitment and room["seed"] is None  # a fresh seed for the next game
    assert not any(s["contributed"] for s in room["seats"])  # contributions are made again
    assert room["series"]["game"] == 2 and room["series"]["played"] == 1

    # b's seat token still opens b's seat (a reload), and the invite code still works for the same room
    b2 = await clients.open(server.url)
    joined = await b2.join(created["code"], token=b.token)
    assert joined["seat_id"] == b.seat_id
    await b.close()
    await a.contribute("ab" * 32)
    await a.start()
    await b2.wait_for(lambda c: c.game is not None and c.room["status"] == "playing")  # type: ignore[index]
    assert not any(s["ready"] for s in a.room["seats"])  # type: ignore[index]  # cleared at the start
    await play_random([a, b2], seed=2)
    await watcher.wait_for(lambda c: c.over)

    series = a.room["series"]  # type: ignore[index]
    assert series["game"] == 2 and series["played"] == 2
    assert sum(s["wins"] for s in series["seats"]) >= 2
    finals = [a.game["state"]["result"], first_log["result"]]  # type: ignore[index]
    for s in series["seats"]:
        seat = [x["id"] for x in a.room["seats"]].index(s["id"])  # type: ignore[index]
        got = [r for res in finals for r in res if r["seat"] == seat]
        assert s["wins"] == sum(1 for r in got if r["winner"])
        assert s["fame"] == sum(r["fame"] for r in got)
        assert s["overlap"] == pytest.approx(sum(r["overlap"] for r in got))
    second_log = await asyncio.to_thread(fetch_log, server.url, created["code"])
    assert second_log["game_number"] == 2 and second_log["commitment"] != first_log["commitment"]
    report = verify(second_log, seen_commitment=room["commitment"], mine="ab" * 32)
    assert report["ok"], report["problems"]


async def test_only_the_host_seats_and_removes_bots_and_only_in_the_lobby(server: Running, clients: Clients) -> None:
    created, (a, b) = await seated_room(clients, server.url, players=2, seats=4, start=False)
    watcher = await clients.open(server.url)
    await watcher.join(created["watch"], role="spectator")
    v = a.v
    await refused("not_host", b.add_bot("random"))
    await refused("not_host", watcher.add_bot("greedy"))
    await refused("not_a_player", watcher.ready())
    assert a.v == v  # nothing changed
    await a.add_bot("random")
    await a.add_bot("greedy")
    await a.wait_for(lambda c: len(c.room["seats"]) == 4)  # type: ignore[index]
    seats = a.room["seats"]  # type: ignore[index]
    assert [s["kind"] for s in seats] == [None, None, "random", "greedy"]
    assert [s["name"] for s in seats[2:]] == ["Bot 1", "Bot 2"] and all(s["ready"] for s in seats[2:])
    await refused("room_full", a.add_bot("random"))
    # what no form sends: a kind of bot the game does not offer or of no kind's shape, a seat number out of range;
    # the node answers and nothing changed
    v = a.v
    await refused("bad_settings", a.request("add_bot", kind="perfect"))
    await refused("malformed_frame", a.request("add_bot", kind="Perfect!"))
    await refused("malformed_frame", a.request("add_bot", kind="x" * 17))
    await refused("malformed_frame", a.request("remove_bot", seat=9))
    await refused("malformed_frame", a.request("ready", ready="yes"))
    assert (await a.request("ping"))["time"] > 0 and a.v == v
    await refused("not_host", b.remove_bot(2))
    await refused("not_a_bot", a.remove_bot(1))  # a person's seat goes with kick
    await refused("not_a_player", a.hand_over(3))  # a bot cannot host
    await a.remove_bot(2)
    await a.wait_for(lambda c: len(c.room["seats"]) == 3)  # type: ignore[index]
    assert [s["name"] for s in a.room["seats"]] == ["p0", "p1", "Bot 2"]  # type: ignore[index]
    text = await asyncio.to_thread(lambda: urllib.request.urlopen(f"{server.url}/metrics", timeout=10).read().decode())
    assert 'rajas_table_changes_total{what="add_bot"} 2' in text and 'rajas_errors_total{code="not_a_bot"} 1' in text
    await a.start()
    await a.wait_for(lambda c: c.room["status"] == "playing")  # type: ignore[index]
    await refused("wrong_phase", a.add_bot("random"))
    await refused("wrong_phase", a.remove_bot(2))
    await refused("wrong_phase", a.rematch())  # only after the game
    await refused("wrong_phase", b.ready())


async def test_bots_alone_do_not_start(server: Running, clients: Clients) -> None:
    host = await clients.open(server.url)
    created = await host.create_room(seats=2)
    await host.join(created["code"], role="spectator", host_token=created["host_token"])
    await host.add_bot("random")
    await host.add_bot("random")
    await refused("wrong_phase", host.start())  # bots would play for nobody


async def test_one_person_plays_three_paced_bots_to_the_end(
    server: Running, clients: Clients, monkeypatch: pytest.MonkeyPatch
) -> None:
    pace = 0.02
    monkeypatch.setattr(server.tasks, "pace", pace)  # (put back after the test: the server is shared)
    me = await clients.open(server.url)
    created = await me.create_room(seats=4)
    await me.join(created["code"], name="solo", host_token=created["host_token"])
    for kind in ("random", "greedy", "random"):
        await me.add_bot(kind)
    await me.start()
    while not me.over:
        await me.wait_for(lambda c: c.my_turn or c.over, timeout=30)
        if me.my_turn:
            data = await me.decide(me.pending["options"][0], v=me.v)  # type: ignore[index]
            await me.wait_for(lambda c, v=data["v"]: c.v >= v)
    # every decision the bots made came at least `pace` after the decision before it: one at a time
    bots = bot_gaps(me)
    assert len(bots) > 50
    assert min(bots) >= pace * 0.9  # (commit times are read from the wall clock: allow its rounding)
    assert me.room["series"]["played"] == 1  # type: ignore[index]
    log = await asyncio.to_thread(fetch_log, server.url, created["code"])
    assert verify(log)["ok"]
    assert [c["by"] for c in log["contributions"]][1:] == ["bot", "bot", "bot"]


async def test_an_away_players_bot_is_paced_too(
    memory_server: Running, clients: Clients, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memory_server.tasks, "pace", 0.05)  # (put back after the test: the server is shared)
    _, (a, b) = await seated_room(clients, memory_server.url, players=2, grace=0.05, bot="random")
    await b.close()
    await a.wait_for(lambda c: c.room["seats"][1]["bot"], timeout=5)  # type: ignore[index]
    await play_random_as(a)
    gaps = bot_gaps(a)
    assert gaps and min(gaps) >= 0.05 * 0.9


def bot_gaps(c: Client) -> list[float]:
    """Seconds from each decision to the bot decision that followed it, by the updates' commit times."""
    times = []
    for m in c.received:
        if m.get("type") == "update" and any(e["type"] == "decided" for e in m["events"]):
            head = next(e for e in m["events"] if e["type"] == "decided")
            times.append((m["time"], head["by"]))
    return [t1 - t0 for (t0, _), (t1, by) in itertools.pairwise(times) if by == "bot"]


async def play_random_as(a: Client) -> None:
    for _ in range(6):
        await a.wait_for(lambda c: c.my_turn or c.over, timeout=10)
        if a.over:
            return
        data = await a.decide(a.pending["options"][0], v=a.v)  # type: ignore[index]
        await a.wait_for(lambda c, v=data["v"]: c.v >= v)


@pytest.mark.own_server  # sets the server's bot pace
async def test_after_a_rematch_the_host_changes_settings_and_seats_then_starts(
    server: Running, clients: Clients
) -> None:
    server.tasks.pace = 0.0
    created, (a, b) = await seated_room(clients, server.url, players=2, seats=3, start=False, public=True)
    await a.add_bot("random")
    await a.start()
    await a.wait_for(lambda c: c.game is not None)
    await b.wait_for(lambda c: c.game is not None)
    await play_random_with_bots([a, b])
    ids = [s["id"] for s in a.room["seats"]]  # type: ignore[index]
    await a.rematch()
    await a.wait_for(lambda c: c.room["status"] == "lobby")  # type: ignore[index]
    # a public room is listed again while it waits in the lobby for its next game
    assert created["code"] in [r["code"] for r in await server.hub.lobby()]
    # back in the lobby: the bot's seat is still there, and the room may change before the next game
    assert [s["id"] for s in a.room["seats"]] == ids and a.room["seats"][2]["kind"] == "random"  # type: ignore[index]
    await a.change_settings(seats=4, sheet="moon", turn_clock=None)
    await a.add_bot("greedy")
    await a.wait_for(lambda c: len(c.room["seats"]) == 4 and c.room["settings"]["sheet"] == "moon")  # type: ignore[index]
    await a.start()
    await b.wait_for(lambda c: c.room["status"] == "playing" and c.game is not None)  # type: ignore[index]
    assert len(b.game["state"]["players"]) == 4  # type: ignore[index]
    assert b.room["series"]["game"] == 2 and b.room["series"]["played"] == 1  # type: ignore[index]


async def play_random_with_bots(people: list[Client]) -> None:
    """People play their first option whenever it is their turn; the server plays the bots' seats."""
    while not people[0].over:
        await people[0].wait_for(lambda c: c.over or any(p.my_turn for p in people), timeout=30)
        for p in people:
            await p.wait_for(lambda c, v=people[0].v: c.v >= v)
        mover = next((p for p in people if p.my_turn), None)
        if mover is None or people[0].over:
            continue
        data = await mover.decide(mover.pending["options"][0], v=mover.v)  # type: ignore[index]
        for p in people:
            await p.wait_for(lambda c, v=data["v"]: c.v >= v)


def test_rajas_serve_refuses_a_bot_pace_the_other_nodes_would_take_for_a_stall() -> None:
    env = {**os.environ, "RAJAS_BOT_PACE": "2.5"}
    out = subprocess.run([sys.executable, "-m", "rajas.server.cli", "serve", "--port", "0", "--stall", "2"],
                         env=env, capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and "--bot-pace" in out.stderr


async def test_a_paced_bot_stopped_with_its_server_leaves_the_next_rooms_alone(clients: Clients) -> None:
    """A bot driver cancelled in its pause, as its node shuts down, ends there: on the next server a player who
    leaves mid-game gets the reply. (Compiled with mypyc, an await in the driver's `finally` once carried that
    cancellation over, and the leaver's session raised it again and lost its connection.)"""
    for _ in range(3):
        async with run_server(MemoryStore()) as first:
            first.tasks.pace = 5.0  # (the driver is in its pause when the server closes)
            created, (a, b) = await seated_room(clients, first.url, players=2, grace=0.05, bot="random")
            await b.close()
            await a.wait_for(lambda c: c.room["seats"][1]["bot"], timeout=5)  # type: ignore[index]
            if a.my_turn:
                await a.decide(a.pending["options"][0], v=a.v)  # type: ignore[index]
            assert first.hub.rooms[created["code"]].driving
        async with run_server(MemoryStore()) as second:
            _, (c, d) = await seated_room(clients, second.url, players=2)
            assert await d.leave() is None
            await c.wait_for(lambda x: x.room["seats"][1]["left"], timeout=5)  # type: ignore[index]
            await d.request("ping")  # (refused or not, the leaver's connection still answers)


async def test_a_room_plays_at_most_its_games_and_its_log_keeps_two_of_them(clients: Clients) -> None:
    """Issue 27, row 7: a rematch loop from the host token. The room's game log forgets the games before the last
    one at each rematch (archived already), and past RAJAS_GAMES_PER_ROOM a rematch is refused."""
    from rajas.protocol import unpack
    from rajas.server.config import ServeSettings
    from rajas.server.rooms.series import GAME_MARK

    store = MemoryStore()
    async with run_server(store, ServeSettings(games_per_room=3)) as server:
        created, (a, b) = await seated_room(clients, server.url, players=2)
        marks: list[list[int]] = []
        for game in range(1, 4):
            await play_random([a, b], seed=game)
            entries = [unpack(e) for e in await store.log(created["code"])]
            marks.append([e[1] for e in entries if isinstance(e, list) and len(e) == 2 and e[0] == GAME_MARK])
            assert (await asyncio.to_thread(fetch_log, server.url, created["code"]))["game_number"] == game
            if game < 3:
                await a.rematch()
                await a.start()
                await b.wait_for(lambda c, g=game: c.game is not None and c.room["series"]["game"] == g + 1)  # type: ignore[index]
        assert marks == [[1], [1, 2], [2, 3]]  # at most the game before and this one
        await refused("too_many_games", a.rematch())
        assert server.hub.metrics.limit_refusals.value("games_per_room") == 1
        assert a.room is not None and a.room["status"] == "over"  # nothing changed

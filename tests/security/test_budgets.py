"""The holes of issue 27, each replayed against a real `rajas serve` (docs/security.md, "Budgets"): every one is
refused or bounded, while another room's decisions are answered in time (`assert_responsive`) and nothing the
attack was refused changes. Turn e-mails (rows 5 and 11), rematches (7): tests/server/test_turn_emails.py and
test_budget_rooms.py; the history routes (8): test_history_attacks.py; the shipped nginx (14): test_proxy.py."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import httpx
import pytest
from rajas.protocol.client import ServerError

from tests.engine.sheets_made import largest
from tests.server.conftest import Clients, seated_room

from .attackers import CLOSE, PING, PONG, frame, greeted, message
from .node import Node, Probe, assert_responsive, fast_only, metric, probe_while, rajas_node, rss_mb, warm


async def _post(http: httpx.AsyncClient, forwarded: str, body: dict[str, Any] | None = None) -> httpx.Response:
    """POST /api/rooms as the client `forwarded` (the test is the node's trusted proxy on loopback)."""
    return await http.post("/api/rooms", json=body or {"seats": 2}, headers={"X-Forwarded-For": forwarded})


# ---- 1: a connection the node closed costs nothing more ----------------------------------------------------


@pytest.mark.alone
@fast_only
async def test_1_pings_after_the_nodes_close_are_neither_parsed_nor_answered() -> None:
    env = {"RAJAS_RATE": "50", "RAJAS_BURST": "100", "RAJAS_STRIKES": "50", "RAJAS_CLOSE_TIMEOUT": "1"}
    with rajas_node(env=env) as node:
        async with Probe(node.url) as probe:
            await warm(probe)

            async def attack() -> tuple[int, int | None, float]:
                """Hello, 400 pings, then pings without end: (pongs after the close, close code, seconds from
                the close frame to the node closing the socket)."""
                ws = await greeted(node)
                await ws.send(b"".join(frame(PING, b"%d" % i) for i in range(400)))
                pings = b"".join(frame(PING, b"x") for _ in range(500))

                async def keep_pinging() -> None:
                    until = time.monotonic() + 4
                    while time.monotonic() < until:
                        try:
                            await asyncio.wait_for(ws.send(pings), 0.5)
                        except (TimeoutError, ConnectionError):
                            await asyncio.sleep(0.05)  # (the node stopped reading: its buffers are full)

                pinging = asyncio.ensure_future(keep_pinging())
                closed_at: float | None = None
                after = 0
                while True:
                    got = await ws.recv(10)
                    if got is None:
                        break
                    if got[0] == CLOSE:
                        closed_at = time.monotonic()
                    elif closed_at is not None and got[0] == PONG:
                        after += 1
                took = time.monotonic() - closed_at if closed_at is not None else 99.0
                pinging.cancel()
                await asyncio.gather(pinging, return_exceptions=True)
                ws.abort()
                return after, ws.close_code, took

            attacks = asyncio.gather(*(attack() for _ in range(4)))
            await probe_while(probe, attacks)
            results = await attacks
        for after, code, took in results:
            assert code == 1008 and after == 0, results  # nothing answered after the node's close
            assert took < 3.0, results  # and the socket closed: RAJAS_CLOSE_TIMEOUT, not the client's will
        assert metric(node, 'rajas_limit_refusals_total{limit="after_close"}') > 0
        assert_responsive(probe, "row 1, pings after the close")


# ---- 2, 10: rooms and public listings per address and network -------------------------------------------------


@pytest.mark.alone
async def test_2_a_few_prefixes_cannot_take_the_nodes_rooms() -> None:
    env = {"RAJAS_ROOMS_PER_ADDRESS": "10", "RAJAS_NETWORK_SHARE": "5", "RAJAS_ROOMS_PER_MINUTE": "10",
           "RAJAS_MAX_ROOMS": "5000"}  # fmt: skip
    with rajas_node(env=env) as node:
        async with Probe(node.url) as probe, httpx.AsyncClient(base_url=node.url, timeout=30) as http:
            await warm(probe)
            # One customer's /55: a hundred /64s in it, ten rooms each, as fast as the node answers (from a process
            # of its own, so that the probe's times are the node's).
            before = rss_mb(node)
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
                attack = asyncio.get_running_loop().run_in_executor(pool, _rooms_from_a_55, node.url)
                await probe_while(probe, attack)
                statuses = await attack
            # two /56s in the /55, each five addresses' worth: 100 rooms, not 1,000
            assert statuses.count(201) == 100 and statuses.count(429) == 900, statuses.count(201)
            assert (await _post(http, "203.0.113.7")).status_code == 201  # anyone else still gets a room
            assert rss_mb(node) < before + 50
            assert metric(node, 'rajas_limit_refusals_total{limit="rooms_held_per_network"}') > 0
            assert_responsive(probe, "row 2, 1,000 rooms from a /55")


def _rooms_from_a_55(url: str) -> list[int]:
    async def run() -> list[int]:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            prefixes = [f"2001:db8:0:{5 * i:x}::1" for i in range(100)]  # (two /56s)
            statuses: list[int] = []
            for k in range(0, 100, 10):  # ten addresses at a time, ten rooms each
                got = await asyncio.gather(*(_post(http, p) for p in prefixes[k : k + 10] for _ in range(10)))
                statuses += [r.status_code for r in got]
            return statuses

    return asyncio.run(run())


async def test_2_rooms_nobody_joined_expire_within_minutes_and_their_charge_with_them() -> None:
    env = {"RAJAS_ROOMS_PER_ADDRESS": "5", "RAJAS_NETWORK_SHARE": "1", "RAJAS_UNJOINED_TTL": "2"}
    with rajas_node(env=env) as node:
        async with httpx.AsyncClient(base_url=node.url, timeout=30) as http:
            made = [await _post(http, "198.51.100.1") for _ in range(5)]
            assert {r.status_code for r in made} == {201}
            joined = made[0].json()
            clients = Clients()
            try:
                host = await clients.open(node.url)
                await host.join(joined["code"], name="host", host_token=joined["host_token"])
                refused = await _post(http, "198.51.100.1")
                assert refused.json()["code"] == "too_many_rooms"  # the address holds its five
                await asyncio.sleep(3.5)
                for r in made[1:]:  # nobody joined these: gone
                    assert (await http.get(f"/api/rooms/{r.json()['code']}")).status_code == 404
                assert (await http.get(f"/api/rooms/{joined['code']}")).status_code == 200  # this one was joined
                again = [await _post(http, "198.51.100.1") for _ in range(5)]
                assert [r.status_code for r in again] == [201, 201, 201, 201, 429]  # four charges came back
            finally:
                await clients.close()


async def test_2_near_the_cap_the_idle_lobbies_of_the_heaviest_network_go_first() -> None:
    env = {"RAJAS_MAX_ROOMS": "40", "RAJAS_ROOMS_PER_ADDRESS": "20", "RAJAS_NETWORK_SHARE": "1",
           "RAJAS_ROOMS_PER_MINUTE": "1000"}  # fmt: skip
    with rajas_node(env=env) as node:
        async with httpx.AsyncClient(base_url=node.url, timeout=30) as http:
            a = [await _post(http, "198.51.100.1") for _ in range(20)]
            b = [await _post(http, "192.0.2.1") for _ in range(21)]
            assert {r.status_code for r in a} == {201} and [r.status_code for r in b][-1] == 429
            evicted = metric(node, 'rajas_rooms_ended_total{why="evicted"}')
            assert evicted >= 1  # (near the cap, the second network's rooms pushed out idle lobbies of the first)
            newcomer = await _post(http, "203.0.113.9")
            assert newcomer.status_code == 201, newcomer.text
            assert metric(node, 'rajas_rooms_ended_total{why="evicted"}') == evicted + 1
            gone = [r.json()["code"] for r in a + b if r.status_code == 201]
            missing = [c for c in gone if (await http.get(f"/api/rooms/{c}")).status_code == 404]
            assert len(missing) == evicted + 1  # exactly the evicted rooms are gone


@pytest.mark.alone
async def test_10_one_address_holds_its_share_of_the_public_list() -> None:
    with rajas_node(env={"RAJAS_LISTED_PER_ADDRESS": "3", "RAJAS_ROOMS_PER_MINUTE": "100"}) as node:
        async with httpx.AsyncClient(base_url=node.url, timeout=30) as http, Probe(node.url) as probe:
            await warm(probe)
            public = {"seats": 2, "public": True}
            got = []
            for _ in range(40):  # (the attack made nineteen public rooms a minute)
                got.append(await _post(http, "198.51.100.1", public))
                await probe.decide()
            assert [r.status_code for r in got] == [201, 201, 201] + [429] * 37
            assert_responsive(probe, "row 10, public rooms from one address")
            assert got[3].json()["code"] == "too_many_listed"
            assert (await _post(http, "198.51.100.1", {"seats": 2})).status_code == 201  # a private room is fine
            assert (await _post(http, "203.0.113.1", public)).status_code == 201  # another network lists its own
            listed = (await http.get("/api/rooms")).json()["rooms"]
            assert len(listed) == 4
        # Made public in the lobby: the same share (this client's address is loopback's own).
        clients = Clients()
        try:
            host = await clients.open(node.url)
            for _ in range(3):
                await host.create_room(seats=2, public=True)
            created = await host.create_room(seats=2)
            await host.join(created["code"], name="host", host_token=created["host_token"])
            with pytest.raises(ServerError) as e:
                await host.change_settings(seats=2, public=True)
            assert e.value.code == "too_many_listed"
            assert host.room is not None and host.room["settings"]["public"] is False  # nothing changed
        finally:
            await clients.close()


# ---- 3, 6: games played for nobody -----------------------------------------------------------------------------


async def _bot_table(clients: Clients, url: str, bots: int, **settings: Any) -> tuple[Any, dict[str, Any]]:
    host = await clients.open(url)
    created = await host.create_room(seats=bots + 1, **settings)
    await host.join(created["code"], name="host", host_token=created["host_token"])
    for _ in range(bots):
        await host.add_bot("random")
    await host.start()
    await host.wait_for(lambda c: c.game is not None)
    return host, created


@pytest.mark.alone
async def test_6_bots_never_play_a_game_no_person_holds_a_seat_in() -> None:
    env = {"RAJAS_BOT_PACE": "0.01", "RAJAS_ROOMS_PER_MINUTE": "1000", "RAJAS_ROOMS_PER_ADDRESS": "1000"}
    with rajas_node(env=env) as node:
        clients = Clients()
        try:
            async with Probe(node.url) as probe:
                await warm(probe)
                hosts = []
                for i in range(60):  # (half leave the game, half just go away: the bot takes their seat at once)
                    host, _ = await _bot_table(clients, node.url, 4, grace=0.05)
                    hosts.append(host)
                    await (host.leave() if i % 2 else host.close())
                await asyncio.sleep(1.0)
                played = metric(node, 'rajas_decisions_total{by="bot"}')
                idle = asyncio.ensure_future(asyncio.sleep(3))
                await probe_while(probe, idle)
            assert metric(node, 'rajas_decisions_total{by="bot"}') == played  # not one more decision for nobody
            assert metric(node, "rajas_bots_driving") == 0
            assert_responsive(probe, "row 6, 60 tables of bots left alone")
        finally:
            await clients.close()


def _left_turn_tables(url: str, n: int) -> None:
    """`n` times, one a second (the attack made ten a minute): a turn-based game of 336 h a turn with a bot on the
    largest valid sheet, started and left (in a process of its own, so that the probe's times are the node's)."""

    async def run() -> None:
        clients = Clients()
        try:
            for _ in range(n):
                host, _ = await _bot_table(clients, url, 1, mode="turns", turn_limit=336, sheet=largest())
                await host.leave()  # no person holds a seat: the game stops, and its charge goes
                await host.close()
                await asyncio.sleep(1.0)
        finally:
            await clients.close()

    asyncio.run(run())


@pytest.mark.alone
async def test_3_turn_based_bot_rooms_left_alone_stop_at_once_and_count_for_their_creator() -> None:
    """The attack: join as host, add a bot, start a turn-based game of 336 h a turn on the largest valid sheet,
    leave; again and again. Each game stops at once (no person holds a seat), and an address holds its share of
    rooms and of games of weeks, so the node's memory stays bounded."""
    env = {"RAJAS_TURN_ROOMS_PER_ADDRESS": "2", "RAJAS_ROOMS_PER_ADDRESS": "30", "RAJAS_ROOMS_PER_MINUTE": "1000"}
    turns = {"mode": "turns", "turn_limit": 336, "sheet": largest()}
    with rajas_node(env=env) as node:
        clients = Clients()
        try:
            async with Probe(node.url) as probe:
                await warm(probe)
                before = rss_mb(node)

                with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
                    attack = asyncio.get_running_loop().run_in_executor(pool, _left_turn_tables, node.url, 12)
                    await probe_while(probe, attack)
                    await attack
                for _ in range(50):
                    if metric(node, 'rajas_rooms_ended_total{why="nobody"}') == 12:
                        break
                    await asyncio.sleep(0.1)
                played = metric(node, 'rajas_decisions_total{by="bot"}')
                await asyncio.sleep(1.0)
                assert metric(node, 'rajas_decisions_total{by="bot"}') == played  # nothing played for nobody
                assert metric(node, 'rajas_rooms_ended_total{why="nobody"}') == 12
                assert rss_mb(node) < before + 60
                # Games of weeks that people do play: two at once from one address, the third refused.
                await _bot_table(clients, node.url, 1, **turns)
                await _bot_table(clients, node.url, 1, **turns)
                with pytest.raises(ServerError) as e:
                    await _bot_table(clients, node.url, 1, **turns)
                assert e.value.code == "too_many_rooms"
            assert_responsive(probe, "row 3, turn-based bot rooms left alone")
        finally:
            await clients.close()


async def test_3_a_turn_based_game_no_person_acts_in_stops_after_its_limit() -> None:
    """A game whose person is away lets one turn limit per person run out, then stops: no bot turns for a month.
    (A limit of one "hour" is 0.2 s here.)"""
    with rajas_node(env={"RAJAS_TURN_UNIT": "0.2", "RAJAS_HEARTBEAT": "0.2"}) as node:
        clients = Clients()
        try:
            away, _ = await _bot_table(clients, node.url, 1, mode="turns", turn_limit=1)
            played = metric(node, 'rajas_decisions_total{by="bot"}')
            await away.close()
            for _ in range(100):
                if metric(node, 'rajas_rooms_ended_total{why="idle"}') == 1:
                    break
                await asyncio.sleep(0.1)
            assert metric(node, 'rajas_rooms_ended_total{why="idle"}') == 1
            stopped = metric(node, 'rajas_decisions_total{by="bot"}')
            assert stopped - played < 40  # (at most the bot's turn and the one timed-out turn of the person)
            await asyncio.sleep(1.5)
            assert metric(node, 'rajas_decisions_total{by="bot"}') == stopped
        finally:
            await clients.close()


# ---- 4: chat is charged to the seat, not the connection ------------------------------------------------------


@pytest.mark.alone
async def test_4_one_seat_on_twenty_sockets_chats_at_one_seats_rate() -> None:
    with rajas_node() as node:
        clients = Clients()
        try:
            created, seated = await seated_room(clients, node.url, players=2)
            token = seated[1].token
            sockets = [await greeted(node) for _ in range(20)]
            for i, ws in enumerate(sockets):
                reply = await ws.request({"type": "join", "id": f"j{i}", "room": created["code"], "role": "player",
                                          "token": token})  # fmt: skip
                assert reply["ok"], reply
            async with Probe(node.url) as probe:
                await warm(probe)
                lines = [
                    ws.send(b"".join(message({"type": "chat", "id": f"c{k}", "text": "spam"}) for k in range(10)))
                    for ws in sockets
                ]
                await asyncio.gather(*lines)
                replies: list[dict[str, Any]] = []
                for ws in sockets:
                    for k in range(10):
                        replies.append(await ws.reply(f"c{k}"))
                for _ in range(40):
                    await probe.decide()
            said = [r for r in replies if r["ok"]]
            assert len(said) <= 6  # five at once for the seat (and one more if a few seconds went by), not 200
            assert {r["code"] for r in replies if not r["ok"]} == {"chat_rate_limited"}
            assert_responsive(probe, "row 4, one seat on twenty sockets chatting")
            for ws in sockets:
                ws.abort()
        finally:
            await clients.close()


# ---- 9: names ------------------------------------------------------------------------------------------------


async def test_9_look_alike_names_are_the_same_name_and_no_name_hides_or_turns_text() -> None:
    with rajas_node() as node:
        clients = Clients()
        try:
            host = await clients.open(node.url)
            created = await host.create_room(seats=5)
            await host.join(created["code"], name="Anna", host_token=created["host_token"])
            alikes = ("An\u200bna", "\u0410nna", "ANNA", "Ann\u0430", "\u202eAnna", "Anna\n", "\uff21nna", "\u0391nna")
            for alike in alikes:
                c = await clients.open(node.url)
                with pytest.raises(ServerError) as e:
                    await c.join(created["code"], name=alike)
                assert e.value.code == "name_taken", repr(alike)
            for bad in ("\u200b\u200d", "\u202e", " \n "):
                c = await clients.open(node.url)
                with pytest.raises(ServerError) as e:
                    await c.join(created["code"], name=bad)
                assert e.value.code == "malformed_frame", repr(bad)
            bob = await clients.open(node.url)
            await bob.join(created["code"], name="\u202eBob\u2066 the\tthird")
            await host.wait_for(lambda c: c.room is not None and len(c.room["seats"]) == 2)
            assert host.room is not None and host.room["seats"][1]["name"] == "Bob the third"
            rn = await clients.open(node.url)
            await rn.join(created["code"], name="rn")
            m = await clients.open(node.url)
            with pytest.raises(ServerError) as e:
                await m.join(created["code"], name="m")  # (TR39: "m" looks like "rn")
            assert e.value.code == "name_taken"
        finally:
            await clients.close()


# ---- 12: half-open HTTP connections ----------------------------------------------------------------------------


def _half_open(port: int, seconds: float) -> int:
    """From 127.0.0.2 (another client address than the probe's): keeps 300 half-sent upgrade requests open for
    `seconds`, each renewed as soon as the node answers it (a refusal is tried again a second later); returns how
    many the node refused at once (429). In a process of its own, so that the probe's times are the node's."""

    async def run() -> int:
        half = b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        refused = 0
        until = time.monotonic() + seconds

        async def hold() -> None:
            nonlocal refused
            while time.monotonic() < until:
                try:
                    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
                except OSError:
                    await asyncio.sleep(1)
                    continue
                writer.write(half)
                try:
                    answer = await asyncio.wait_for(reader.read(200), max(0.01, until - time.monotonic()))
                except (TimeoutError, OSError):
                    answer = b""
                writer.close()
                if answer.startswith(b"HTTP/1.1 429"):
                    refused += 1
                    await asyncio.sleep(1)

        await asyncio.gather(*(hold() for _ in range(300)))
        return refused

    return asyncio.run(run())


@pytest.mark.alone
@fast_only
@pytest.mark.xfail(
    strict=False,
    reason="an open hole: about 1 run in 5 on this machine, 18 to 39 of the 40 real requests get no answer while "
    "the refused half-open requests churn at 256 descriptors (docs/security.md, row 12)",
)
async def test_12_half_open_requests_from_one_address_cannot_take_the_nodes_descriptors() -> None:
    env = {"RAJAS_HTTP_CONNS_PER_ADDRESS": "32", "RAJAS_HANDSHAKE_TIMEOUT": "2"}
    with rajas_node(env=env, fds=256) as node:  # (300 half-open requests would take every descriptor)
        async with Probe(node.url) as probe:
            await warm(probe)
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
                attack = asyncio.get_running_loop().run_in_executor(pool, _half_open, node.port, 6.0)
                await asyncio.sleep(1.5)
                ok = 0
                async with httpx.AsyncClient(base_url=node.url, timeout=5) as http:
                    for _ in range(40):  # real requests (from the trusted proxy's address: its own to limit)
                        with contextlib.suppress(httpx.HTTPError):
                            ok += (await http.get("/health", headers={"connection": "close"})).status_code == 200
                        await probe.decide()
                await probe_while(probe, attack)
                refused = await attack
        assert ok == 40 and refused > 0
        assert metric(node, 'rajas_limit_refusals_total{limit="http_connections_per_address"}') >= refused
        assert_responsive(probe, "row 12, half-open requests from one address")


# ---- 13: a frame dribbled a byte at a time -------------------------------------------------------------------


@fast_only
def test_13_a_dribbled_frame_costs_time_linear_in_its_size() -> None:
    from rajas.server.app import create_app
    from rajas.server.edge.transport import fast
    from rajas.server.serve import uvicorn_config
    from rajas.server.storage.memory_store import MemoryStore
    from uvicorn.server import ServerState
    from websockets.protocol import State

    class Transport(asyncio.Transport):
        def get_extra_info(self, name: str, default: Any = None) -> Any:
            return ("127.0.0.1", 5000) if name in ("peername", "sockname") else default

        def write(self, data: Any) -> None:
            pass

        def is_closing(self) -> bool:
            return False

        def pause_reading(self) -> None:
            pass

        def resume_reading(self) -> None:
            pass

    def dribble(size: int) -> float:
        loop = asyncio.new_event_loop()
        try:
            asyncio.set_event_loop(loop)
            config = uvicorn_config(create_app(MemoryStore()), "127.0.0.1", 0, mode="fast")
            config.load()
            proto = fast.DirectProtocol(config=config, server_state=ServerState(), app_state={})
            proto.connection_made(Transport())
            proto.handshake_initiated = True
            proto.conn.state = State.OPEN
            data = frame(0x2, os.urandom(size))
            started = time.process_time()
            for i in range(len(data)):
                proto.data_received(data[i : i + 1])
            took = time.process_time() - started
            assert proto.queue.qsize() == 1  # the one message, whole
            return took
        finally:
            loop.close()

    small, big = dribble(64 * 1024), dribble(250 * 1024)
    print(f"\nrow 13: 64 KiB a byte at a time {small * 1000:.0f} ms of CPU, 250 KiB {big * 1000:.0f} ms")
    assert big < 6 * small  # four times the bytes, about four times the time (it was eleven: quadratic)


# ---- 14: /health and /metrics for strangers --------------------------------------------------------------------


async def test_14_health_names_nothing_and_metrics_are_hidden_from_strangers(node: Node) -> None:
    async with httpx.AsyncClient(base_url=node.url, timeout=5) as http:
        stranger = {"X-Forwarded-For": "203.0.113.50"}
        assert (await http.get("/health", headers=stranger)).json() == {"ok": True}
        assert (await http.get("/metrics", headers=stranger)).status_code == 404
        mine = (await http.get("/health")).json()  # (loopback is RAJAS_MONITOR_ALLOW_IPS by default)
        assert mine["ok"] is True and mine["node"] == node.name and "connections" in mine
        assert "rajas_limit_refusals_total" in (await http.get("/metrics")).text


def test_every_budget_has_a_sample_in_metrics_and_a_line_in_the_docs(node: Node) -> None:
    from pathlib import Path

    from rajas.server.budget import Ledger
    from rajas.server.config import FIELDS, ServeSettings, variable
    from rajas.server.metrics import LIMITS

    samples = node.metrics()
    labels = [*LIMITS, *Ledger(ServeSettings()).labels()]
    for label in labels:
        assert samples[f'rajas_limit_refusals_total{{limit="{label}"}}'] == 0, label
    doc = (Path(__file__).resolve().parents[2] / "docs" / "security.md").read_text()
    for label in labels:
        assert f"`{label}`" in doc, f"docs/security.md does not list the limit {label}"
    # and every setting that is a budget, with its default (the rest are the node's own: where, what, how it logs)
    own = {"host", "port", "redis", "room_ttl", "log_level", "log_format", "node", "heartbeat", "node_ttl", "stall",
           "transport", "history_per_room", "bot_pace", "turn_room_ttl", "turn_unit", "smtp_url", "smtp_from",
           "public_url"}  # fmt: skip
    for name in FIELDS:
        if name not in own:
            assert f"`{variable(name)}`" in doc, f"docs/security.md does not list {variable(name)}"

"""Malformed messages against a real node: each gets its documented code (never `internal`), counts towards the
strikes that close a connection, and writes no log line; ids no reply could name are still answered; types are
not coerced; and nothing a connection sent after its close is carried out."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from rajas.protocol import pack, unpack
from rajas.protocol.messages import CLIENT_TYPES

from tests.server.conftest import Clients, mover, seated_room

from .attackers import BINARY, TEXT, RawWs, frame, greeted, message
from .node import Node, Probe, get, metric, rajas_node

NASTY: list[Any] = [
    None, True, False, -1, 0, 2**53, 2**64 - 1, 1.5, -0.0, "", "1", "x" * 200, [], {}, [[[[]]]], {"a": [1]},
    ["die"], ["die", [1], 0], [["die"], [], -1], [{"kind": "die"}, [0]], {"kind": ["die"]}, ["die", [2**63]],
    ["die", ["1"], -1], ["road", [1, [2]], -1], ["x" * 100, [], -1], ["pass", [], 2**62], ["die", {}, -1],
]  # fmt: skip
JSON_ONLY: list[Any] = [2**64, 2**70, -(2**70), 1e308, float("nan"), float("inf")]


@pytest.mark.alone
async def test_a_list_where_a_decisions_kind_belongs_is_malformed_and_strikes() -> None:
    """Attack 7: 20 s of decisions whose kind is a list made the node log 13.5 MB of tracebacks and answer
    `internal` without ever closing the connection."""
    with rajas_node(env={"RAJAS_STRIKES": "20"}) as node:
        clients = Clients()
        try:
            created, seated = await seated_room(clients, node.url, players=2)
            attacker = await RawWs.open(node)
            await attacker.request({"type": "hello", "id": 0, "protocol": 1})
            c = mover(seated)
            joined = await attacker.request({"type": "join", "id": 1, "room": created["code"], "token": c.token})
            assert joined["ok"]
            log_before = node.log.stat().st_size
            async with Probe(node.url) as probe:
                await attacker.send(b"".join(message({"type": "decide", "id": f"d{i}", "decision": [["die"], [0], -1]})
                                             for i in range(500)))  # fmt: skip
                replies = await attacker.replies_until_closed()
                assert await probe.decide() < 100
            assert attacker.close_code == 1008
            assert {r["code"] for r in replies} == {"malformed_decision"} and 20 <= len(replies) <= 22
            assert metric(node, 'rajas_errors_total{code="internal"}') == 0
            assert node.log.stat().st_size - log_before < 2000  # no line per message
        finally:
            await clients.close()


async def test_ids_no_reply_could_carry_are_refused_with_a_null_id(shared_node: Node) -> None:
    ws = await greeted(shared_node, binary=False)
    for big in (2**64, 2**70, 2**53, -1):
        await ws.send(message({"type": "ping", "id": big}, binary=False))
        reply = await ws.reply(None)
        assert reply["code"] == "malformed_frame" and reply["ok"] is False
    bws = await greeted(shared_node)
    await bws.send(message({"type": "ping", "id": 2**64 - 1}))  # the largest msgpack integer
    assert (await bws.reply(None))["code"] == "malformed_frame"
    assert (await bws.request({"type": "ping", "id": 2**53 - 1}))["ok"]  # still connected, the largest id
    assert (await ws.request({"type": "ping", "id": 7}, binary=False))["ok"]
    ws.abort()
    bws.abort()


async def test_types_are_not_coerced(shared_node: Node) -> None:
    ws = await RawWs.open(shared_node)
    assert (await ws.request({"type": "hello", "id": 1, "protocol": "1"}))["code"] == "malformed_frame"
    assert (await ws.request({"type": "hello", "id": 2, "protocol": True}))["code"] == "malformed_frame"
    await ws.send(message({"type": "hello", "id": True, "protocol": 1}))
    assert (await ws.reply(None))["code"] == "malformed_frame"  # (a true id is no id: the reply names none)
    assert (await ws.request({"type": "hello", "id": 3, "protocol": 1}))["ok"]
    for settings in ({"seats": "3"}, {"seats": 3.0}, {"public": 1}, {"turn_clock": "60"}, {"spectators": "yes"}):
        reply = await ws.request({"type": "create_room", "id": f"c{settings}", "settings": settings})
        assert reply["code"] == "malformed_frame", settings
    assert (await ws.request({"type": "create_room", "id": "ok", "settings": {"seats": 3, "turn_clock": 60}}))["ok"]
    ws.abort()


async def test_nothing_received_after_a_close_is_carried_out() -> None:
    """Refusals past the strikes and, in the same read, a legal decision: the connection is closed (1008) and
    the decision is not applied (the room's version does not move)."""
    with rajas_node(env={"RAJAS_STRIKES": "5"}) as node:
        clients = Clients()
        try:
            created, seated = await seated_room(clients, node.url, players=2)
            c = mover(seated)
            assert c.pending is not None
            v = json.loads(get(f"{node.url}/api/rooms/{created['code']}"))["v"]
            attacker = await RawWs.open(node)
            await attacker.request({"type": "hello", "id": 0, "protocol": 1})
            assert (await attacker.request({"type": "join", "id": 1, "room": created["code"], "token": c.token}))["ok"]
            legal = {"type": "decide", "id": "legal", "decision": c.pending["options"][0], "v": v}
            nonsense = [message({"type": "nonsense", "id": i}) for i in range(10)]
            await attacker.send(b"".join([*nonsense, message(legal)]))  # one write: the node reads them at once
            replies = await attacker.replies_until_closed()
            assert attacker.close_code == 1008
            assert "legal" not in [r["id"] for r in replies]
            await asyncio.sleep(0.3)
            assert json.loads(get(f"{node.url}/api/rooms/{created['code']}"))["v"] == v
        finally:
            await clients.close()


async def test_random_malformed_messages_get_documented_codes_never_internal() -> None:
    """Every message type with each field in turn replaced by a nasty value, in msgpack and JSON, from a player
    seated in a game: every reply is a documented refusal or an ok, none is `internal`, and the node logs
    nothing for them."""
    from rajas.protocol import ERROR_CODES

    rng = random.Random(13)
    base: dict[str, dict[str, Any]] = {
        "hello": {"protocol": 1}, "create_room": {"settings": {"seats": 2}}, "join": {"room": "x", "name": "n"},
        "leave": {}, "kick": {"seat": 1}, "start": {}, "hand_over": {"seat": 1}, "settings": {"settings": {}},
        "decide": {"decision": ["pass", [], -1]}, "snapshot": {}, "ping": {},
        "contribute": {"commitment": "0" * 64, "value": "1" * 64}, "email": {"address": "a@example.org"},
        "undo": {"v": 1}, "chat": {"text": "hi"}, "chat_rules": {"spectators": False}, "bot_now": {"seat": 1},
        "ready": {"ready": True}, "rematch": {}, "add_bot": {"kind": "random"}, "remove_bot": {"seat": 1},  # issue 17
    }  # fmt: skip
    assert set(base) == set(CLIENT_TYPES)
    env = {"RAJAS_RATE": "100000", "RAJAS_BURST": "100000", "RAJAS_STRIKES": "100000", "RAJAS_ROOMS_PER_MINUTE": "1000"}
    with rajas_node(env=env) as node:
        clients = Clients()
        try:
            created, seated = await seated_room(clients, node.url, players=2)
            log_before = node.log.stat().st_size
            for binary in (True, False):
                ws = await greeted(node, binary)
                await ws.request({"type": "join", "id": "j", "room": created["code"], "token": seated[0].token}, binary)
                frames = []
                n = 0
                for kind, fields in base.items():
                    for key in ["type", "id", *fields, "extra"]:
                        pool = NASTY + (JSON_ONLY if not binary else [])
                        for value in pool if key == "decision" else rng.sample(pool, 12):
                            obj = {"type": kind, "id": f"m{n}", **fields, key: value}
                            n += 1
                            frames.append(pack(obj) if binary else json.dumps(obj))
                for _ in range(100):  # not even a map
                    frames.append(pack(rng.choice(NASTY)) if binary else json.dumps(rng.choice(NASTY + JSON_ONLY)))
                await ws.send(b"".join(message_bytes(f, binary) for f in frames))
                await ws.send(message({"type": "ping", "id": "last"}, binary))
                codes = []
                while True:
                    got = await ws.recv(10)
                    assert got is not None
                    opcode, payload = got
                    msg = json.loads(payload) if opcode == TEXT else unpack(payload)
                    if msg.get("type") == "reply":
                        codes.append(msg.get("code"))
                        if msg.get("id") == "last":
                            break
                refused = {c for c in codes if c is not None}
                assert "internal" not in refused and refused <= set(ERROR_CODES)
                assert len(codes) >= n  # every message answered
                ws.abort()
            assert metric(node, 'rajas_errors_total{code="internal"}') == 0
            assert node.log.stat().st_size - log_before < 5000
        finally:
            await clients.close()


def message_bytes(data: bytes | str, binary: bool) -> bytes:
    return frame(BINARY, data) if binary and isinstance(data, bytes) else frame(TEXT, str(data).encode())

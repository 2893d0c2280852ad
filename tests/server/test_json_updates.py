"""JSON text clients (the browser) get each update as text the encoder builds from kept parts: it must be exactly
the text that decoding the packed update and writing it as JSON gives, whichever updates were made as text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rajas.games.dice_charmers.engine.bots import random_bot
from rajas.games.dice_charmers.engine.decisions import Decision
from rajas.protocol import pack, to_json, unpack
from rajas.protocol.messages import RoomSettings
from rajas.server.edge.connection import Frame
from rajas.server.rooms import changes
from rajas.server.rooms.encoding import StateEncoder, update
from rajas.server.rooms.frozen import FrozenDict
from rajas.server.rooms.json_text import dumps
from rajas.server.rooms.packed import Lazy
from rajas.server.rooms.room import Room
from rajas.server.rooms.state_text import HEAD_PARTS, SHEET_PARTS, Parts, head_text, sheet_text
from rajas.server.rooms.views import player_view, state_head
from rajas.server.storage.store import SPECTATORS


def _seated(players: int) -> Room:
    room = Room.create(RoomSettings(seats=players))
    for i in range(players):
        room = room.clone()
        changes.take_seat(room, f"p{i}", room.host_token if i == 0 else None)
    return room


@pytest.mark.parametrize("delta", [False, True], ids=["whole", "changed players only"])
def test_an_updates_json_text_is_its_packed_form_written_as_json_at_every_step(delta: bool) -> None:
    encoder = StateEncoder()
    room = _seated(5)
    counts = FrozenDict({s["id"]: 1 for s in room.seats} | {SPECTATORS: 2})
    late: list[tuple[Callable[[], str], bytes]] = []
    bot = random_bot(5)
    for k in range(160):
        base = room.state if delta else None
        room = room.clone()
        if k == 0:
            events = changes.start(room, 0.0)
        else:
            assert room.state is not None
            if room.state.is_over:
                break
            seat = room.state.current
            events, _ = changes.decide(room, seat, bot(room.state).to_wire(), "player", float(k))
        room.v += 1
        _, game = encoder.commit(room, base)
        now, room_view = 1_700_000_000.0 + k / 7, encoder.room_view(room, counts)
        packed, _ = update(room.v, now, events, room_view, game)
        text = encoder.update_text(room, now, events, room_view, base)
        if k % 3 == 2:
            late.append((text, packed))  # made later, after newer commits moved the encoder's parts on
            continue
        assert text() == to_json(unpack(packed))
    assert len(late) > 20
    for text, packed in late:
        assert text() == to_json(unpack(packed))


def test_with_the_in_process_store_an_update_only_json_clients_get_is_never_packed() -> None:
    """A lazy commit (server/rooms.py asks for one with the in-process store) packs its game view, update and
    record only when asked, and then exactly as an eager commit does; its JSON text needs none of them."""
    eager, lazy = StateEncoder(), StateEncoder()
    room = _seated(5)
    counts = FrozenDict({s["id"]: 1 for s in room.seats} | {SPECTATORS: 2})
    bot = random_bot(5)
    for k in range(80):
        base = room.state
        room = room.clone()
        if k == 0:
            events = changes.start(room, 0.0)
        else:
            assert room.state is not None
            events, _ = changes.decide(room, room.state.current, bot(room.state).to_wire(), "player", float(k))
        room.v += 1
        now = 1_700_000_000.0 + k
        record, game = eager.commit(room, base)
        packed, recent = update(room.v, now, events, eager.room_view(room, counts), game)
        lazy_record, lazy_game = lazy.commit(room, base, lazy=True)
        view = lazy.room_view(room, counts)
        lazy_packed, lazy_recent = update(room.v, now, events, view, lazy_game)
        assert isinstance(lazy_game, Lazy) and isinstance(lazy_packed, Lazy)
        assert lazy_recent == recent  # (packed at once: the room keeps it)
        assert lazy.update_text(room, now, events, view, base)() == to_json(unpack(packed))
        assert lazy_game._data is None and lazy_packed._data is None  # (the text made none of them)
        if k % 3 == 0:  # (some asked for, some never: the encoder's kept sheets must serve both)
            assert lazy_packed.data == packed
            assert unpack(lazy_record.data) == unpack(record.data)


def test_a_frame_makes_its_text_once_and_a_reply_writes_its_own() -> None:
    made: list[int] = []

    def text() -> str:
        made.append(1)
        return '{"type":"update"}'

    frame = Frame(pack({"type": "update"}), text)
    assert frame.wire(False) == b"\x81\x11" + b'{"type":"update"}' and frame.text == '{"type":"update"}'
    assert made == [1]
    reply = {"type": "reply", "id": "é", "ok": True, "data": {"v": (1, 2)}}
    assert Frame.of(reply, text=True).text == Frame(pack(reply)).text == to_json(unpack(pack(reply)))
    # (A text client's frame is packed only if asked for, and then as any other; a reply kept as sent goes
    # out again as it was.)
    assert Frame.of(reply, text=True).packed == pack(reply)
    sent = Frame.of(reply, text=True).text
    assert Frame.sent(sent).wire(False) == Frame.of(reply, text=True).wire(False)
    assert Frame.sent(sent).packed == pack(unpack(pack(reply))) and Frame.sent(pack(reply)).packed == pack(reply)


def test_the_servers_json_is_what_json_dumps_writes() -> None:
    import json

    for obj in (1, "é", None, "x", [1.5, float("nan")], {"a": (1, 2), 3: None}, {"q": 'say "hi"'}, True, 2**70):
        assert to_json(obj) == json.dumps(obj, separators=(",", ":"))


PLAIN: list[Any] = [
    0, -1, 2**70, -(2**64), 1.5, -0.0, 1e300, 2.0, float("nan"), float("inf"), float("-inf"), True, False, None,
    "", "é", "x\"y\\z\n\x00", "\u2028 emoji \U0001f600", "a" * 100, [], (), {}, [1, [2, (3,)]], (None, True),
    {"a": 1, "b": [1.25, {"c": None}]}, {3: "int key", "s": 1}, {1.5: "float key"}, {True: 1, None: 2},
    FrozenDict({"frozen": (1, 2)}), {"deep": [{"x": [[], {}]}]}, Decision("road", (3, 1), -1), [Decision("pass")],
]  # fmt: skip


@pytest.mark.parametrize("obj", PLAIN, ids=range(len(PLAIN)))
def test_the_fast_writer_writes_what_json_writes(obj: Any) -> None:
    assert dumps(obj) == to_json(obj)
    assert dumps([obj, {"k": obj}]) == to_json([obj, {"k": obj}])


def test_a_sheets_and_the_state_heads_parts_are_written_again_only_when_replaced() -> None:
    room = _seated(5)
    sheets, head, fresh = [Parts(SHEET_PARTS) for _ in range(5)], Parts(HEAD_PARTS), Parts(SHEET_PARTS)
    bot = random_bot(3)
    state = room.state
    for k in range(400):
        room = room.clone()
        if k == 0:
            changes.start(room, 0.0)
        else:
            assert room.state is not None
            if room.state.is_over:
                break
            changes.decide(room, room.state.current, bot(room.state).to_wire(), "player", float(k))
        state = room.state
        assert state is not None
        assert head_text(head, state) + "}" == to_json(state_head(state))
        for i, p in enumerate(state.players):
            assert sheet_text(sheets[i], state, p) == to_json(player_view(state, p))
        p = state.players[k % 5]  # (one slot's parts for every seat in turn: nothing carried over wrongly)
        assert sheet_text(fresh, state, p) == to_json(player_view(state, p))
    assert state is not None and state.is_over and state.result is not None
    parts = Parts(1)  # an int kept while equal, another part while it is the same object
    assert parts.equal(0, 300, str) == "300" and parts.equal(0, 299 + int("1"), lambda n: "x") == "300"
    assert parts.same(0, (1,), dumps) == "[1]" and parts.same(0, (2,), dumps) == "[2]"

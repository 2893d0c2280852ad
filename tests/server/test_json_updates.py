"""JSON text clients (the browser) get each update as text the encoder builds from kept parts: it must be exactly
the text that decoding the packed update and writing it as JSON gives, whichever updates were made as text."""

from __future__ import annotations

from collections.abc import Callable

from rajas.engine.bots import random_bot
from rajas.protocol import pack, to_json, unpack
from rajas.protocol.messages import RoomSettings
from rajas.server import changes
from rajas.server.connection import Frame
from rajas.server.encoding import StateEncoder, update
from rajas.server.frozen import FrozenDict
from rajas.server.room import Room
from rajas.server.store import SPECTATORS


def _seated(players: int) -> Room:
    room = Room.create(RoomSettings(seats=players))
    for i in range(players):
        room = room.clone()
        changes.take_seat(room, f"p{i}", room.host_token if i == 0 else None)
    return room


def test_an_updates_json_text_is_its_packed_form_written_as_json_at_every_step() -> None:
    encoder = StateEncoder()
    room = _seated(5)
    counts = FrozenDict({s["id"]: 1 for s in room.seats} | {SPECTATORS: 2})
    late: list[tuple[Callable[[], str], bytes]] = []
    bot = random_bot(5)
    for k in range(160):
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
        _, game = encoder.commit(room)
        now, room_view = 1_700_000_000.0 + k / 7, encoder.room_view(room, counts)
        packed, _ = update(room.v, now, events, room_view, game)
        text = encoder.update_text(room, now, events, room_view)
        if k % 3 == 2:
            late.append((text, packed))  # made later, after newer commits moved the encoder's parts on
            continue
        assert text() == to_json(unpack(packed))
    assert len(late) > 20
    for text, packed in late:
        assert text() == to_json(unpack(packed))


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


def test_the_servers_json_is_what_json_dumps_writes() -> None:
    import json

    for obj in (1, "é", None, "x", [1.5, float("nan")], {"a": (1, 2), 3: None}, {"q": 'say "hi"'}, True, 2**70):
        assert to_json(obj) == json.dumps(obj, separators=(",", ":"))

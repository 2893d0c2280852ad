"""What each audience is sent: the update of a commit and the room's record, made from one structure and encoded
once per format (JSON by orjson for the browser, msgpack for binary clients) — the same data either way."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from rajas.games.dice_charmers.engine import apply, load_sheet, new_game
from rajas.games.dice_charmers.engine.bots import random_bot
from rajas.games.dice_charmers.game import GAME
from rajas.protocol import pack, unpack
from rajas.protocol.messages import RoomSettings
from rajas.server.frames import Frame, Lazy, ws_frame
from rajas.server.rooms import changes, views
from rajas.server.rooms.frozen import FrozenDict
from rajas.server.rooms.room import FIELDS, Room
from rajas.server.storage.store import SPECTATORS, merge_records

from .conftest import TRANSPORT, Clients, run_server, seated_room


def _plain(x: Any) -> Any:
    return json.loads(json.dumps(x))


def _seated(players: int) -> Room:
    room = Room.create(RoomSettings(seats=players))
    for i in range(players):
        room = room.clone()
        changes.take_seat(room, f"p{i}", room.host_token if i == 0 else None)
    return room


@pytest.mark.parametrize("players", [2, 5])
def test_the_dice_charmers_view_is_the_engines_state_at_every_step(players: int) -> None:
    # The view keeps the sheets of players `apply` did not copy; if the engine ever changed a player it had not
    # copied, this would catch the stale sheet.
    state, _ = new_game(players, 7, load_sheet("sun"))
    bot = random_bot(3)
    steps = 0
    while not state.is_over:
        shown = _plain(GAME.view(state, None)["state"])
        plain = state.to_dict()
        assert {k: v for k, v in shown.items() if k != "players"} == {
            k: v for k, v in plain.items() if k not in ("players", "rng")
        }
        assert [{k: v for k, v in p.items() if k != "overlap"} for p in shown["players"]] == plain["players"]
        state, _ = apply(state, bot(state))
        steps += 1
    assert steps > 50


@pytest.mark.parametrize("players", [2, 5])
def test_an_update_names_only_the_players_whose_sheets_changed(players: int) -> None:
    """A decision changes the sheet of the player who made it: an update sends that one and `null` for the others,
    which a client holds from the version before; filling them in from it gives the whole state again."""
    state, _ = new_game(players, 11, load_sheet("sun"))
    bot = random_bot(5)
    held = _plain(GAME.view(state, None)["state"])  # what a client holds after its snapshot
    sent = whole = 0
    while not state.is_over:
        base = state
        state, _ = apply(state, bot(state))
        got = _plain(GAME.view(state, None, base)["state"])
        assert [p is None for p in got["players"]] == [a is b for a, b in zip(state.players, base.players, strict=True)]
        sent += sum(1 for p in got["players"] if p is not None)
        got["players"] = [p if p is not None else held["players"][i] for i, p in enumerate(got["players"])]
        assert got == _plain(GAME.view(state, None)["state"])
        held = got
        whole += players
    assert sent < whole / 2 if players == 5 else sent < whole


def test_clients_see_how_far_the_tracks_crossed_and_never_the_dice_generator() -> None:
    state, _ = new_game(3, 7, load_sheet("sun"))
    seen = GAME.view(state, None)["state"]
    assert "rng" not in seen and all(isinstance(p["overlap"], float) for p in seen["players"])
    assert str(state.rng) not in json.dumps(_plain(seen)) and format(state.rng, "080x") not in json.dumps(_plain(seen))


def test_every_update_of_a_whole_game_is_the_same_data_in_json_and_in_msgpack() -> None:
    room = _seated(5)
    counts = FrozenDict({s["id"]: 1 for s in room.seats} | {SPECTATORS: 2})
    kept = views.RoomViews()
    bot = random_bot(5)
    for k in range(80):
        base = room
        room = room.clone()
        if k == 0:
            events = changes.start(room, 0.0)
        else:
            assert room.state is not None
            seat = GAME.to_move(room.state)
            assert seat is not None
            events, _ = changes.decide(room, seat, bot(room.state).to_wire(), "player", float(k))
        room.v += 1
        frames = views.updates(kept, room, base, events, counts, 1_700_000_000.0 + k)
        assert list(frames) == [None]  # (no hidden information: one update for everyone)
        frame = frames[None]
        assert orjson.loads(frame.json) == unpack(frame.packed) == _plain(orjson.loads(frame.json))
        message = unpack(views.published(room.v, events, frames))
        assert message["everyone"] == frame.packed and message["seats"] == []


def test_a_frame_encodes_each_format_once_and_a_reply_kept_as_sent_goes_out_as_it_was() -> None:
    reply = {"type": "reply", "id": "é", "ok": True, "data": {"v": (1, 2)}}
    frame = Frame(reply)
    assert frame.json is frame.json and frame.packed is frame.packed
    assert frame.wire(False) == b"\x81" + bytes((len(frame.json),)) + frame.json
    assert (
        json.loads(frame.json)
        == unpack(frame.packed)
        == {"type": "reply", "id": "é", "ok": True, "data": {"v": [1, 2]}}
    )
    assert Frame.sent(frame.text).wire(False) == frame.wire(False)
    assert Frame.sent(frame.packed).wire(True) == frame.wire(True)
    assert Frame(packed=pack(reply)).json == frame.json  # (from the store's channel: decoded once for text clients)


@pytest.mark.parametrize("n", [0, 125, 126, 65_535, 65_536])
def test_websocket_frames_carry_their_length(n: int) -> None:
    payload = b"x" * n
    frame = ws_frame(payload, binary=True)
    assert frame[0] == 0x82 and frame.endswith(payload)
    header = len(frame) - n
    assert header == (2 if n < 126 else 4 if n < 65536 else 10)


async def test_broadcasts_are_written_straight_to_the_socket() -> None:
    # Under the fast transport frames skip uvicorn's send (a uvicorn upgrade that changed its internals would
    # quietly make every broadcast dearer: this says so); the standard one always goes through it.
    from rajas.server.storage.memory_store import MemoryStore

    async with run_server(MemoryStore()) as server:
        clients = Clients()
        try:
            created, seated = await seated_room(clients, server.url, players=2)
            conns = server.hub.rooms[created["code"]].conns
            assert len(conns) == 2
            assert all((c._raw.transport is not None) == (TRANSPORT == "fast") for c in conns)  # type: ignore[attr-defined]
            v = seated[0].v
            for c in seated:
                assert c.game is not None and c.v == v
        finally:
            await clients.close()


def test_a_rooms_record_is_the_room_again_through_lobby_and_play() -> None:
    room = _seated(3)
    assert unpack(pack(Room.from_record(unpack(pack(room.to_record()))).to_record())) == unpack(pack(room.to_record()))
    room = room.clone()
    changes.change_settings(room, RoomSettings(seats=3, sheet="moon"))  # type: ignore[call-arg]
    assert unpack(pack(room.fixed()))["settings"]["sheet"] == "moon"
    room = room.clone()
    changes.start(room, 0.0)
    bot = random_bot(1)
    for k in range(40):
        room = room.clone()
        assert room.state is not None
        seat = GAME.to_move(room.state)
        assert seat is not None
        changes.decide(room, seat, bot(room.state).to_wire(), "player", float(k))
        room.remember(room.seats[seat]["id"], f"d{k}")
        whole = merge_records(pack(room.fixed()), pack(room.changing()))
        again = Room.from_record(unpack(whole))
        assert unpack(pack(again.to_record())) == unpack(whole)
        assert again.state.to_dict() == room.state.to_dict()
        assert "settings" not in room.changing()  # a decision's record leaves the fixed part out


def test_a_clone_has_every_field_of_its_room() -> None:
    room = Room.create(RoomSettings(seats=2))
    changes.take_seat(room, "p0", room.host_token)
    copy = room.clone()
    assert all(getattr(copy, name) == getattr(room, name) for name in FIELDS)


def test_a_clone_shares_the_seats_until_a_change_copies_them() -> None:
    room = Room.create(RoomSettings(seats=3))
    changes.take_seat(room, "p0", room.host_token)
    changes.take_seat(room, "p1", None)
    before = [dict(s) for s in room.seats]
    for change in (
        lambda r: changes.take_seat(r, "p2", None),
        lambda r: changes.leave(r, 1),
        lambda r: changes.kick(r, 1),
        lambda r: changes.set_bot(r, 0, True),
    ):
        copy = room.clone()
        assert copy.seats is room.seats  # (so the room's view is kept while they are)
        change(copy)
        assert copy.seats is not room.seats and [dict(s) for s in room.seats] == before


def test_a_plain_decide_skips_the_general_validator_but_not_its_checks() -> None:
    from rajas.protocol import ProtocolError, parse_message
    from rajas.protocol.messages import Decide

    ok = parse_message({"type": "decide", "id": "d1", "decision": ["pass", [], -1], "v": 3})
    assert isinstance(ok, Decide) and (ok.id, ok.v) == ("d1", 3)
    assert parse_message({"type": "decide", "id": 7, "decision": 1}).v is None
    for bad in (
        {"type": "decide", "id": "", "decision": 1},
        {"type": "decide", "id": "x" * 65, "decision": 1},
        {"type": "decide", "id": -1, "decision": 1},
        {"type": "decide", "id": "d", "decision": 1, "extra": 1},
        {"type": "decide", "id": "d"},
        {"type": "decide", "id": "d", "decision": 1, "v": "many"},
        {"type": "decide", "id": "d", "decision": 1, "v": "4"},  # strict: no coercion, the general way either
        {"type": "decide", "id": True, "decision": 1},
    ):
        with pytest.raises(ProtocolError):
            parse_message(bad)


async def test_the_memory_store_packs_a_record_when_read_or_once_the_room_is_quiet() -> None:
    from rajas.server.storage.memory_store import MemoryStore

    store = MemoryStore(sweep_every=60)
    assert await store.create("c", "w", pack({"v": 1}), public=False)
    made: list[int] = []

    def record() -> bytes:
        made.append(1)
        return pack({"v": 2})

    assert await store.commit("c", 1, Lazy(record), None, pack({"type": "update", "v": 2}))
    assert made == [] and not isinstance(store.records["c"][1], bytes)
    store.sweep(now=store.touched["c"] + 30)
    assert made == []  # still busy: a later commit would only replace it
    store.sweep(now=store.touched["c"] + 61)
    assert made == [1] and store.records["c"][1] == pack({"v": 2})
    assert await store.load("c") == pack({"v": 2}) and made == [1]

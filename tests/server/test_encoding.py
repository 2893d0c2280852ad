"""Updates and records are built from packed parts; they must decode to exactly what packing the whole gives."""

from __future__ import annotations

import pytest
from rajas.games.dice_charmers.engine import apply, load_sheet, new_game
from rajas.games.dice_charmers.engine.bots import random_bot
from rajas.protocol import pack, unpack
from rajas.server.edge.connection import Frame
from rajas.server.edge.transport.base import ws_frame
from rajas.server.rooms import changes
from rajas.server.rooms.encoding import (
    StateEncoder,
    extend_map,
    game_view,
    merge_maps,
    pack_array,
    pack_map,
    public_state,
    stored,
)

from .conftest import TRANSPORT, Clients, run_server, seated_room


@pytest.mark.parametrize("size", [0, 3, 15, 16, 17, 70_000])
def test_spliced_maps_and_arrays_decode_as_if_packed_whole(size: int) -> None:
    head = {f"k{i}": i for i in range(size)}
    assert unpack(pack_map(head, [("x", pack([1, "two"]))])) == head | {"x": [1, "two"]}
    assert unpack(extend_map(pack(head), [("y", pack(None)), ("z", pack({}))])) == head | {"y": None, "z": {}}
    items = [pack(i) for i in range(size)]
    assert unpack(pack_array(items)) == list(range(size))


@pytest.mark.parametrize("players", [2, 5])
def test_a_whole_game_encodes_like_to_dict_at_every_step(players: int) -> None:
    # The encoder reuses the packed sheets of players `apply` did not copy; if the engine ever changed a
    # player it had not copied, this would catch the stale sheet.
    state, _ = new_game(players, 7, load_sheet("sun"))
    encoder = StateEncoder()
    bot = random_bot(3)
    steps = 0
    while not state.is_over:
        public, _, rng = encoder.encode(state)
        assert unpack(public) == unpack(pack(public_state(state)))
        assert {k: v for k, v in unpack(public).items() if k != "players"} | {"rng": rng} == {
            k: v for k, v in state.to_dict().items() if k != "players"
        }
        state, _ = apply(state, bot(state))
        steps += 1
    assert steps > 50
    public, _, rng = encoder.encode(state)
    assert unpack(public) == unpack(pack(public_state(state)))


@pytest.mark.parametrize("players", [2, 5])
def test_an_update_names_only_the_players_whose_sheets_changed(players: int) -> None:
    """A decision changes the sheet of the player who made it: an update sends that one and `null` for the others,
    which a client holds from the version before; filling them in from it gives the whole state again."""
    state, _ = new_game(players, 11, load_sheet("sun"))
    encoder = StateEncoder()
    bot = random_bot(5)
    held = unpack(pack(public_state(state)))  # what a client holds after its snapshot
    sent = whole = 0
    while not state.is_over:
        base = state
        state, _ = apply(state, bot(state))
        _, changed, _ = encoder.encode(state, base)
        got = unpack(changed)
        assert [p is None for p in got["players"]] == [a is b for a, b in zip(state.players, base.players, strict=True)]
        got["players"] = [p if p is not None else held["players"][i] for i, p in enumerate(got["players"])]
        assert got == unpack(pack(public_state(state)))
        held = got
        sent += sum(1 for p in unpack(changed)["players"] if p is not None)
        whole += players
    assert sent < whole / 2 if players == 5 else sent < whole


def test_clients_see_the_engines_state_and_how_far_the_tracks_crossed() -> None:
    state, _ = new_game(3, 7, load_sheet("sun"))
    seen = public_state(state)
    plain = state.to_dict()
    assert "rng" not in seen and "overlap" not in plain["players"][0]
    assert [{k: v for k, v in p.items() if k != "overlap"} for p in seen["players"]] == plain["players"]
    assert all(isinstance(p["overlap"], float) for p in seen["players"])


@pytest.mark.parametrize("n", [0, 125, 126, 65_535, 65_536])
def test_websocket_frames_carry_their_length(n: int) -> None:
    payload = b"x" * n
    frame = ws_frame(payload, binary=True)
    assert frame[0] == 0x82 and frame.endswith(payload)
    header = len(frame) - n
    assert header == (2 if n < 126 else 4 if n < 65536 else 10)
    assert Frame(pack("hé")).wire(False) == b"\x81\x09" + b'"h\\u00e9"'  # JSON text, as json.dumps writes it


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
            assert all((c._raw.transport is not None) == (TRANSPORT == "fast") for c in conns)
            v = seated[0].v
            for c in seated:
                assert c.game is not None and c.v == v
        finally:
            await clients.close()


def test_a_rooms_packed_record_is_its_record_through_lobby_and_play() -> None:
    from rajas.protocol.messages import RoomSettings
    from rajas.server.rooms.room import Room

    encoder = StateEncoder()
    room = Room.create(RoomSettings(seats=3))
    seen = []
    for i in range(3):
        room = room.clone()
        changes.take_seat(room, f"p{i}", room.host_token if i == 0 else None)
        seen.append(merge_maps([encoder.fixed_record(room), encoder.commit(room)[0].data], []))
        assert unpack(seen[-1]) == unpack(pack(room.to_record()))
    room = room.clone()
    changes.change_settings(room, RoomSettings(seats=3, sheet="moon"))
    assert unpack(encoder.fixed_record(room))["settings"]["sheet"] == "moon"
    room = room.clone()
    changes.start(room, 0.0)
    bot = random_bot(1)
    for k in range(40):
        room = room.clone()
        assert room.state is not None
        seat = room.state.current
        changes.decide(room, seat, bot(room.state).to_wire(), "player", float(k))
        room.remember(room.seats[seat]["id"], f"d{k}")
        record, game = encoder.commit(room)
        assert unpack(merge_maps([encoder.fixed_record(room), record.data], [])) == unpack(pack(stored(room)))
        assert "settings" not in unpack(record.data)  # a decision's record leaves the fixed part out
        assert unpack(game) == unpack(pack(game_view(room)))
    room = room.clone()
    assert changes.hand_over(room, 1) and unpack(encoder.fixed_record(room))["host_token"] == room.host_token


def test_a_clone_has_every_field_of_its_room() -> None:
    from rajas.protocol.messages import RoomSettings
    from rajas.server.rooms.room import FIELDS, Room

    room = Room.create(RoomSettings(seats=2))
    changes.take_seat(room, "p0", room.host_token)
    copy = room.clone()
    assert all(getattr(copy, name) == getattr(room, name) for name in FIELDS)


def test_a_clone_shares_the_seats_until_a_change_copies_them() -> None:
    from rajas.protocol.messages import RoomSettings
    from rajas.server.rooms.room import Room

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
        assert copy.seats is room.seats  # (so the hub's packed room view is kept while they are)
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
    from rajas.server.rooms.encoding import Lazy
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

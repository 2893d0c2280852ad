"""The parts of a room that a clone shares with its original are read-only: changing one in place raises,
instead of leaving the identity-keyed caches (the room view, the fixed record, the snapshot, the
absentee check) silently stale. A change replaces the part."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rajas.protocol import pack, unpack
from rajas.protocol.messages import RoomSettings
from rajas.server.rooms import changes
from rajas.server.rooms.frozen import FrozenDict, freeze
from rajas.server.rooms.room import Room
from rajas.server.rooms.views import RoomViews


def _room() -> Room:
    room = Room.create(RoomSettings(seats=3))
    changes.take_seat(room, "a", room.host_token)
    changes.take_seat(room, "b", None)
    room.remember(room.seats[0]["id"], "d-1")
    return room


def _edits(room: Room) -> list[Callable[[], Any]]:
    seat: Any = room.seats[0]
    settings: Any = room.settings
    match: Any = room.match
    seen: Any = room.seen
    seats: Any = room.seats
    return [
        lambda: seat.__setitem__("bot", True),
        lambda: seat.update(name="c"),
        lambda: seat.pop("token"),
        lambda: settings.__setitem__("seats", 5),
        lambda: settings.setdefault("x", 1),
        lambda: match.__setitem__("seed", "chosen"),
        lambda: match.clear(),
        lambda: seen.__delitem__(room.seats[0]["id"]),
        lambda: seats.append(FrozenDict()),
        lambda: seen[room.seats[0]["id"]].append("d-2"),
    ]


@pytest.mark.parametrize("made", ["created", "loaded"])
def test_an_in_place_edit_of_a_shared_part_raises(made: str) -> None:
    room = _room()
    if made == "loaded":  # a room read back from its stored record is as read-only as one made here
        room = Room.from_record(unpack(pack(room.to_record())))
    before = unpack(pack(room.to_record()))
    for edit in _edits(room):
        with pytest.raises((TypeError, AttributeError)):
            edit()
    assert unpack(pack(room.to_record())) == before  # and nothing changed


def test_a_change_replaces_the_part_and_the_kept_view_sees_it() -> None:
    room = _room()
    views = RoomViews()
    counts = FrozenDict({room.seats[0]["id"]: 1})
    view = views.room_view(room, counts)
    copy = room.clone()
    assert views.room_view(copy, counts) is view  # nothing replaced: the same view
    changes.set_bot(copy, 1, True)
    assert copy.seats is not room.seats and not room.seats[1]["bot"] and copy.seats[1]["bot"]
    assert views.room_view(copy, counts)["seats"][1]["bot"] is True


def test_frozen_parts_pack_and_compare_like_plain_ones() -> None:
    plain = {"a": [1, {"b": [2, 3]}], "c": None}
    frozen = freeze(plain)
    assert frozen == {"a": (1, {"b": (2, 3)}), "c": None} and isinstance(frozen["a"][1], FrozenDict)
    assert unpack(pack(frozen)) == plain
    assert dict(frozen) | {"d": 1} == {**plain, "a": (1, {"b": (2, 3)}), "d": 1}  # copies are ordinary dicts

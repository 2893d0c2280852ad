"""What each audience of a room is sent: the update a commit makes and the snapshot a joining page gets, per
seat where the room's game hides things from some (a hand of cards), else one for everyone.

An audience is a seat's index, or None for spectators. A game without hidden information has one view for all,
so a commit makes one update; a game with hidden information makes one per seat and one for spectators, each
holding only what that audience may see (the game's `view` and `events_for`). The update a commit publishes
through the store carries them all (`Published`), packed per audience, so another node forwards the bytes as
they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rajas.protocol import pack, unpack
from rajas.server.frames import Frame
from rajas.server.rooms.room import Event, Room
from rajas.server.rooms.undo import available as undo_available
from rajas.server.storage.store import SPECTATORS, connected_seats

Audience = int | None


def audiences(room: Room) -> list[Audience]:
    """The audiences of a room's updates: everyone alike, or each seat and the spectators apart."""
    if room.state is None or not room.game.hidden:
        return [None]
    return [None, *range(len(room.seats))]


def audience_of(room: Room, role: str | None, seat_id: str | None) -> Audience:
    """The audience of a connection: its seat during play in a game that hides things, else everyone's."""
    if not room.game.hidden or role != "player":
        return None
    return room.seat_index(seat_id)


class RoomViews:
    """One room's views as this node last made them: the room's view kept while no part it shows was replaced
    (the parts are read-only, so an unchanged part is the same object)."""

    __slots__ = ("_room_key", "_room_view")

    def __init__(self) -> None:
        self._room_key: tuple[Any, ...] | None = None
        self._room_view: dict[str, Any] | None = None

    def room_view(self, room: Room, counts: Mapping[str, int]) -> dict[str, Any]:
        key = (room.seats, room.settings, room.match, room.status, room.host, room.deadline, room.auto, room.began,
               counts)  # fmt: skip
        old = self._room_key
        if old is not None and self._room_view is not None and all(a is b for a, b in zip(old, key, strict=True)):
            return self._room_view
        self._room_key = key
        self._room_view = view = room.view(connected_seats(counts), counts.get(SPECTATORS, 0))
        return view

    def game_view(self, room: Room, audience: Audience, base: Room | None = None) -> dict[str, Any] | None:
        """The game as `audience` sees it, with `null` for what did not change since `base` where the game sends
        only what changed."""
        if room.state is None:
            return None
        shown = room.game.view(room.state, audience, base.state if base is not None else None)
        shown["undo"] = undo_available(room)
        return shown


def updates(
    views: RoomViews, room: Room, base: Room, events: list[Event], counts: Mapping[str, int], now: float
) -> dict[Audience, Frame]:
    """The update of a commit that took `base` to `room`, for each audience, as frames encoded when first needed."""
    room_view = views.room_view(room, counts)
    game = room.game
    was = base if base.state is not None else None
    out: dict[Audience, Frame] = {}
    for audience in audiences(room):
        shown = events if not game.hidden else game.events_for(events, audience)
        update = {"type": "update", "v": room.v, "time": now, "events": shown, "room": room_view,
                  "game": views.game_view(room, audience, was)}  # fmt: skip
        out[audience] = Frame(update)
    return out


def published(v: int, events: list[Event], frames: Mapping[Audience, Frame]) -> bytes:
    """The message a commit publishes through the store: its version, the events every node acts on (a kick, a
    seat moved: never hidden ones) and each audience's update, packed."""
    seats = sorted(a for a in frames if a is not None)
    return pack(
        {
            "type": "update",
            "v": v,
            "events": [e for e in events if e.get("type") in NODE_EVENTS],
            "everyone": frames[None].packed,
            "seats": [frames[s].packed for s in seats],
        }
    )


NODE_EVENTS = frozenset(("kicked", "seat_moved", "seat_taken_over"))  # what a node does something about itself


class Published:
    """A commit's update as it came through the store's channel: the frames of each audience, unpacked only if
    a binary client is not there to take the bytes as they are."""

    __slots__ = ("events", "frames", "v")

    def __init__(self, message: Mapping[str, Any]) -> None:
        self.v: int = int(message["v"])
        self.events: list[Event] = list(message["events"])
        everyone = Frame(packed=message["everyone"])
        self.frames: list[Frame] = [everyone, *[Frame(packed=b) for b in message["seats"]]]

    def frame(self, audience: Audience) -> Frame:
        if audience is None or audience + 1 >= len(self.frames):
            return self.frames[0]
        return self.frames[audience + 1]


def recent_entry(v: int, now: float, events: list[Event]) -> dict[str, Any]:
    """The update's entry in the room's recent history (a reloaded page's game log): every event, filtered per
    audience when a snapshot is made."""
    return {"v": v, "time": now, "events": events}


def snapshot(
    views: RoomViews,
    room: Room,
    counts: Mapping[str, int],
    recent: Sequence[Mapping[str, Any]],
    chat: Mapping[str, Any],
    audience: Audience,
) -> dict[str, Any]:
    """The snapshot `audience` gets (what a page joining, reloading or resynchronising is sent), but the game's
    components (`with_components` adds them)."""
    game = room.game
    if game.hidden:
        recent = [dict(e) | {"events": game.events_for(list(e["events"]), audience)} for e in recent]
    return {
        "type": "snapshot",
        "v": room.v,
        "room": views.room_view(room, counts),
        "game": views.game_view(room, audience),
        "sheet_digest": room.components.digest,
        "recent": list(recent),
        "chat": chat,
    }


def with_components(snap: dict[str, Any], components: Any) -> dict[str, Any]:
    """The snapshot with the game's components (None for a page that holds them already)."""
    return snap | {"sheet": components}


def peek(message: bytes) -> dict[str, Any]:
    """A channel message as plain data (an update's audiences stay packed bytes)."""
    got: dict[str, Any] = unpack(message)
    return got

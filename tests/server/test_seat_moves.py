"""The reducer's seat changes during play (server/seat_moves.py), on room copies: the time the bot takes an away
seat is set once and kept by every node's timer, the bot takes the seat only if it is still away at that
time, a moved seat's event names its new token without telling it, and a left seat taken over drops what
belonged to its old player."""

from __future__ import annotations

import pytest
from rajas.protocol import ProtocolError
from rajas.protocol.messages import RoomSettings, Start
from rajas.server.rooms import changes
from rajas.server.rooms.changes import Change, LeaveSeat, TakeSeat, Unchanged, apply
from rajas.server.rooms.room import PLAYING, Room
from rajas.server.rooms.seat_moves import (
    Back,
    BotNow,
    GraceOver,
    MarkAway,
    MoveSeat,
    TakeOver,
    seat_end_notice,
    token_tag,
)


def _playing(players: int = 3, **settings: object) -> tuple[Room, list[str]]:
    room = Room.create(RoomSettings(seats=players, **settings))  # type: ignore[arg-type]
    tokens = []
    for i in range(players):
        got = apply(room, TakeSeat(f"p{i}", room.host_token if i == 0 else None))
        assert isinstance(got, Change) and got.reply is not None
        tokens.append(got.reply["token"])
    apply(room, changes.HostAction(room.host_token, None, Start(type="start", id="s"), 0.0))
    assert room.status == PLAYING
    return room, tokens


def test_the_first_away_mark_sets_the_time_and_later_ones_keep_it() -> None:
    room, _ = _playing()
    seat_id = room.seats[1]["id"]
    first = apply(room, MarkAway(seat_id, 160.0, 100.0))
    assert isinstance(first, Change) and first.reply == {"bot_at": 160.0} and room.seats[1]["bot_at"] == 160.0
    # another node's timer, a moment later: the room's time stands
    assert apply(room.clone(), MarkAway(seat_id, 161.0, 101.0)) == Unchanged({"bot_at": 160.0})
    # a mark left over from an earlier absence (its time passed) is set afresh
    again = room.clone()
    assert isinstance(apply(again, MarkAway(seat_id, 260.0, 200.0)), Change) and again.seats[1]["bot_at"] == 260.0


def test_the_bot_takes_an_away_seat_only_if_it_is_still_away_at_that_time() -> None:
    room, _ = _playing()
    seat_id = room.seats[1]["id"]
    apply(room, MarkAway(seat_id, 160.0, 100.0))
    assert apply(room.clone(), GraceOver(seat_id, 150.0)) == Unchanged()  # another absence's timer
    back = room.clone()
    assert isinstance(apply(back, Back(seat_id)), Change) and back.seats[1]["bot_at"] is None
    assert apply(back.clone(), GraceOver(seat_id, 160.0)) == Unchanged()  # the player came back meanwhile
    took = room.clone()
    got = apply(took, GraceOver(seat_id, 160.0))
    assert isinstance(got, Change) and took.seats[1]["bot"] and took.seats[1]["bot_at"] is None
    assert got.events == [{"type": "bot_took_over", "player": 1, "id": seat_id, "by": "grace"}]


def test_bot_now_needs_the_host_and_an_away_seat() -> None:
    room, tokens = _playing()
    for host_token, seat_token in ((None, tokens[1]), (None, None), ("guess", None)):
        with pytest.raises(ProtocolError) as e:
            apply(room.clone(), BotNow(2, False, host_token, seat_token))
        assert e.value.code == "not_host"
    with pytest.raises(ProtocolError) as e:
        apply(room.clone(), BotNow(2, True, None, tokens[0]))
    assert e.value.code == "not_away"
    got = room.clone()
    assert isinstance(apply(got, BotNow(2, False, None, tokens[0])), Change) and got.seats[2]["bot"]


def test_a_moved_seat_gets_a_new_token_named_only_by_its_digest() -> None:
    room, tokens = _playing()
    seat_id = room.seats[1]["id"]
    got = apply(room, MoveSeat(seat_id))
    assert isinstance(got, Change) and got.reply is not None
    new = got.reply["token"]
    assert new != tokens[1] and room.seats[1]["token"] == new and room.seat_of(tokens[1]) is None
    event = got.events[0]
    assert event == {"type": "seat_moved", "player": 1, "id": seat_id, "tag": token_tag(new)} and new not in str(event)
    # the old connections of the seat are told; the one holding the new token, other seats and spectators are not
    assert seat_end_notice(event, seat_id, tokens[1]) is not None
    assert seat_end_notice(event, seat_id, new) is None
    assert seat_end_notice(event, room.seats[0]["id"], tokens[0]) is None
    assert seat_end_notice(event, None, None) is None


def test_a_left_seat_taken_over_loses_its_old_player_and_hosting() -> None:
    room, tokens = _playing(takeover=True)
    host_seat = room.seats[0]
    apply(room, LeaveSeat(host_seat["id"]))
    assert room.seats[0]["left"] and room.seats[0]["bot"]
    room.remember(host_seat["id"], "d-1")
    got = apply(room, TakeOver(0, "Nia"))
    assert isinstance(got, Change) and got.reply is not None
    seat = room.seats[0]
    assert seat["name"] == "Nia" and seat["id"] != host_seat["id"] and seat["token"] == got.reply["token"]
    assert not seat["bot"] and not seat["left"] and room.host is None and host_seat["id"] not in room.seen
    assert room.is_host(room.host_token, None) and not room.is_host(None, got.reply["token"])
    assert seat_end_notice(got.events[0], host_seat["id"], tokens[0]) is not None

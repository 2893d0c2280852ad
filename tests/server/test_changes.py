"""The reducer: a command applied to a copy of the newest room comes to a named outcome. A change carries its
events, log entry and reply; a message applied before, or a timer that lost its reason, changes nothing; a
message made seeing a version this copy has not heard of asks for the room afresh; an older one is refused."""

from __future__ import annotations

import pytest
from rajas.games.dice_charmers.engine.bots import random_bot
from rajas.protocol import ProtocolError
from rajas.protocol.messages import RoomSettings, Start
from rajas.server.rooms import changes
from rajas.server.rooms.changes import Behind, BotPlay, Change, ExpireClock, Play, SetBot, TakeSeat, Unchanged, apply
from rajas.server.rooms.room import PLAYING, Room


def _playing(players: int = 3) -> tuple[Room, list[str]]:
    room = Room.create(RoomSettings(seats=players, turn_clock=30))
    tokens = []
    for i in range(players):
        got = apply(room, TakeSeat(f"p{i}", room.host_token if i == 0 else None))
        assert isinstance(got, Change) and got.reply is not None
        tokens.append(got.reply["token"])
    started = apply(room, changes.HostAction(room.host_token, None, Start(type="start", id="s"), 0.0))
    assert isinstance(started, Change) and room.status == PLAYING
    return room, tokens


def _move(room: Room, tokens: list[str], mid: str, at: int | None) -> Play:
    assert room.state is not None
    return Play(tokens[room.state.current], mid, random_bot(1)(room.state).to_wire(), at, 1.0)


def test_a_decision_is_a_change_with_its_events_log_entry_and_reply() -> None:
    room, tokens = _playing()
    new = room.clone()
    got = apply(new, _move(room, tokens, "d-1", room.v))
    assert isinstance(got, Change) and got.reply == {"v": room.v + 1}
    assert got.events[0]["type"] == "decided" and got.entry is not None and got.entry[0] == got.events[0]["player"]
    assert new.state is not room.state and room.seen == {}  # the original is untouched


def test_a_decision_sent_again_changes_nothing_and_says_so() -> None:
    room, tokens = _playing()
    cmd = _move(room, tokens, "d-1", None)
    first = room.clone()
    assert isinstance(apply(first, cmd), Change)
    again = apply(first.clone(), cmd)
    assert again == Unchanged({"duplicate": True, "v": first.v})


def test_a_newer_version_asks_for_the_room_afresh_and_an_older_one_is_refused() -> None:
    room, tokens = _playing()
    assert apply(room.clone(), _move(room, tokens, "d-1", room.v + 2)) == Behind(room.v + 2)
    with pytest.raises(ProtocolError) as refused:
        apply(room.clone(), _move(room, tokens, "d-1", room.v - 1))
    assert refused.value.code == "stale_version"


def test_a_stranger_and_a_player_out_of_turn_are_refused() -> None:
    room, tokens = _playing()
    cmd = _move(room, tokens, "d-1", None)
    for token, code in (("not-a-seat", "bad_token"), (tokens[(room.state.current + 1) % 3], "not_your_turn")):  # type: ignore[union-attr]
        with pytest.raises(ProtocolError) as refused:
            apply(room.clone(), Play(token, cmd.mid, cmd.wire, cmd.at, cmd.now))
        assert refused.value.code == code


def test_a_bot_move_thought_out_on_an_old_version_is_dropped() -> None:
    room, _ = _playing()
    assert room.state is not None
    wire = random_bot(1)(room.state).to_wire()
    assert apply(room.clone(), BotPlay(room.state.current, wire, room.v - 1, 1.0)) == Unchanged()
    assert isinstance(apply(room.clone(), BotPlay(room.state.current, wire, room.v, 1.0)), Change)


def test_timers_that_lost_their_reason_change_nothing() -> None:
    room, _ = _playing()
    seat_id = room.seats[1]["id"]
    assert apply(room.clone(), SetBot(seat_id, False)) == Unchanged()  # no bot to release
    assert apply(room.clone(), SetBot("gone", True)) == Unchanged()  # no such seat
    assert apply(room.clone(), ExpireClock((9_009, 9))) == Unchanged()  # another turn's clock
    took = room.clone()
    assert isinstance(apply(took, SetBot(seat_id, True, only_playing=True)), Change) and took.seats[1]["bot"]
    expired = room.clone()
    got = apply(expired, ExpireClock(room.clock_key))
    assert isinstance(got, Change) and got.events[0]["type"] == "clock_expired" and expired.auto == room.clock_key
    assert expired.bot_to_move() == room.state.current  # type: ignore[union-attr]

"""The room changes of the lobby: taking, leaving and kicking seats, hosting and settings; a player's "play
again" flag, the host's rematch (the finished game's room back to the lobby with its seats, codes and
settings, and a new dice seed), and the host's bot seats. Each changes a clone and returns its events, or
refuses with a ProtocolError (server/changes.py, the reducer, calls these)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rajas.protocol.errors import ProtocolError
from rajas.protocol.messages import AddBot, Rematch, RemoveBot, RoomSettings
from rajas.server.names import name_key
from rajas.server.rooms import codes, series
from rajas.server.rooms.frozen import FrozenDict, freeze
from rajas.server.rooms.room import LOBBY, OVER, Event, Room, checked_settings, new_seed, offered

BOT_NAME = "Bot {n}"  # a bot seat's name: the first number no one in the room has


@dataclass(frozen=True)
class SeatReady:
    """A seated player's "play again" flag."""

    token: str | None
    ready: bool


def is_bot_seat(seat: Mapping[str, Any]) -> bool:
    """A seat the host gave a bot (not a person's seat a bot plays while they are away)."""
    return seat.get("kind") is not None


def no_bot_host(seat: Mapping[str, Any]) -> None:
    """Refuses handing the room to a bot's seat: a bot cannot host."""
    if is_bot_seat(seat):
        raise ProtocolError("not_a_player", "a bot cannot host: hand the room to a person")


def ready(r: Room, cmd: SeatReady) -> list[Event]:
    seat = r.seat_for(cmd.token)  # a player's token names their own seat only
    if r.status not in (LOBBY, OVER):
        raise ProtocolError("wrong_phase", "ready is for after a game or in the lobby")
    if bool(r.seats[seat].get("ready")) == cmd.ready:
        return []
    r.replace_seat(seat, ready=cmd.ready)
    return [{"type": "ready_changed", "player": seat, "id": r.seats[seat]["id"], "ready": cmd.ready}]


def host(r: Room, action: AddBot | RemoveBot | Rematch) -> list[Event]:
    """A host's rematch or bot seat change (the caller checked the host)."""
    if isinstance(action, Rematch):
        return rematch(r)
    if isinstance(action, AddBot):
        return add_bot(r, action.kind)
    return remove_bot(r, action.seat)


def rematch(r: Room) -> list[Event]:
    if r.status != OVER:
        raise ProtocolError("wrong_phase", "a rematch follows a finished game")
    n = series.number(r.match) + 1
    # A fresh seed, committed before anyone contributes again: each game's dice stand alone (docs/fairness.md).
    r.match = freeze({**new_seed(), "number": n})
    r.status = LOBBY
    r.state = None
    r.undo = None
    r.deadline = r.clock_key = r.auto = None
    seats = []
    for s in r.seats:
        # (an away mark or a game left belongs to the game that ended: server/seat_moves.py)
        fields = {k: v for k, v in s.items() if k not in ("entropy", "bot_at", "left")}
        if not is_bot_seat(s):
            fields["bot"] = False  # an away player's seat is theirs again; the grace period starts anew
        seats.append(FrozenDict(fields))
    r.seats = tuple(seats)
    return [{"type": "rematch", "game": n, "commitment": r.match["commitment"]}]


def add_bot(r: Room, kind: str) -> list[Event]:
    r.require_lobby()
    offered(r.game, kind, "kind")
    if len(r.seats) >= r.settings["seats"]:
        raise ProtocolError("room_full", f"all {r.settings['seats']} seats are taken")
    taken = {name_key(s["name"]) for s in r.seats}
    n = 1
    while name_key(BOT_NAME.format(n=n)) in taken:
        n += 1
    name = BOT_NAME.format(n=n)
    seat = FrozenDict({"id": codes.seat_id(), "name": name, "token": codes.token(), "bot": True, "kind": kind})
    r.seats = (*r.seats, seat)
    return [{"type": "bot_added", "seat": len(r.seats) - 1, "id": seat["id"], "name": name, "kind": kind}]


def remove_bot(r: Room, seat: int) -> list[Event]:
    r.require_lobby()
    if not 0 <= seat < len(r.seats):
        raise ProtocolError("wrong_phase", f"no seat {seat}")
    gone = r.seats[seat]
    if not is_bot_seat(gone):
        raise ProtocolError("not_a_bot", "a person holds this seat (the host removes a person with kick)")
    r.seats = r.seats[:seat] + r.seats[seat + 1 :]
    return [{"type": "bot_removed", "id": gone["id"], "name": gone["name"]}]


def starting(r: Room) -> None:
    """Before a start: a game needs a person in a seat (bots alone would play for nobody), and every "play
    again" flag is cleared for the game after this one."""
    if all(is_bot_seat(s) for s in r.seats):
        raise ProtocolError("wrong_phase", "a game needs at least one person in a seat")
    if any(s.get("ready") for s in r.seats):
        r.seats = tuple(FrozenDict({**s, "ready": False}) if s.get("ready") else s for s in r.seats)


# ---- seats and settings in the lobby (the reducer, server/changes.py, dispatches here) ---------------------


def take_seat(r: Room, name: str, host_token: str | None) -> tuple[FrozenDict, list[Event]]:
    r.require_lobby()
    if len(r.seats) >= r.settings["seats"]:
        raise ProtocolError("room_full", f"all {r.settings['seats']} seats are taken")
    # two players of one name (or of look-alike names: server/names.py) could not tell their seats apart
    key = name_key(name)
    if any(name_key(s["name"]) == key for s in r.seats):
        raise ProtocolError("name_taken", "someone in this room already has this name")
    seat = FrozenDict({"id": codes.seat_id(), "name": name, "token": codes.token(), "bot": False})
    r.seats = (*r.seats, seat)
    events: list[Event] = [{"type": "seat_taken", "seat": len(r.seats) - 1, "id": seat["id"], "name": name}]
    if host_token is not None and host_token == r.host_token and r.host is None:
        r.host = seat["id"]
        events.append({"type": "host_changed", "host": seat["id"]})
    return seat, events


def _remove_seat(r: Room, seat: int, kind: str) -> list[Event]:
    gone = r.seats[seat]
    r.seats = r.seats[:seat] + r.seats[seat + 1 :]
    events: list[Event] = [{"type": kind, "id": gone["id"], "name": gone["name"]}]
    if r.host == gone["id"]:
        r.host = None  # the host token still works; a seated player can be made host with it
        events.append({"type": "host_changed", "host": None})
    return events


def leave(r: Room, seat: int) -> list[Event]:
    r.require_lobby()
    return _remove_seat(r, seat, "seat_left")


def kick(r: Room, seat: int) -> list[Event]:
    r.require_lobby()
    if not 0 <= seat < len(r.seats):
        raise ProtocolError("wrong_phase", f"no player in seat {seat}")
    return _remove_seat(r, seat, "kicked")


def hand_over(r: Room, seat: int) -> list[Event]:
    if not 0 <= seat < len(r.seats):
        raise ProtocolError("wrong_phase", f"no player in seat {seat}")
    no_bot_host(r.seats[seat])
    r.host = r.seats[seat]["id"]
    r.host_token = codes.token()  # the old host token stops working: hosting moved
    return [{"type": "host_changed", "host": r.host}]


def change_settings(r: Room, settings: RoomSettings) -> list[Event]:
    """The host's new settings (lobby only): checked like a new room's, and never fewer seats than taken."""
    r.require_lobby()
    if settings.seats < len(r.seats):
        raise ProtocolError("bad_settings", f"{len(r.seats)} players are seated: seats cannot go below that")
    checked, game, components = checked_settings(settings)
    for s in r.seats:  # (a seated bot must be one the new game can run)
        if s.get("kind") is not None and s["kind"] not in game.bots:
            raise ProtocolError("bad_settings", f"game: {s['name']} ({s['kind']}) is not a bot of this game")
    r.settings, r.game, r.components = checked, game, components
    return [{"type": "settings_changed", "settings": r.settings_view()}]

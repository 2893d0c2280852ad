"""The changes of who holds a seat during play (issue 17): a seat whose owner's connection dropped is marked
away with the time the bot takes over (clients show the countdown), the host may hand it to the bot at
once, a seat moves to another device (a new seat token, the old connections told), a player leaves a game
for good, and someone new takes over a left seat when the host allows it.

Pure like server/changes.py, which dispatches these commands here and turns a `Moved` into its outcome:
no I/O, no clock (times come in the commands). A seat record may carry `bot_at` (server time the bot takes
an away seat) and `left` (its owner left the game with `leave`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rajas.protocol.errors import ProtocolError
from rajas.server.names import name_key
from rajas.server.rooms import codes
from rajas.server.rooms.frozen import FrozenDict
from rajas.server.rooms.room import PLAYING, Event, Room

SEAT_ENDS = ("seat_moved", "seat_taken_over")  # events after which some connections no longer hold their seat
# the events of these changes, and the label each gets in the metric rajas_seat_changes_total
SEAT_EVENTS = frozenset(("away", "back", "left_game", "seat_moved", "seat_taken_over", "bot_took_over"))


@dataclass(frozen=True)
class Moved:
    """What a command did: events to commit (none: nothing to commit) and the reply to whoever asked."""

    events: list[Event]
    reply: dict[str, Any] | None = None


@dataclass(frozen=True)
class MarkAway:
    """The seat's owner has no connection left: the bot takes the seat at `bot_at` unless they come back.
    A seat already marked away keeps its time while that is still ahead (every node runs a grace timer for an
    absent seat; the first to commit sets the time the others then wait for)."""

    seat_id: str
    bot_at: float
    now: float


@dataclass(frozen=True)
class GraceOver:
    """The grace period that ended at `bot_at` is over: the bot takes the seat if it is still away then."""

    seat_id: str
    bot_at: float


@dataclass(frozen=True)
class Back:
    """The owner is back (joined with the seat's token): the bot lets go, the seat is no longer away or left."""

    seat_id: str


@dataclass(frozen=True)
class BotNow:
    """The host hands an away seat to the bot at once (`connected`: the session saw a connection of it)."""

    seat: int
    connected: bool
    host_token: str | None
    seat_token: str | None


@dataclass(frozen=True)
class MoveSeat:
    """The seat's owner opened the room on another device with the seat token: the seat gets a new token
    (the link's token stops working) and its other connections are told and leave the room."""

    seat_id: str


@dataclass(frozen=True)
class LeaveGame:
    """The owner left the game in play with `leave`: the bot plays the seat at once, and it is marked left
    (the owner's token still brings them back; a newcomer may take it over where the host allows it)."""

    seat_id: str


@dataclass(frozen=True)
class TakeOver:
    """Someone opening the invite link mid-game takes over seat `seat`, which its owner left (room setting
    `takeover`): a new seat id and token, their name; the old token stops working."""

    seat: int
    name: str


SeatCommand = MarkAway | GraceOver | Back | BotNow | MoveSeat | LeaveGame | TakeOver
NOTHING = Moved([])


def token_tag(token: str | None) -> str:
    """A short digest of a seat token: an event can say which token now holds a seat without telling it."""
    return hashlib.sha256((token or "").encode()).hexdigest()[:16]


def is_away(seat: Mapping[str, Any]) -> bool:
    """Whether the seat waits for the bot: marked away and not yet played by the bot."""
    return not seat["bot"] and seat.get("bot_at") is not None


def needs_back(seat: Mapping[str, Any]) -> bool:
    """Whether an owner coming back changes the seat (the bot plays it, or it is away or left)."""
    return bool(seat["bot"] or seat.get("bot_at") is not None or seat.get("left"))


def apply_seat(r: Room, cmd: SeatCommand) -> Moved:
    if isinstance(cmd, MarkAway):
        return mark_away(r, cmd)
    if isinstance(cmd, GraceOver):
        at = r.seat_index(cmd.seat_id)
        if at is None or r.status != PLAYING or not is_away(r.seats[at]) or r.seats[at]["bot_at"] != cmd.bot_at:
            return NOTHING  # the owner came back (or the host gave the seat to the bot) meanwhile
        return Moved(bot_takes(r, at, "grace"))
    if isinstance(cmd, Back):
        at = r.seat_index(cmd.seat_id)
        if at is None or not needs_back(r.seats[at]):
            return NOTHING
        bot = r.seats[at]["bot"]
        r.replace_seat(at, bot=False, bot_at=None, left=False)
        return Moved([{"type": "bot_released" if bot else "back", "player": at, "id": cmd.seat_id}])
    if isinstance(cmd, BotNow):
        return bot_now(r, cmd)
    if isinstance(cmd, MoveSeat):
        at = r.seat_index(cmd.seat_id)
        if at is None:
            raise ProtocolError("bad_token", "this seat token does not belong to this room")
        token = codes.token()
        r.replace_seat(at, token=token)
        moved: Event = {"type": "seat_moved", "player": at, "id": cmd.seat_id, "tag": token_tag(token)}
        return Moved([moved], {"token": token})
    if isinstance(cmd, LeaveGame):
        at = r.seat_index(cmd.seat_id)
        if at is None or r.status != PLAYING or r.seats[at].get("left"):
            return NOTHING
        r.replace_seat(at, bot=True, bot_at=None, left=True)
        return Moved([{"type": "left_game", "player": at, "id": cmd.seat_id, "name": r.seats[at]["name"]}])
    return take_over(r, cmd)


def mark_away(r: Room, cmd: MarkAway) -> Moved:
    at = r.seat_index(cmd.seat_id)
    if at is None or r.status != PLAYING or r.seats[at]["bot"]:
        return NOTHING
    had = r.seats[at].get("bot_at")
    if had is not None and had > cmd.now:
        return Moved([], {"bot_at": had})
    r.replace_seat(at, bot_at=cmd.bot_at)
    return Moved([{"type": "away", "player": at, "id": cmd.seat_id, "bot_at": cmd.bot_at}], {"bot_at": cmd.bot_at})


def bot_takes(r: Room, at: int, by: str) -> list[Event]:
    r.replace_seat(at, bot=True, bot_at=None)
    return [{"type": "bot_took_over", "player": at, "id": r.seats[at]["id"], "by": by}]  # by: grace | host


def bot_now(r: Room, cmd: BotNow) -> Moved:
    if not r.is_host(cmd.host_token, cmd.seat_token):
        raise ProtocolError("not_host", "only the host may do this")
    if r.status != PLAYING:
        raise ProtocolError("wrong_phase", "a seat is handed to the bot only during play")
    if not 0 <= cmd.seat < len(r.seats):
        raise ProtocolError("not_away", f"no player in seat {cmd.seat}")
    seat = r.seats[cmd.seat]
    if seat["bot"] or cmd.connected:
        raise ProtocolError("not_away", "this seat is not away: its player is connected, or the bot plays it")
    return Moved(bot_takes(r, cmd.seat, "host"))


def take_over(r: Room, cmd: TakeOver) -> Moved:
    if r.status != PLAYING:
        raise ProtocolError("wrong_phase", "a left seat is taken over only during play")
    if not r.settings.get("takeover"):
        raise ProtocolError("takeover_not_allowed", "the host does not let newcomers take over left seats")
    if not 0 <= cmd.seat < len(r.seats) or not r.seats[cmd.seat].get("left"):
        raise ProtocolError("seat_not_free", "the player of this seat has not left the game")
    key = name_key(cmd.name)
    if any(name_key(s["name"]) == key for i, s in enumerate(r.seats) if i != cmd.seat):
        raise ProtocolError("name_taken", "someone in this room already has this name")
    old = r.seats[cmd.seat]
    new = FrozenDict(
        {**old, "id": codes.seat_id(), "name": cmd.name, "token": codes.token(), "bot": False, "bot_at": None,
         "left": False}
    )
    seats = list(r.seats)
    seats[cmd.seat] = new
    r.seats = tuple(seats)
    r.seen = FrozenDict({k: v for k, v in r.seen.items() if k != old["id"]})
    events: list[Event] = [
        {"type": "seat_taken_over", "player": cmd.seat, "id": new["id"], "was": old["id"], "name": cmd.name,
         "left_name": old["name"]}
    ]
    if r.host == old["id"]:
        r.host = None  # hosting does not pass with the seat (the host token still works)
        events.append({"type": "host_changed", "host": None})
    return Moved(events, {"id": new["id"], "token": new["token"]})


def seat_end_notice(e: Mapping[str, Any], seat_id: str | None, token: str | None) -> dict[str, Any] | None:
    """The notice a connection of `seat_id` holding `token` gets for event `e`, when the event took its seat
    from it (None: it keeps it)."""
    if seat_id is None:
        return None
    if e["type"] == "seat_moved" and e["id"] == seat_id and token_tag(token) != e["tag"]:
        return {"type": "notice", "code": "seat_moved", "message": "your seat moved to another device"}
    if e["type"] == "seat_taken_over" and e["was"] == seat_id:
        return {"type": "notice", "code": "seat_taken_over", "message": "someone else took over the seat you left"}
    return None


def metric_label(e: Mapping[str, Any]) -> str | None:
    """The label of event `e` in rajas_seat_changes_total (None: not such an event)."""
    kind = e.get("type")
    if kind not in SEAT_EVENTS:
        return None
    return "bot_now" if kind == "bot_took_over" and e.get("by") == "host" else str(kind)

"""Turn-based rooms, the pure part: a turn's deadline and reminder time, and the change only a turn-based room has
(a reminder sent). No I/O, no clock: the time comes in. The I/O (timers that survive a node, e-mails) is
server/turns/service.py.

A turn-based room (`mode: "turns"`) has a limit per turn of `turn_limit` hours; a live room keeps its optional
`turn_clock` in seconds. The length of an hour is `UNIT` seconds: 3600, shortened only by tests through the
test-only setting RAJAS_TURN_UNIT, so every node of a deployment computes the same deadlines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rajas.protocol.errors import ProtocolError
from rajas.server.rooms.room import PLAYING, Event, Room, Turn

HOUR = 3600.0
REMIND_AT = 0.75  # the reminder goes when this share of the limit has passed
EMAIL_MAX = 254  # RFC 5321's longest forward path
# One @, no spaces or angle brackets, a dot in the domain: enough to refuse what cannot be an address (and what
# could break a mail header) without pretending to know every valid one.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?"
_EMAIL = re.compile(rf"^[^@\s<>,;:\"\\]{{1,64}}@{_LABEL}(?:\.{_LABEL})+$")


class Unit:
    """Seconds in one hour of a turn limit (a holder, so tests can shorten it without rebinding a name)."""

    seconds = HOUR


def limit_seconds(settings: Mapping[str, Any]) -> float | None:
    """Seconds a player has for a turn: the turn-based limit, or the live room's optional turn clock."""
    if turn_based(settings):
        return float(settings["turn_limit"]) * Unit.seconds
    clock = settings.get("turn_clock")
    return float(clock) if clock else None


def remind_at(room: Room) -> float | None:
    """When the reminder of the current turn is due (None: no reminder for this room or turn)."""
    if not turn_based(room.settings) or room.deadline is None or room.began is None:
        return None
    if room.reminded == room.clock_key:
        return None
    began = room.began[0]
    return began + REMIND_AT * (room.deadline - began)


def next_due(room: Room) -> float | None:
    """The next time something must happen to this turn-based room: its reminder or its deadline (past its
    deadline, a turn the bot or the skip still owes stays due, so a sweep sees it through if its node died)."""
    if room.status != PLAYING or room.deadline is None:
        return None
    if room.auto == room.clock_key:
        return room.deadline
    remind = remind_at(room)
    return min(remind, room.deadline) if remind is not None else room.deadline


def check_email(address: str | None) -> str | None:
    """The address to keep (None: forget it), or the refusal `bad_email`."""
    if address is None or address.strip() == "":
        return None
    address = address.strip()
    if len(address) > EMAIL_MAX or _EMAIL.match(address) is None:
        raise ProtocolError("bad_email", "this is not an e-mail address")
    return address


def turn_based(settings: Mapping[str, Any]) -> bool:
    """Whether a room is turn-based (`mode: "turns"`) rather than live."""
    return settings.get("mode") == "turns"


# ---- changes only a turn-based room has -----------------------------------------------------------------


@dataclass(frozen=True)
class Remind:
    """The reminder of turn `key` is going out: noted in the room, so it goes once, from the node that commits."""

    key: Turn | None


TurnCommand = Remind  # (a seat's e-mail address is no room change: server/turns/consent.py keeps it)


def apply_turn(r: Room, cmd: TurnCommand) -> list[Event] | None:
    """The events of `cmd` on `r` (a clone it changes), or None when nothing changes."""
    if r.status != PLAYING or r.clock_key != cmd.key or r.reminded == cmd.key:
        return None
    r.reminded = cmd.key
    return []

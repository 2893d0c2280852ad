"""Chat in a room (docs/protocol.md, Chat): who may write, the chat's own rate limit per connection, and each line
as the server makes it, its name and seat taken from the connection (never from the message) and its text kept
as plain text. Lines are kept and fanned out by the store's chat (server/storage/chat_store.py), never in the room's
record: a line changes no room version."""

from __future__ import annotations

import secrets
import time
import unicodedata

from rajas.protocol import ProtocolError, pack
from rajas.protocol.messages import Chat, ChatRules
from rajas.server.rooms.hub import Hub, LocalRoom, Member
from rajas.server.storage.chat_store import CLOSED, GONE

BURST = 5  # lines a connection may send at once before the per-minute rate applies
ROOM_BURST = 20  # ... and all of a room's spectators on one node


def _refill(allowance: float, last: float, now: float, per_minute: int, burst: int) -> float:
    """A token bucket's allowance at `now`: `per_minute` lines a minute, at most `burst` (`burst` when new: -1)."""
    top = float(min(burst, max(1, per_minute)))
    return top if allowance < 0 else min(top, allowance + (now - last) * max(0, per_minute) / 60.0)


class Chatter:
    """One connection's side of the chat: the name a spectator gave, and its token bucket of lines."""

    def __init__(self, per_minute: int, name: str | None) -> None:
        self.per_minute = per_minute
        self.allowance = -1.0
        self.last = 0.0
        self.name = name

    def allow(self) -> bool:
        now = time.monotonic()
        self.allowance = _refill(self.allowance, self.last, now, self.per_minute, BURST)
        self.last = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


def spectators_allow(lr: LocalRoom, per_minute: int) -> bool:
    """The bucket of the room's spectators on this node. Each line goes to everyone in the room, and a room may
    have any number of spectators: together they may not make everyone receive more than `per_minute` of their
    lines a minute. (Players need none: at most five, each with their own bucket; spectators never slow them.)"""
    now = time.monotonic()
    lr.chat_allowance = _refill(lr.chat_allowance, lr.chat_last, now, per_minute, ROOM_BURST)
    lr.chat_last = now
    if lr.chat_allowance < 1:
        return False
    lr.chat_allowance -= 1
    return True


def plain(text: str) -> str:
    """The text as one line of plain characters: control and format characters (line breaks, bidi overrides)
    become spaces, so a line cannot break the page's layout or turn the text around."""
    return "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in text).strip()


async def say(rooms: Hub, conn: Member, chatter: Chatter, msg: Chat, spectators_per_minute: int) -> None:
    """A line from this connection, to everyone in its room."""
    code = conn.code
    if code is None:
        raise ProtocolError("not_joined", "join a room first")
    if not chatter.allow():
        rooms.metrics.limit_refusals.inc("chat_rate")
        raise ProtocolError("chat_rate_limited", "too many chat lines; wait a moment")
    text = plain(msg.text) if msg.text is not None else None
    if text == "":
        raise ProtocolError("malformed_frame", "text: a chat line with nothing to read")
    seat_id: str | None = None
    if conn.role == "player":
        room = await rooms.load(code)
        seat = room.seat_index(conn.seat_id)
        if seat is None:
            raise ProtocolError("not_joined", "this seat is no longer in the room")
        name: str = room.seats[seat]["name"]
        seat_id = conn.seat_id
    else:
        lr = rooms.rooms.get(code)
        if lr is not None and not spectators_allow(lr, spectators_per_minute):
            rooms.metrics.limit_refusals.inc("chat_spectators_rate")
            raise ProtocolError("chat_rate_limited", "the spectators' chat is busy; wait a moment")
        name = chatter.name or ""
    line = {"id": secrets.token_hex(6), "time": time.time(), "name": name, "seat": seat_id, "text": text,
            "reaction": msg.reaction}  # fmt: skip
    got = await rooms.store.chat.add(code, pack(line), pack({"type": "chat", "line": line}), seat_id is None)
    if got == CLOSED:
        raise ProtocolError("chat_closed", "the host closed the chat for spectators")
    if got == GONE:
        raise ProtocolError("room_not_found", "no room with this code (it may have expired)")
    rooms.metrics.chat_lines.inc("spectator" if seat_id is None else "player")


async def rules(rooms: Hub, conn: Member, host_token: str | None, msg: ChatRules) -> None:
    """The host opens or closes the chat for spectators."""
    code = conn.code
    if code is None:
        raise ProtocolError("not_joined", "join a room first")
    room = await rooms.load(code)
    if not room.is_host(host_token, conn.token):
        raise ProtocolError("not_host", "only the host may do this")
    message = pack({"type": "chat_rules", "spectators": msg.spectators})
    if not await rooms.store.chat.set_rules(code, msg.spectators, message):
        raise ProtocolError("room_not_found", "no room with this code (it may have expired)")

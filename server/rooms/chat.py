"""Chat in a room (docs/protocol.md, Chat): who may write, and each line as the server makes it, its name and seat
taken from the connection (never from the message) and its text kept as plain text. Lines are kept and fanned out
by the store's chat (server/storage/chat_store.py), never in the room's record: a line changes no room version.
(What a line costs is charged before: the `chat` budget, server/budget.py.)"""

from __future__ import annotations

import secrets
import time
import unicodedata

from rajas.protocol import ProtocolError, pack
from rajas.protocol.messages import Chat, ChatRules
from rajas.server.rooms.hub import Hub, Member
from rajas.server.storage.chat_store import CLOSED, GONE


class Chatter:
    """One connection's side of the chat: the name a spectator gave."""

    def __init__(self, name: str | None) -> None:
        self.name = name


def plain(text: str) -> str:
    """The text as one line of plain characters: control and format characters (line breaks, bidi overrides)
    become spaces, so a line cannot break the page's layout or turn the text around."""
    return "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in text).strip()


async def say(rooms: Hub, conn: Member, chatter: Chatter, msg: Chat) -> None:
    """A line from this connection, to everyone in its room."""
    code = conn.code
    if code is None:
        raise ProtocolError("not_joined", "join a room first")
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

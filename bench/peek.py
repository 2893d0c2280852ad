"""Reading a server frame's type and version without decoding it all: the load generator reads thousands of
frames a second, and must leave the CPU to the server it measures."""

from __future__ import annotations

import json
from typing import Any

import msgpack  # type: ignore[import-untyped]


def _head_slow(frame: bytes) -> tuple[str | None, int | None]:
    u = msgpack.Unpacker(raw=False, strict_map_key=False)
    u.feed(frame)
    kind = v = None
    for _ in range(u.read_map_header()):
        key = u.unpack()
        if key == "type":
            kind = u.unpack()
        elif key == "v":
            v = u.unpack()
        else:
            u.skip()
        if kind is not None and v is not None:
            break
    return kind, v


_UPDATE = b"\xa4type\xa6update\xa1v"  # msgpack of the keys and values "type": "update", "v"
_REPLY = b"\xa4type\xa5reply"


def head(frame: bytes) -> tuple[str | None, int | None]:
    """type and v of a server message, without decoding the rest (most sockets only need those). Reads the
    bytes of the usual `{"type": "update", "v": N, ...}` directly, anything else through msgpack."""
    b0 = frame[0]
    o = 1 if 0x80 <= b0 <= 0x8F else 3 if b0 == 0xDE else 5 if b0 == 0xDF else 0
    if o:
        if frame.startswith(_UPDATE, o):
            j = o + len(_UPDATE)
            b = frame[j]
            if b < 0x80:
                return "update", b
            if b == 0xCC:
                return "update", frame[j + 1]
            if b == 0xCD:
                return "update", int.from_bytes(frame[j + 1 : j + 3], "big")
            if b == 0xCE:
                return "update", int.from_bytes(frame[j + 1 : j + 5], "big")
        elif frame.startswith(_REPLY, o):
            return "reply", None
    return _head_slow(frame)


_UPDATE_JSON = b'{"type":"update","v":'  # how the server's JSON text of an update begins


def head_json(frame: bytes) -> tuple[str | None, int | None]:
    """type and v of a server message in JSON text, reading the usual update's first bytes directly."""
    if frame.startswith(_UPDATE_JSON):
        j = len(_UPDATE_JSON)
        end = frame.find(b",", j)
        if end > j:
            return "update", int(frame[j:end])
    msg = json.loads(frame)
    return msg.get("type"), msg.get("v")


def eyes_view(frame: bytes) -> tuple[str | None, dict[str, Any] | None]:
    """room.status and game.pending of an update, skipping (not building) the rest of it."""
    u = msgpack.Unpacker(raw=False, strict_map_key=False)
    u.feed(frame)
    status = pending = None
    for _ in range(u.read_map_header()):
        key = u.unpack()
        if key == "room" or key == "game":
            want = "status" if key == "room" else "pending"
            for _ in range(u.read_map_header()):
                if u.unpack() == want:
                    if key == "room":
                        status = u.unpack()
                    else:
                        pending = u.unpack()
                else:
                    u.skip()
        else:
            u.skip()
    return status, pending


_ROOM_JSON, _STATUS_JSON, _PENDING_JSON = b',"room":{', b'"status":"', b',"game":{"pending":'
_DECODER = json.JSONDecoder()


def eyes_view_json(frame: bytes) -> tuple[str | None, dict[str, Any] | None]:
    """room.status and game.pending of an update in the server's JSON text, decoding only the pending part
    (the server writes the room view, then the game view with `pending` first); (None, None) otherwise."""
    r = frame.find(_ROOM_JSON)
    s = frame.find(_STATUS_JSON, r) if r > 0 else -1
    g = frame.find(_PENDING_JSON, s) if s > 0 else -1
    if g < 0:
        return None, None
    start = s + len(_STATUS_JSON)
    status = frame[start : frame.index(b'"', start)].decode()
    pending, _ = _DECODER.raw_decode(frame[g + len(_PENDING_JSON) :].decode())
    return status, pending if isinstance(pending, dict) else None

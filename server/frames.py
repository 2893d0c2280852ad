"""What the server sends: a message encoded once per format, whoever it goes to (JSON text by `orjson` for the
browser, msgpack for binary clients), and bytes packed only when first asked for (what a store is handed).

An update goes to every socket of a room: it is a `Frame` made once, whose encodings are made when the first
client of each format needs them, and whose whole websocket frames (`wired`) the network edge keeps on it too.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import orjson
from rajas.protocol import pack, unpack


def to_json(obj: Any) -> bytes:
    """The JSON text of plain data (tuples written as arrays), as UTF-8 bytes."""
    return orjson.dumps(obj)


class Lazy:
    """Bytes packed only when first asked for. The in-process store keeps a room's record, log entries and
    recent updates like this: most are replaced before anyone reads them (the node has the room itself in
    its cache), so most are never packed. Redis, which needs them at once, asks at once."""

    __slots__ = ("_data", "_make")

    def __init__(self, make: Callable[[], bytes]) -> None:
        self._make: Callable[[], bytes] | None = make
        self._data: bytes | None = None

    @property
    def data(self) -> bytes:
        if self._data is None:
            assert self._make is not None
            self._data, self._make = self._make(), None
        return self._data


Packed = bytes | Lazy


def as_bytes(packed: Packed) -> bytes:
    return packed if isinstance(packed, bytes) else packed.data


class Frame:
    """One outgoing message: made from its object (then encoded when first needed, per format) or from bytes
    already packed (a message that came through the store's channel, a reply sent before)."""

    __slots__ = ("_json", "_obj", "_packed", "wired")

    def __init__(self, obj: Any = None, packed: bytes | None = None, json: bytes | None = None) -> None:
        self._obj = obj
        self._packed = packed
        self._json = json
        self.wired: list[bytes | None] = [None, None]  # whole websocket frames [text, binary], made by the edge

    @property
    def packed(self) -> bytes:
        got = self._packed
        if got is None:
            got = self._packed = pack(self._obj if self._obj is not None else orjson.loads(self.json))
        return got

    @property
    def json(self) -> bytes:
        got = self._json
        if got is None:
            got = self._json = orjson.dumps(self._obj if self._obj is not None else unpack(self.packed))
        return got

    @property
    def text(self) -> str:
        return self.json.decode()

    def size(self, binary: bool) -> int:
        """About the memory the frame holds in a queue of a binary or a text client (what is sent to it)."""
        return len(self.packed) if binary else len(self.json)

    def wire(self, binary: bool) -> bytes:
        """The whole websocket frame of this message for a binary or a text client."""
        got = self.wired[binary]
        if got is None:
            got = self.wired[binary] = ws_frame(self.packed if binary else self.json, binary)
        return got

    @classmethod
    def sent(cls, data: bytes | str) -> Frame:
        """A frame as it was sent before, to a binary (bytes) or a text client (str)."""
        if isinstance(data, bytes):
            return cls(packed=data)
        return cls(json=data.encode())


def ws_frame(payload: bytes, binary: bool) -> bytes:
    """A whole server-to-client websocket frame (RFC 6455: final, unmasked, no extension), so a broadcast
    can write the same bytes to every socket instead of framing the message once per recipient."""
    first = 0x82 if binary else 0x81
    n = len(payload)
    if n < 126:
        head = bytes((first, n))
    elif n < 0x10000:
        head = struct.pack("!BBH", first, 126, n)
    else:
        head = struct.pack("!BBQ", first, 127, n)
    return head + payload

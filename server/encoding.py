"""msgpack built from parts: a commit packs the game state once and splices the same bytes into the stored
record and into the update every client gets, and re-packs only the players whose sheets changed.

msgpack maps and arrays are a header followed by their items back to back, so items packed earlier can be
joined under a new header; `unpack` of the result is the same as `pack` of the whole would give.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from rajas.engine import GameState
from rajas.engine.state import PlayerState
from rajas.protocol import pack


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


def _header(n: int, fix: int, b16: int, b32: int) -> bytes:
    if n < 16:
        return bytes((fix | n,))
    if n < 0x10000:
        return struct.pack(">BH", b16, n)
    return struct.pack(">BI", b32, n)


def _map_body(packed: bytes) -> tuple[int, bytes]:
    """(entries, bytes after the header) of a packed map."""
    first = packed[0]
    if first & 0xF0 == 0x80:
        return first & 0x0F, packed[1:]
    if first == 0xDE:
        return struct.unpack_from(">H", packed, 1)[0], packed[3:]
    if first == 0xDF:
        return struct.unpack_from(">I", packed, 1)[0], packed[5:]
    raise ValueError("not a packed map")


_FIXMAP = [bytes((0x80 | n,)) for n in range(16)]


def pack_map(head: dict[str, Any], packed: list[tuple[str, bytes]]) -> bytes:
    """`pack(head | {key: value ...})` where each value of `packed` is already msgpack bytes."""
    k = len(head)
    if k >= 16:
        return merge_maps([pack(head)], packed)
    n = k + len(packed)
    parts = [_FIXMAP[n] if n < 16 else _header(n, 0x80, 0xDE, 0xDF), pack(head)[1:]]  # (a fixmap: 1-byte header)
    return _joined(parts, packed)


def extend_map(packed_map: bytes, packed: list[tuple[str, bytes]]) -> bytes:
    """A packed map with more (already packed) entries."""
    return merge_maps([packed_map], packed)


_keys: dict[str, bytes] = {}  # the few keys spliced in, packed once


def _joined(parts: list[bytes], packed: list[tuple[str, bytes]]) -> bytes:
    """parts (a map's header and entries), then each (key, already packed value) of `packed`, as one bytes."""
    for key, value in packed:
        k = _keys.get(key)
        if k is None:
            k = _keys[key] = pack(key)
        parts.append(k)
        parts.append(value)
    return b"".join(parts)


def merge_maps(maps: list[bytes], packed: list[tuple[str, bytes]]) -> bytes:
    """One map of the entries of packed maps (with no key in two of them) and more packed entries."""
    n = len(packed)
    parts = [b""]
    for m in maps:
        k, body = _map_body(m)
        n += k
        parts.append(body)
    parts[0] = _header(n, 0x80, 0xDE, 0xDF)
    return _joined(parts, packed)


def pack_array(items: list[bytes]) -> bytes:
    """`pack([...])` of items that are already msgpack bytes."""
    return _header(len(items), 0x90, 0xDC, 0xDD) + b"".join(items)


class StateEncoder:
    """Packs one room's successive game states. `apply` copies only the seat whose turn it is and never
    changes a state it returned, so every other player is the very same object as in the previous state:
    their packed sheets are kept (with a reference, so the identity stays meaningful) and reused."""

    __slots__ = ("_once", "_players")

    def __init__(self) -> None:
        self._players: list[tuple[PlayerState, bytes]] = []
        self._once: dict[str, tuple[tuple[Any, ...], bytes]] = {}

    def once(self, slot: str, key: tuple[Any, ...], make: Callable[[], Any]) -> bytes:
        """`pack(make())`, packed again only when an object of `key` is not the one it was last time in this
        slot (for parts of a room that are replaced, never changed in place, and rarely: its settings, seats,
        game, presence counts). Identity, not equality: a replaced part packs again even if it is equal."""
        got = self._once.get(slot)
        if got is not None:
            old = got[0]
            if len(old) == len(key):
                for i in range(len(key)):
                    if old[i] is not key[i]:
                        break
                else:
                    return got[1]
        got = self._once[slot] = (key, pack(make()))
        return got[1]

    def encode(self, state: GameState) -> tuple[bytes, str]:
        """The packed public state (all but the dice generator), and the generator's state."""
        before = self._players
        kept: list[tuple[PlayerState, bytes]] = []
        for i, p in enumerate(state.players):
            if i < len(before) and before[i][0] is p:
                kept.append(before[i])
            else:
                kept.append((p, pack(state.player_dict(p))))
        self._players = kept
        head = state.head_dict(plain=False)
        rng = head.pop("rng")
        return pack_map(head, [("players", pack_array([b for _, b in kept]))]), rng

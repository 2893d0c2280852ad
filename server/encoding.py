"""msgpack built from parts: a commit packs the game state once and splices the same bytes into the stored
record and into the update every client gets, and re-packs only the players whose sheets changed.

msgpack maps and arrays are a header followed by their items back to back, so items packed earlier can be
joined under a new header; `unpack` of the result is the same as `pack` of the whole would give.
"""

from __future__ import annotations

import struct
from typing import Any

from rajas.engine import GameState
from rajas.engine.state import PlayerState
from rajas.protocol import pack


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


def pack_map(head: dict[str, Any], packed: list[tuple[str, bytes]]) -> bytes:
    """`pack(head | {key: value ...})` where each value of `packed` is already msgpack bytes."""
    return extend_map(pack(head), packed)


_keys: dict[str, bytes] = {}  # the few keys spliced in, packed once


def extend_map(packed_map: bytes, packed: list[tuple[str, bytes]]) -> bytes:
    """A packed map with more (already packed) entries."""
    n, body = _map_body(packed_map)
    parts = [_header(n + len(packed), 0x80, 0xDE, 0xDF), body]
    for key, value in packed:
        k = _keys.get(key)
        if k is None:
            k = _keys[key] = pack(key)
        parts.append(k)
        parts.append(value)
    return b"".join(parts)


def pack_array(items: list[bytes]) -> bytes:
    """`pack([...])` of items that are already msgpack bytes."""
    return _header(len(items), 0x90, 0xDC, 0xDD) + b"".join(items)


class StateEncoder:
    """Packs one room's successive game states. `apply` copies only the seat whose turn it is and never
    changes a state it returned, so every other player is the very same object as in the previous state:
    their packed sheets are kept (with a reference, so the identity stays meaningful) and reused."""

    __slots__ = ("_players",)

    def __init__(self) -> None:
        self._players: list[tuple[PlayerState, bytes]] = []

    def encode(self, state: GameState) -> tuple[bytes, bytes]:
        """(the public state: all but the dice generator, the stored state: with it)."""
        known = {id(p): b for p, b in self._players}
        kept: list[tuple[PlayerState, bytes]] = []
        for p in state.players:
            b = known.get(id(p))
            if b is None:
                b = pack(state.player_dict(p))
            kept.append((p, b))
        self._players = kept
        head = state.head_dict()
        rng = head.pop("rng")
        public = pack_map(head, [("players", pack_array([b for _, b in kept]))])
        return public, extend_map(public, [("rng", pack(rng))])

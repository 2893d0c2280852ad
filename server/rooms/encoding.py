"""All the server's packing: room records, room and game views, updates and snapshots, as msgpack built from
parts. A commit packs the game state once and splices the same bytes into the stored record and into the
update every client gets, and re-packs only the players whose sheets changed. What clients see of the game
is server/views.py; the JSON text of an update for JSON clients, server/update_text.py.

msgpack maps and arrays are a header followed by their items back to back, so items packed earlier can be
joined under a new header; `unpack` of the result is the same as `pack` of the whole would give.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import msgpack  # type: ignore[import-untyped]
from rajas.games.dice_charmers.engine import GameState, pending
from rajas.games.dice_charmers.engine.state import PlayerState
from rajas.games.rng import state_to_wire
from rajas.protocol import pack, unpack
from rajas.server.metrics import Counter
from rajas.server.rooms.packed import Lazy  # (Packed, as_bytes: for the stores)
from rajas.server.rooms.packed import Packed as Packed
from rajas.server.rooms.packed import as_bytes as as_bytes
from rajas.server.rooms.room import Room
from rajas.server.rooms.undo import available as undo_available
from rajas.server.rooms.update_text import Made, UpdateText
from rajas.server.rooms.views import game_view, player_view, state_head
from rajas.server.rooms.views import (
    public_state as public_state,  # (for the modules that show a state: history, replay, fairness)
)
from rajas.server.storage.store import SPECTATORS, connected_seats


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
    """Packs one room's successive records and views. `apply` copies only the seat whose turn it is and never
    changes a state it returned, so every other player is the very same object as in the previous state:
    their packed sheets are kept (with a reference, so the identity stays meaningful) and reused. The other
    parts of a room are read-only (server/frozen.py), so one that is the same object packs the same."""

    __slots__ = ("_made", "_once", "_players", "_text")

    def __init__(self) -> None:
        self._players: list[tuple[PlayerState, bytes]] = []
        self._once: dict[str, tuple[tuple[Any, ...], bytes]] = {}
        # The last commit's state and pending decisions: its JSON text (made only when a JSON client is in the
        # room) takes them from here rather than making them again.
        self._made: Made | None = None
        self._text = UpdateText()

    def once(self, slot: str, key: tuple[Any, ...], make: Callable[[], Any]) -> bytes:
        """`pack(make())`, packed again only when an object of `key` is not the one it was last time in this
        slot. Identity, not equality: a replaced part packs again even if it is equal."""
        got = self._kept_once(slot, key)
        if got is not None:
            return got
        packed = pack(make())
        self._once[slot] = (key, packed)
        return packed

    def _kept_once(self, slot: str, key: tuple[Any, ...]) -> bytes | None:
        """What `once` packed last in `slot`, if every object of `key` is the one it was then."""
        got = self._once.get(slot)
        if got is None:
            return None
        old = got[0]
        if len(old) != len(key):
            return None
        for i in range(len(key)):
            if old[i] is not key[i]:
                return None
        return got[1]

    def _kept(self, state: GameState) -> list[tuple[PlayerState, bytes]]:
        """Each player of `state` with its packed sheet, packed again only for a player not seen last time."""
        before = self._players
        kept: list[tuple[PlayerState, bytes]] = []
        for i, p in enumerate(state.players):
            if i < len(before) and before[i][0] is p:
                kept.append(before[i])
            else:
                kept.append((p, pack(player_view(state, p))))
        self._players = kept
        return kept

    def _changed(self, state: GameState, base: GameState) -> bytes:
        """The packed public state with `null` for each player who is the very same as in `base`."""
        was = base.players
        delta = [_NONE if i < len(was) and was[i] is p else b for i, (p, b) in enumerate(self._kept(state))]
        return pack_map(state_head(state), [("players", pack_array(delta))])

    def encode(self, state: GameState, base: GameState | None = None) -> tuple[bytes, bytes, str]:
        """The packed public state (all but the dice generator); the same with `null` for every player who is the
        very same as in `base` (the state of the version before: what an update sends); the generator's state."""
        full = self._packed_state(state, None)
        return full, full if base is None else self._changed(state, base), state_to_wire(state.rng)

    def commit(self, room: Room, base: GameState | None = None, lazy: bool = False) -> tuple[Lazy, Packed]:
        """The record's changing part (packed when first asked for; `fixed_record` is the rest) and the packed
        game view ({pending, undo, state}) of a commit's update: the state without the dice generator, and with
        `null` for each player who is the same as in `base`, the version before (a decision changes one
        player's sheet, and a client holds the others). The record's whole state is packed only when the record
        is (never, mostly, with the in-process store), from the players' sheets packed here. `lazy`: the game
        view too is packed only when first asked for (the in-process store: when no client here reads msgpack,
        nobody does). (A committed room is never changed, only cloned, so packing it later packs it as it is
        now; the players' packed sheets are kept by identity, so packing out of order packs right.)"""
        state = room.state
        if state is None:
            return Lazy(partial(_record, room, None, 0)), _NONE
        rng = state.rng  # (written as hex only when the record is packed)
        waiting = pending(state)
        undo = undo_available(room)
        # (Partials, not closures: compiled by mypyc, a function with two closures keeps them in one
        # environment that refers back to them, and every commit left that cycle, with the old room, to the GC.)
        if lazy:
            self._made = (state, waiting)
            game = Lazy(partial(self._packed_game, state, base, waiting, undo))
            return Lazy(partial(self._whole_record, room, rng)), game
        changed = self._packed_state(state, base)
        if base is None:
            record = Lazy(partial(_record, room, changed, rng))
        else:
            record = Lazy(partial(_record_whole, room, [b for _, b in self._players], rng))
        self._made = (state, waiting)
        return record, pack_map({"pending": waiting, "undo": undo}, [("state", changed)])

    def _packed_game(self, state: GameState, base: GameState | None, waiting: dict[str, Any], undo: int) -> bytes:
        """The packed game view of `commit`, made when first asked for."""
        return pack_map({"pending": waiting, "undo": undo}, [("state", self._packed_state(state, base))])

    def _packed_state(self, state: GameState, base: GameState | None) -> bytes:
        """The packed public state; with `base`, `null` for each player who is the very same as in it."""
        if base is None:
            return pack_map(state_head(state), [("players", pack_array([b for _, b in self._kept(state)]))])
        return self._changed(state, base)

    def _whole_record(self, room: Room, rng: int) -> bytes:
        """The record of `commit`, its whole state packed when first asked for."""
        assert room.state is not None
        return _record_whole(room, [b for _, b in self._kept(room.state)], rng)

    def update_text(
        self, room: Room, now: float, events: list[Any], room_view: bytes, base: GameState | None = None
    ) -> Callable[[], str]:
        """What makes the JSON text of the update `update(room.v, now, events, room_view, ...)` of a commit just
        made, when a JSON client first needs it (server/update_text.py)."""
        return partial(
            self._text.update, room.state, base, undo_available(room), room.v, now, events, room_view, self._made
        )

    def room_view(self, room: Room, counts: Mapping[str, int]) -> bytes:
        """`pack(room.view(...))` for presence `counts`, packed again only when a part it shows was replaced."""
        key = (room.seats, room.settings, room.game, room.status, room.host, room.deadline, room.auto, room.began,
               counts)  # fmt: skip
        # (Looked up first: the callable `once` takes is an object made per call, every decision.)
        return self._kept_once("view", key) or self.once("view", key, partial(_view, room, counts))

    def fixed_record(self, room: Room) -> bytes:
        """The record's fixed part (settings with a custom sheet, game, host token...), packed once per room: a
        store writes it only when it changed, so a decision does not write the sheet again."""
        key = (room.settings, room.game, room.host_token, room.code)
        return self._kept_once("fixed", key) or self.once("fixed", key, room.fixed)


def _view(room: Room, counts: Mapping[str, int]) -> dict[str, Any]:
    return room.view(connected_seats(counts), counts.get(SPECTATORS, 0))


def _record_whole(room: Room, players: list[bytes], rng: int) -> bytes:
    assert room.state is not None
    return _record(room, pack_map(state_head(room.state), [("players", pack_array(players))]), rng)


def _record(room: Room, public: bytes | None, rng: int) -> bytes:
    if public is None:  # (no game yet: nothing packed to reuse)
        return pack(room.changing() | {"state": None, "undo": None})
    stored_rng = pack(state_to_wire(rng))
    return pack_map(room.changing(), [("state", extend_map(public, [("rng", stored_rng)])), ("undo", _undo(room))])


def _undo(room: Room) -> bytes:
    """The record's `undo` (server/turn_undo.py), its barrier state packed once per turn, not per commit."""
    u = room.undo
    if u is None:
        return _NONE
    decisions = [d.to_wire() for d in u.history.decisions]
    return pack_map({"decisions": decisions, "undos": u.undos}, [("base", u.barrier.packed())])


def listing(room: Room) -> bytes | None:
    """The room's line in the lobby's index, packed; None while it is not listed."""
    shown = room.listing()
    return pack(shown) if shown is not None else None


def log_entry(entry: list[Any] | None) -> bytes | None:
    """A decision's entry in the game log, packed (bytes: untracked by the cyclic GC while the store keeps it)."""
    return pack(entry) if entry is not None else None


def snapshot(room: Room, counts: Mapping[str, int], recent: list[dict[str, Any]]) -> bytes:
    """The snapshot a client gets, packed, but its sheet (`with_sheet` adds that)."""
    return pack(
        {
            "type": "snapshot",
            "v": room.v,
            "room": room.view(connected_seats(counts), counts.get(SPECTATORS, 0)),
            "game": game_view(room),
            "sheet_digest": room.sheet.digest,
            "recent": recent,
        }
    )


def with_sheet(snapshot: bytes, sheet: bytes | None) -> bytes:
    """The packed snapshot with its sheet: the packed sheet file, or None for a client that holds it."""
    return extend_map(snapshot, [("sheet", sheet if sheet is not None else _NONE)])


_NONE = pack(None)


def sheet(room: Room) -> bytes:
    """The room's sheet file, packed."""
    return pack(room.sheet.to_json())


def stored(room: Room) -> dict[str, Any]:
    """The record a commit stores, whole: `room.to_record()` with the players as clients see them (the same
    packed players go into the record and the update; `GameState.from_dict` ignores what it derives)."""
    record = room.to_record()
    if room.state is not None:
        record["state"] = public_state(room.state) | {"rng": record["state"]["rng"]}
    return record


def update(
    v: int, now: float, events: list[Any], room_view: bytes, game: Packed, count: Counter | None = None
) -> tuple[Packed, Packed]:
    """The update a commit publishes to every client, and its entry in the room's recent history; the update
    packed when first asked for if the game view is (then `count` counts its bytes when it is packed). (The
    entry is packed at once: kept for the room's last RECENT updates, it must not keep their events, objects
    every GC pass would walk.)"""
    if isinstance(game, Lazy):
        return Lazy(partial(_update, v, now, events, room_view, game, count)), _recent(v, now, events)
    events_packed = pack(events)
    packed = pack_map(
        {"type": "update", "v": v, "time": now}, [("events", events_packed), ("room", room_view), ("game", game)]
    )
    return packed, pack_map({"v": v, "time": now}, [("events", events_packed)])


def _update(v: int, now: float, events: list[Any], room_view: bytes, game: Lazy, count: Counter | None) -> bytes:
    packed = pack_map(
        {"type": "update", "v": v, "time": now}, [("events", pack(events)), ("room", room_view), ("game", game.data)]
    )
    if count is not None:
        count.inc(by=len(packed))
    return packed


def _recent(v: int, now: float, events: list[Any]) -> bytes:
    return pack_map({"v": v, "time": now}, [("events", pack(events))])


def peek(message: bytes) -> dict[str, Any]:
    """The head of a channel message: `type`, `v` and `events` of an update without decoding the room and
    game views behind them (every node receives every update of its rooms; only its clients need the rest)."""
    u = msgpack.Unpacker(raw=False, strict_map_key=False)
    u.feed(message)
    head: dict[str, Any] = {}
    for _ in range(u.read_map_header()):
        key = u.unpack()
        head[key] = u.unpack()
        if "type" in head and "v" in head and "events" in head:
            break
        if head.get("type") not in (None, "update"):  # presence and the like: small, take it all
            return dict(unpack(message))
    return head

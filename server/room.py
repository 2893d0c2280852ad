"""A room: its settings, seats, host, and game, with every change it allows as a pure method.

No I/O here. A change is made on a copy (`Room.clone`), checked, and only becomes real when a store
commits its record at the next version; so a refused change leaves nothing behind, and every node
that loads the record sees the same room.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from functools import partial
from typing import Any

from rajas.engine import Decision, GameState, RulesError, apply, new_game, pending
from rajas.engine.rng import DICE_VERSION, bot_contribution
from rajas.engine.sheet import Sheet
from rajas.protocol import pack
from rajas.protocol.errors import ProtocolError
from rajas.protocol.messages import RoomSettings

from . import codes
from .encoding import Lazy, StateEncoder, extend_map, pack_map
from .errors import from_rules
from .sheet_cache import sheet_for
from .store import SPECTATORS, connected_seats

LOBBY, PLAYING, OVER = "lobby", "playing", "over"
ROLL_EVENTS = ("dice_rolled", "karma_rolled")  # the events that show dice the server rolled
# Accepted decision ids remembered per seat, so a message resent after a reconnect is applied once. A client
# resends only what was unanswered when its connection dropped: one decision, or a few.
SEEN_KEEP = 16

Event = dict[str, Any]


def new_seed() -> dict[str, Any]:
    """A room's dice seed and its published commitment."""
    seed = codes.new_seed()
    return {"seed": seed, "commitment": codes.commitment(seed)}


def public_state(state: GameState) -> dict[str, Any]:
    """The game state as clients see it: everything but the dice generator, which would tell the future."""
    d = state.to_dict()
    del d["rng"]
    return d


# Every field of a room (its __slots__; kept by name because a class compiled with mypyc has no __slots__).
FIELDS = (
    "auto",
    "clock_key",
    "code",
    "created",
    "deadline",
    "game",
    "host",
    "host_token",
    "seats",
    "seen",
    "settings",
    "sheet",
    "state",
    "status",
    "updated",
    "v",
    "watch",
)


class Room:
    __slots__ = FIELDS

    code: str
    watch: str  # the spectator-only code
    settings: dict[str, Any]
    status: str
    seats: list[dict[str, Any]]  # {"id", "name", "token", "bot", "entropy"?}; during play, index = engine seat
    host: str | None  # seat id of the host
    host_token: str
    game: dict[str, Any] | None  # {"seed", "commitment"} from creation; at the start also "start_player", ...
    state: GameState | None
    v: int
    deadline: float | None
    clock_key: list[int] | None  # [round, turn, seat] the clock runs for
    auto: list[int] | None  # the clock ran out for this [round, turn, seat]: the bot finishes that turn
    seen: dict[str, list[str | int]]
    created: float
    updated: float
    sheet: Sheet

    @classmethod
    def create(cls, settings: RoomSettings, now: float | None = None) -> Room:
        r = cls()
        r.code = codes.invite_code()
        r.watch = codes.invite_code()
        r.settings = settings.model_dump()
        r.sheet = sheet_for(r.settings)
        r.status = LOBBY
        r.seats = []
        r.host = None
        r.host_token = codes.token()
        r.game = new_seed()  # committed before anyone joins, so no contribution can be answered by choosing it
        r.state = None
        r.v = 1
        r.deadline = None
        r.clock_key = None
        r.auto = None
        r.seen = {}
        r.created = r.updated = now if now is not None else time.time()
        return r

    def clone(self) -> Room:
        """A copy to change. Everything is shared: the game state is immutable, and `seats` and `seen` are
        replaced by the changes that change them (`_own_seats`), never changed in place, so an unchanged
        part is the same object in both rooms (the hub packs the room view again only when a part is not).
        (Field by field: a loop over __slots__ with getattr/setattr costs three times as much, every commit.)"""
        r = Room.__new__(Room)  # (not object.__new__: compiled with mypyc, Room is a native class that refuses it)
        r.code, r.watch, r.settings, r.status = self.code, self.watch, self.settings, self.status
        r.seats = self.seats
        r.host, r.host_token, r.game, r.state, r.v = self.host, self.host_token, self.game, self.state, self.v
        r.deadline, r.clock_key, r.auto, r.seen = self.deadline, self.clock_key, self.auto, self.seen
        r.created, r.updated, r.sheet = self.created, self.updated, self.sheet
        return r

    # ---- records --------------------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The stored form."""
        return self._fields() | {"state": self.state.to_dict() if self.state is not None else None}

    def _fields(self) -> dict[str, Any]:
        return self._fixed() | self._changing()

    def _fixed(self) -> dict[str, Any]:
        """The fields a change replaces rarely (and never changes in place): packed once per room by `encode`."""
        return {
            "code": self.code,
            "watch": self.watch,
            "settings": self.settings,
            "host_token": self.host_token,
            "game": self.game,
            "created": self.created,
        }

    def _changing(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "seats": self.seats,
            "host": self.host,
            "v": self.v,
            "deadline": self.deadline,
            "clock_key": self.clock_key,
            "auto": self.auto,
            "seen": self.seen,
            "updated": self.updated,
        }

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> Room:
        r = cls()
        r.code = d["code"]
        r.watch = d["watch"]
        r.settings = d["settings"]
        r.sheet = sheet_for(r.settings)
        r.status = d["status"]
        r.seats = d["seats"]
        r.host = d["host"]
        r.host_token = d["host_token"]
        r.game = d["game"]
        r.state = GameState.from_dict(d["state"], r.sheet) if d["state"] is not None else None
        r.v = d["v"]
        r.deadline = d["deadline"]
        r.clock_key = d["clock_key"]
        r.auto = d["auto"]
        r.seen = d["seen"]
        r.created = d["created"]
        r.updated = d["updated"]
        return r

    # ---- views ------------------------------------------------------------------------------------------

    def view(self, connected: Collection[str] | None = None, spectators: int = 0) -> dict[str, Any]:
        settings = self.settings_view()
        over = self.status == OVER
        return {
            "code": self.watch,  # the spectator code: the invite code goes only to players (create / join replies)
            "status": self.status,
            "settings": settings,
            "seats": [
                {
                    "id": s["id"],
                    "name": s["name"],
                    "connected": s["id"] in (connected or ()),
                    "bot": s["bot"],
                    "contributed": "entropy" in s,
                }
                for s in self.seats
            ],
            "host": self.host,
            "spectators": spectators,
            "commitment": self.game["commitment"] if self.game else None,
            "seed": self.game["seed"] if self.game and over else None,
            "deadline": self.deadline,
            "auto": self.auto,
        }

    def packed_view(self, encoder: StateEncoder, counts: dict[str, int]) -> bytes:
        """`pack(view(...))` for presence `counts` (a dict that is replaced, never changed), packed again only
        when a part of the room it shows was replaced (see `clone`)."""
        key = (self.seats, self.settings, self.game, self.status, self.host, self.deadline, self.auto, counts)
        return encoder.once("view", key, lambda: self.view(connected_seats(counts), counts.get(SPECTATORS, 0)))

    def encode(self, encoder: StateEncoder | None = None) -> tuple[Lazy, bytes]:
        """The record's changing part (packed when first asked for; `fixed_record` is the rest) and the packed
        game view ({state, pending}) of a commit. The game state is packed once and the same bytes go into
        both (the view without the dice generator); `encoder`, kept per room, re-packs only the players that
        changed since the room's previous commit. (A committed room is never changed, only cloned, so packing
        it later packs it as it is now.)"""
        encoder = encoder or StateEncoder()
        if self.state is None:
            return Lazy(partial(self._record, encoder, None, "")), pack(None)
        public, rng = encoder.encode(self.state)
        view = pack_map({"pending": pending(self.state, plain=False)}, [("state", public)])
        # (A bound method, not a closure: compiled by mypyc, a function with two closures keeps them in one
        # environment that refers back to them, and every commit left that cycle, with the old room, to the GC.)
        return Lazy(partial(self._record, encoder, public, rng)), view

    def _record(self, encoder: StateEncoder, public: bytes | None, rng: str) -> bytes:
        if public is None:  # (no game yet: nothing packed to reuse)
            return pack(self._changing() | {"state": None})
        return pack_map(self._changing(), [("state", extend_map(public, [("rng", pack(rng))]))])

    def fixed_record(self, encoder: StateEncoder | None = None) -> bytes:
        """The record's fixed part (settings with a custom sheet, game, host token...), packed once per room: a
        store writes it only when it changed, so a decision does not write the sheet again."""
        if encoder is None:
            return pack(self._fixed())
        return encoder.once("fixed", (self.settings, self.game, self.host_token, self.code), self._fixed)

    def fixed_changed(self, base: Room) -> bool:
        """Whether this change of `base` replaced a part of the fixed record (they are replaced, never changed)."""
        return (
            self.settings is not base.settings or self.game is not base.game or self.host_token is not base.host_token
        )

    def listing(self) -> dict[str, Any] | None:
        """The room's line in GET /api/rooms while it is a public room in the lobby, else None."""
        if self.status != LOBBY or not self.settings["public"]:
            return None
        return {"code": self.code, "seats": self.settings["seats"], "taken": len(self.seats)}

    def listing_changed(self, base: Room) -> bool:
        """Whether this change of `base` may change its listing: only lobby changes can (a decision cannot)."""
        return base.status == LOBBY and (
            self.status != LOBBY or self.seats is not base.seats or self.settings is not base.settings
        )

    def game_view(self) -> dict[str, Any] | None:
        if self.state is None:
            return None
        return {"state": public_state(self.state), "pending": pending(self.state)}

    # ---- lookups ----------------------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        if token is None:
            return None
        for i, s in enumerate(self.seats):
            if s["token"] == token:
                return i
        return None

    def seat_index(self, seat_id: str | None) -> int | None:
        for i, s in enumerate(self.seats):
            if s["id"] == seat_id:
                return i
        return None

    def is_host(self, host_token: str | None, seat_token: str | None) -> bool:
        if host_token is not None and host_token == self.host_token:
            return True
        seat = self.seat_of(seat_token)
        return seat is not None and self.host is not None and self.seats[seat]["id"] == self.host

    def _own_seats(self) -> list[dict[str, Any]]:
        """The seats, copied before a change: the room this one was cloned from shares them."""
        self.seats = [dict(s) for s in self.seats]
        return self.seats

    def _require_lobby(self) -> None:
        if self.status != LOBBY:
            raise ProtocolError("wrong_phase", "only in the lobby, before the game starts")

    # ---- changes (call on a clone) ---------------------------------------------------------------------

    def take_seat(self, name: str, host_token: str | None) -> tuple[dict[str, Any], list[Event]]:
        self._require_lobby()
        if len(self.seats) >= self.settings["seats"]:
            raise ProtocolError("room_full", f"all {self.settings['seats']} seats are taken")
        seat: dict[str, Any] = {"id": codes.seat_id(), "name": name, "token": codes.token(), "bot": False}
        self._own_seats().append(seat)
        events: list[Event] = [{"type": "seat_taken", "seat": len(self.seats) - 1, "id": seat["id"], "name": name}]
        if host_token is not None and host_token == self.host_token and self.host is None:
            self.host = seat["id"]
            events.append({"type": "host_changed", "host": seat["id"]})
        return seat, events

    def leave(self, seat: int) -> list[Event]:
        self._require_lobby()
        gone = self._own_seats().pop(seat)
        events: list[Event] = [{"type": "seat_left", "id": gone["id"], "name": gone["name"]}]
        if self.host == gone["id"]:
            self.host = None  # the host token still works; a seated player can be made host with it
            events.append({"type": "host_changed", "host": None})
        return events

    def kick(self, seat: int) -> list[Event]:
        self._require_lobby()
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("wrong_phase", f"no player in seat {seat}")
        gone = self._own_seats().pop(seat)
        events: list[Event] = [{"type": "kicked", "id": gone["id"], "name": gone["name"]}]
        if self.host == gone["id"]:
            self.host = None
            events.append({"type": "host_changed", "host": None})
        return events

    def hand_over(self, seat: int) -> list[Event]:
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("wrong_phase", f"no player in seat {seat}")
        self.host = self.seats[seat]["id"]
        self.host_token = codes.token()  # the old host token stops working: hosting moved
        return [{"type": "host_changed", "host": self.host}]

    def settings_view(self) -> dict[str, Any]:
        """The settings as clients see them: a custom sheet shown by its name."""
        settings = dict(self.settings)
        if isinstance(settings["sheet"], dict):
            settings["sheet"] = {"custom": self.sheet.name}
        return settings

    def change_settings(self, settings: RoomSettings) -> list[Event]:
        """The host's new settings (lobby only): checked like a new room's, and never fewer seats than taken."""
        self._require_lobby()
        if settings.seats < len(self.seats):
            raise ProtocolError("bad_settings", f"{len(self.seats)} players are seated: seats cannot go below that")
        new = settings.model_dump()
        self.sheet = sheet_for(new)
        self.settings = new
        return [{"type": "settings_changed", "settings": self.settings_view()}]

    def contribute(self, seat: int, commitment: str, value: str) -> list[Event]:
        """A seated player's random value for the dice, made seeing the room's `commitment` (docs/fairness.md)."""
        self._require_lobby()
        if self.game is None or commitment != self.game["commitment"]:
            raise ProtocolError("bad_commitment", "this is not the commitment of this room's dice seed")
        had = self.seats[seat].get("entropy")
        if had == value:
            return []
        if had is not None:
            raise ProtocolError("contribution_fixed", "this seat has already contributed another value")
        self._own_seats()[seat] = {**self.seats[seat], "entropy": value}
        return [{"type": "contributed", "player": seat, "id": self.seats[seat]["id"]}]

    def start(self, now: float) -> list[Event]:
        self._require_lobby()
        if len(self.seats) < 2:
            raise ProtocolError("wrong_phase", "at least 2 seated players are needed to start")
        game = self.game if self.game is not None else new_seed()
        seed = game["seed"]
        # A seat whose browser sent nothing gets the value its bot derives from the committed seed: fixed before
        # anyone joined, so the server cannot choose it either.
        contributions = [
            {"value": s["entropy"], "by": "player"}
            if "entropy" in s
            else {"value": bot_contribution(seed, i), "by": "bot"}
            for i, s in enumerate(self.seats)
        ]
        values = [c["value"] for c in contributions]
        state, events = new_game(len(self.seats), seed, self.sheet, contributions=values)
        self.status = PLAYING
        self.game = {
            "seed": seed,
            "commitment": game["commitment"],
            "start_player": state.start_player,
            "players": len(self.seats),
            "dice": DICE_VERSION,
            "contributions": contributions,
            "rolls": [e for e in events if e["type"] in ROLL_EVENTS],  # the first round's dice
        }
        self.state = state
        head: Event = {
            "type": "game_starting",
            "commitment": self.game["commitment"],
            "players": len(self.seats),
            "contributions": contributions,
        }
        return [head, *events, *self._after_game_change(now)]

    def decide(self, seat: int, wire: Any, by: str, now: float) -> tuple[list[Event], list[Any]]:
        """Applies a decision for `seat`. Returns the events and the game log entry."""
        if self.status == LOBBY:
            raise ProtocolError("wrong_phase", "the game has not started")
        assert self.state is not None
        try:
            decision = Decision.from_wire(wire)
            state, events = apply(self.state, decision, player=seat)
        except RulesError as e:
            raise from_rules(e) from None
        self.state = state
        rolls = [e for e in events if e["type"] in ROLL_EVENTS]
        wire = decision.to_wire()
        entry = [seat, wire, by, rolls]
        head: Event = {"type": "decided", "player": seat, "decision": wire, "by": by}
        return [head, *events, *self._after_game_change(now)], entry

    def remember(self, seat_id: str, msg_id: str | int) -> None:
        # A new dict and list: `clone` shares them with the room this one was copied from.
        self.seen = {**self.seen, seat_id: [*self.seen.get(seat_id, ())[1 - SEEN_KEEP :], msg_id]}

    def set_bot(self, seat: int, on: bool) -> list[Event]:
        self._own_seats()[seat]["bot"] = on
        kind = "bot_took_over" if on else "bot_released"
        return [{"type": kind, "player": seat, "id": self.seats[seat]["id"]}]

    def clock_expired(self) -> list[Event]:
        self.auto = self.clock_key
        assert self.auto is not None
        return [{"type": "clock_expired", "player": self.auto[2], "round": self.auto[0], "turn": self.auto[1]}]

    def _after_game_change(self, now: float) -> list[Event]:
        """Game over: reveal the seed. Otherwise restart the turn clock when a new turn begins."""
        assert self.state is not None and self.game is not None
        self.updated = now
        if self.state.is_over:
            self.status = OVER
            self.deadline = self.clock_key = self.auto = None
            return [{"type": "seed_revealed", "seed": self.game["seed"], "commitment": self.game["commitment"]}]
        key = [self.state.round, self.state.turn, self.state.current]
        if key != self.clock_key:
            self.clock_key = key
            self.auto = None
            clock = self.settings["turn_clock"]
            self.deadline = now + clock if clock else None
        return []

    def bot_to_move(self) -> int | None:
        """The seat the server must play for now: a bot-held seat, or one whose turn clock ran out."""
        if self.status != PLAYING or self.state is None:
            return None
        seat = self.state.current
        if self.seats[seat]["bot"] or (self.auto is not None and self.auto == self.clock_key):
            return seat
        return None

    def log(self, decisions: list[Any], via_watch: bool = False) -> dict[str, Any]:
        """The finished game's full log: enough to replay it and check every roll (`rajas verify`).
        Asked for by the spectator code, it names the room by that code, never the invite code."""
        assert self.game is not None
        spec = self.settings["sheet"]
        return {
            "format": "rajas-game-log/1",
            "code": self.watch if via_watch else self.code,
            "players": [s["name"] for s in self.seats],
            "sheet": spec,
            "sheet_digest": self.sheet.digest,
            "commitment": self.game["commitment"],
            "seed": self.game["seed"] if self.status == OVER else None,
            "dice": self.game.get("dice"),
            "contributions": self.game.get("contributions"),
            "start_player": self.game["start_player"],
            "start_rolls": self.game["rolls"],
            "decisions": decisions,
            "result": self.state.result if self.state is not None else None,
            "final_state": public_state(self.state) if self.state is not None else None,
        }

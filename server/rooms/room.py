"""A room: its settings, seats, host and game, as data, with the lookups and checks every change needs.

No I/O and no packing here (packing is server/encoding.py). A change (server/changes.py) is made on a copy
(`Room.clone`), checked, and only becomes real when a store commits its record at the next version; so a
refused change leaves nothing behind, and every node that loads the record sees the same room. The parts a
clone shares with its original (settings, seats, game, seen) are read-only containers (server/frozen.py):
a change replaces them.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from typing import Any

from rajas.games.dice_charmers.engine import GameState
from rajas.games.dice_charmers.engine.sheet import Sheet
from rajas.protocol.errors import ProtocolError
from rajas.protocol.messages import RoomSettings
from rajas.server.rooms import codes, series
from rajas.server.rooms.frozen import EMPTY, FrozenDict, freeze, freeze_seats, freeze_seen
from rajas.server.rooms.sheet_cache import sheet_for
from rajas.server.rooms.turn_undo import TurnUndo

LOBBY, PLAYING, OVER = "lobby", "playing", "over"
# Accepted decision ids remembered per seat, so a message resent after a reconnect is applied once. A client
# resends only what was unanswered when its connection dropped: one decision, or a few.
SEEN_KEEP = 16
ROLL_EVENTS = ("dice_rolled", "karma_rolled")  # the events that show dice the server rolled

Event = dict[str, Any]
Seat = Mapping[str, Any]  # {"id", "name", "token", "bot", "entropy"?}, read-only
Turn = tuple[int, int, int]  # (round, turn, seat) of a turn clock


def new_seed() -> Mapping[str, Any]:
    """A room's dice seed and its published commitment."""
    seed = codes.new_seed()
    return FrozenDict({"seed": seed, "commitment": codes.commitment(seed)})


def _turn(key: Any) -> Turn | None:
    return (int(key[0]), int(key[1]), int(key[2])) if key is not None else None


# Every field of a room (its __slots__; kept by name because a class compiled with mypyc has no __slots__).
FIELDS = (
    "auto",
    "began",
    "clock_key",
    "code",
    "created",
    "deadline",
    "game",
    "host",
    "host_token",
    "reminded",
    "seats",
    "seen",
    "settings",
    "shown",
    "sheet",
    "state",
    "status",
    "undo",
    "updated",
    "v",
    "watch",
)


class Room:
    __slots__ = FIELDS

    code: str
    watch: str  # the spectator-only code
    settings: Mapping[str, Any]
    status: str
    seats: tuple[Seat, ...]  # during play, index = engine seat
    host: str | None  # seat id of the host
    host_token: str
    game: Mapping[str, Any] | None  # {"seed", "commitment"} from creation; at the start also "start_player", ...
    state: GameState | None
    v: int
    shown: int  # the version that made the game state as it is now (a seat's or a setting's change moves `v` only)
    deadline: float | None
    clock_key: Turn | None  # the turn the clock runs for
    auto: Turn | None  # the clock ran out for this turn: the bot finishes it
    began: tuple[float, int] | None  # when the current turn began, and the version that began it
    reminded: Turn | None  # the turn whose reminder went out (turn-based rooms)
    seen: Mapping[str, tuple[str | int, ...]]  # seat id -> the ids of its last decisions
    created: float
    updated: float
    sheet: Sheet
    undo: TurnUndo | None  # what the player to move may take back this turn (server/undo.py)

    @classmethod
    def create(cls, settings: RoomSettings, now: float | None = None) -> Room:
        r = cls()
        r.code = codes.invite_code()
        r.watch = codes.invite_code()
        plain = settings.model_dump()
        r.sheet = sheet_for(plain)
        r.settings = freeze(plain)
        r.status = LOBBY
        r.seats = ()
        r.host = None
        r.host_token = codes.token()
        r.game = new_seed()  # committed before anyone joins, so no contribution can be answered by choosing it
        r.state = None
        r.v = r.shown = 1
        r.deadline = None
        r.clock_key = None
        r.auto = None
        r.began = r.reminded = None
        r.seen = EMPTY
        r.undo = None
        r.created = r.updated = now if now is not None else time.time()
        return r

    def clone(self) -> Room:
        """A copy to change. Everything is shared: the game state is never changed once made, and the other
        parts are read-only and replaced by the changes that change them, so an unchanged part is the same
        object in both rooms (the encoder packs a part again only when it is not). (Field by field: a loop
        over __slots__ with getattr/setattr is slower, and this runs on every commit.)"""
        r = Room.__new__(Room)  # (not object.__new__: compiled with mypyc, Room is a native class that refuses it)
        r.code, r.watch, r.settings, r.status = self.code, self.watch, self.settings, self.status
        r.seats = self.seats
        r.host, r.host_token, r.game, r.state, r.v = self.host, self.host_token, self.game, self.state, self.v
        r.shown = self.shown
        r.deadline, r.clock_key, r.auto, r.seen = self.deadline, self.clock_key, self.auto, self.seen
        r.began, r.reminded = self.began, self.reminded
        r.created, r.updated, r.sheet = self.created, self.updated, self.sheet
        r.undo = self.undo
        return r

    # ---- records --------------------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The stored form."""
        state = self.state.to_dict() if self.state is not None else None
        return self.fixed() | self.changing() | {"undo": self.undo.to_record() if self.undo else None, "state": state}

    def fixed(self) -> dict[str, Any]:
        """The fields a change replaces rarely: stored apart, and written again only when one was replaced."""
        return {
            "code": self.code,
            "watch": self.watch,
            "settings": self.settings,
            "host_token": self.host_token,
            "game": self.game,
            "created": self.created,
        }

    def changing(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "seats": self.seats,
            "host": self.host,
            "v": self.v,
            "shown": self.shown,
            "deadline": self.deadline,
            "clock_key": self.clock_key,
            "auto": self.auto,
            "began": self.began,
            "reminded": self.reminded,
            "seen": self.seen,
            "updated": self.updated,
        }

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> Room:
        r = cls()
        r.code = d["code"]
        r.watch = d["watch"]
        r.sheet = sheet_for(d["settings"])
        r.settings = freeze(d["settings"])
        r.status = d["status"]
        r.seats = freeze_seats(d["seats"])
        r.host = d["host"]
        r.host_token = d["host_token"]
        r.game = freeze(d["game"])
        r.state = GameState.from_dict(d["state"], r.sheet) if d["state"] is not None else None
        r.v = d["v"]
        r.shown = d.get("shown", r.v)  # (a record from before: every change counts)
        r.deadline = d["deadline"]
        r.clock_key = _turn(d["clock_key"])
        r.auto = _turn(d["auto"])
        began = d.get("began")
        r.began = (float(began[0]), int(began[1])) if began is not None else None
        r.reminded = _turn(d.get("reminded"))
        r.seen = freeze_seen(d["seen"])
        r.created = d["created"]
        r.updated = d["updated"]
        r.undo = TurnUndo.from_record(d.get("undo"), r.sheet, r.state)
        return r

    def fixed_changed(self, base: Room) -> bool:
        """Whether this change of `base` replaced a part of the fixed record."""
        return (
            self.settings is not base.settings or self.game is not base.game or self.host_token is not base.host_token
        )

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
                    "bot_at": s.get("bot_at"),  # away: when the bot takes the seat (server time)
                    "left": bool(s.get("left")),  # the owner left the game (server/seat_moves.py)
                    "kind": s.get("kind"),
                    "ready": bool(s.get("ready")) or s.get("kind") is not None,  # (a bot is always ready)
                }
                for s in self.seats
            ],
            "host": self.host,
            "spectators": spectators,
            "commitment": self.game["commitment"] if self.game else None,
            "seed": self.game["seed"] if self.game and over else None,
            "deadline": self.deadline,
            "auto": self.auto,
            "series": series.view(self.seats, self.game, over),
            "turn_began": self.began[0] if self.began is not None and self.status == PLAYING else None,
        }

    def settings_view(self) -> dict[str, Any]:
        """The settings as clients see them: a custom sheet shown by its name."""
        settings = dict(self.settings)
        if isinstance(settings["sheet"], Mapping):
            settings["sheet"] = {"custom": self.sheet.name}
        return settings

    def listing(self) -> dict[str, Any] | None:
        """The room's line in GET /api/rooms while it is a public room in the lobby, else None."""
        if self.status != LOBBY or not self.settings["public"]:
            return None
        # bounded: at most 5 seated names of at most name_max characters each, and the sheet's short name
        return {
            "code": self.code,
            "seats": self.settings["seats"],
            "taken": len(self.seats),
            "names": [s["name"] for s in self.seats],
            "sheet": self.settings_view()["sheet"],  # a custom sheet by its name, never its file
            "spectators": bool(self.settings["spectators"]),
        }

    def listing_changed(self, base: Room) -> bool:
        """Whether this change of `base` may change its listing: only lobby changes can (a decision cannot)."""
        return (base.status == LOBBY or self.status == LOBBY) and (  # (a rematch brings a room back to the lobby)
            self.status != LOBBY or self.seats is not base.seats or self.settings is not base.settings
        )

    # ---- lookups and checks -----------------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        if token is None:
            return None
        for i, s in enumerate(self.seats):
            if s["token"] == token:
                return i
        return None

    def seat_for(self, token: str | None) -> int:
        """The seat of a player's token, or the refusal a player without one gets."""
        seat = self.seat_of(token)
        if seat is None:
            raise ProtocolError("bad_token", "your seat is no longer in this room")
        return seat

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

    def seen_before(self, seat_id: str, msg_id: str | int) -> bool:
        """Whether this seat's decision with this id was applied already (a message sent again after a reconnect)."""
        return msg_id in self.seen.get(seat_id, ())

    def behind(self, at: int | None) -> bool:
        """Whether version `at`, which a message was made seeing, is newer than this copy (its update is still
        on its way here: load the room again). A message made seeing an older game state is refused; one made
        before a change of seats only (someone went away or came back) sees the game as it is."""
        if at is None or at == self.v:
            return False
        if at > self.v:
            return True
        if at >= self.shown:
            return False
        raise ProtocolError("stale_version", f"the room is at version {self.v}, not {at}")

    def remember(self, seat_id: str, msg_id: str | int) -> None:
        self.seen = FrozenDict({**self.seen, seat_id: (*self.seen.get(seat_id, ())[1 - SEEN_KEEP :], msg_id)})

    def require_lobby(self) -> None:
        if self.status != LOBBY:
            raise ProtocolError("wrong_phase", "only in the lobby, before the game starts")

    def replace_seat(self, seat: int, **fields: Any) -> None:
        """The seat with some fields changed, in a new tuple of seats (the old one stays as it was)."""
        seats = list(self.seats)
        seats[seat] = FrozenDict({**seats[seat], **fields})
        self.seats = tuple(seats)

    def bot_to_move(self) -> int | None:
        """The seat the server must play for now: a bot-held seat, or one whose turn clock ran out."""
        if self.status != PLAYING or self.state is None:
            return None
        if not any(s.get("kind") is None and not s["bot"] for s in self.seats):
            return None  # no person holds a seat (every one a bot's, left or away): nobody to play for
        seat = self.state.current
        if self.seats[seat]["bot"] or (self.auto is not None and self.auto == self.clock_key):
            return seat
        return None

    def log(self, decisions: list[Any], public: dict[str, Any] | None, via_watch: bool = False) -> dict[str, Any]:
        """The finished game's full log: enough to replay it and check every roll (`rajas verify`). Asked for
        by the spectator code, it names the room by that code, never the invite code. `public` is the final
        state as clients see it."""
        assert self.game is not None
        return {
            "format": "rajas-game-log/1",
            "code": self.watch if via_watch else self.code,
            "players": [s["name"] for s in self.seats],
            "sheet": self.settings["sheet"],
            "sheet_digest": self.sheet.digest,
            "commitment": self.game["commitment"],
            "seed": self.game["seed"] if self.status == OVER else None,
            "dice": self.game.get("dice"),
            "contributions": self.game.get("contributions"),
            "start_player": self.game["start_player"],
            "start_rolls": self.game["rolls"],
            "decisions": decisions,
            "result": self.state.result if self.state is not None else None,
            "final_state": public,
        }

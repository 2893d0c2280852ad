"""A room: its settings, seats, host and game, as data, with the lookups and checks every change needs.

No I/O here. A change (server/rooms/changes.py) is made on a copy (`Room.clone`), checked, and only becomes real
when a store commits its record at the next version; so a refused change leaves nothing behind, and every node
that loads the record sees the same room. The parts a clone shares with its original (settings, seats, match,
seen) are read-only containers (server/rooms/frozen.py): a change replaces them.

The room knows its game only through the game interface (games/interface.py): `game` is the room's game, its
`state` that game's own read-only state, and `components` what the game's drawing needs (a Dice Charmers sheet).
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Collection, Mapping
from typing import Any

import orjson
from rajas.games.interface import Components, Game, OptionsError
from rajas.games.registry import GAMES
from rajas.games.registry import game as game_of
from rajas.protocol.errors import ProtocolError
from rajas.protocol.messages import RoomSettings
from rajas.server.rooms import codes, series
from rajas.server.rooms.frozen import EMPTY, FrozenDict, freeze, freeze_seats, freeze_seen

LOBBY, PLAYING, OVER = "lobby", "playing", "over"
UNDO_REFUSAL = "nothing_to_undo"
# Accepted decision ids remembered per seat, so a message resent after a reconnect is applied once. A client
# resends only what was unanswered when its connection dropped: one decision, or a few.
SEEN_KEEP = 16
LOG_FORMAT = "rajas-game-log/2"

Event = dict[str, Any]
Seat = Mapping[str, Any]  # {"id", "name", "token", "bot", "entropy"?}, read-only
Turn = tuple[int, int]  # (n, seat) of a turn clock: the game's `turn`


def new_seed() -> Mapping[str, Any]:
    """A match's seed and its published commitment."""
    seed = codes.new_seed()
    return FrozenDict({"seed": seed, "commitment": codes.commitment(seed)})


def _turn(key: Any) -> Turn | None:
    return (int(key[0]), int(key[1])) if key is not None else None


class ComponentsCache:
    """The components rooms play with, by game and the content hash of their options, the least recently used
    dropped past `limit` (RAJAS_SHEET_CACHE): rooms on one custom sheet share one parse, and the sheets of rooms
    long gone do not stay behind."""

    def __init__(self, limit: int = 64) -> None:
        self.limit = max(1, limit)
        self.kept: OrderedDict[str, Components] = OrderedDict()
        self.evictions = 0

    def __len__(self) -> int:
        return len(self.kept)

    def get(self, game: Game, options: Mapping[str, Any]) -> Components:
        key = game.id + ":" + hashlib.sha256(orjson.dumps(options, option=orjson.OPT_SORT_KEYS)).hexdigest()
        got = self.kept.get(key)
        if got is not None:
            self.kept.move_to_end(key)
            return got
        made = game.components(options)
        self.kept[key] = made
        while len(self.kept) > self.limit:
            self.kept.popitem(last=False)
            self.evictions += 1
        return made


COMPONENTS = ComponentsCache()  # (`rajas serve --sheet-cache` sets its limit)


def checked_settings(settings: RoomSettings) -> tuple[Mapping[str, Any], Game, Components]:
    """A room's settings as it keeps them (the platform's, the game's id and the game's own options, checked by
    the game), its game and components. Refuses with `bad_settings`, naming the field."""
    plain = settings.model_dump(exclude={"game"}, exclude_unset=False)
    extra = settings.model_extra or {}
    platform = {k: v for k, v in plain.items() if k not in extra}
    try:
        game = game_of(settings.game)
    except KeyError:
        raise ProtocolError("bad_settings", f"game: one of {', '.join(sorted(GAMES))}") from None
    if not game.min_players <= settings.seats <= game.max_players:
        raise ProtocolError("bad_settings", f"seats: this game is for {game.min_players}-{game.max_players} players")
    offered(game, settings.bot, "bot")
    try:
        options = game.options(extra)
        components = COMPONENTS.get(game, options)
    except OptionsError as e:
        raise ProtocolError("bad_settings", str(e)) from None
    return freeze(platform | {"game": game.id} | options), game, components


def offered(game: Game, kind: str, field: str) -> None:
    """Refuses (`bad_settings`, naming `field`) a bot kind the game does not offer: the protocol checks only its
    shape, as each game names its own bots."""
    if kind not in game.bots:
        raise ProtocolError("bad_settings", f"{field}: one of {', '.join(game.bots)}")


def _stored_settings(d: Mapping[str, Any]) -> tuple[Mapping[str, Any], Game, Components]:
    """A stored room's settings, game and components (checked when the room was made or changed)."""
    game = game_of(d.get("game"))
    options = {k: v for k, v in d.items() if k in game.options_model.model_fields}
    return freeze(d), game, COMPONENTS.get(game, options)


class TurnUndo:
    """What the seat to move may take back: the state at the turn's last barrier (`base`; None when nothing can
    be taken back), the decisions made since, the refusal for taking back across the barrier, the undos made
    since it, and `shown`, the room version whose state these decisions made (a history is for that state only).
    Never changed once made."""

    __slots__ = ("_record", "base", "decisions", "refusal", "seat", "shown", "undos")

    def __init__(
        self,
        base: Any,
        decisions: tuple[Any, ...],
        seat: int | None,
        shown: int,
        refusal: str = UNDO_REFUSAL,
        undos: int = 0,
    ) -> None:
        self.base = base
        self.decisions = decisions
        self.seat = seat
        self.shown = shown
        self.refusal = refusal
        self.undos = undos
        self._record: dict[str, Any] | None = None  # the base as plain data, made once per barrier

    def to_record(self, game: Game) -> dict[str, Any]:
        if self._record is None:
            self._record = game.to_record(self.base) if self.base is not None else None
        return {
            "base": self._record,
            "decisions": [game.wire(d) for d in self.decisions],
            "seat": self.seat,
            "shown": self.shown,
            "refusal": self.refusal,
            "undos": self.undos,
        }

    @classmethod
    def from_record(cls, d: Mapping[str, Any] | None, game: Game, components: Components) -> TurnUndo | None:
        if d is None:
            return None
        base = game.from_record(d["base"], components) if d["base"] is not None else None
        made = cls(base, tuple(game.decision(w) for w in d["decisions"]), d["seat"], d["shown"], d["refusal"],
                   d["undos"])  # fmt: skip
        made._record = d["base"]
        return made


# Every field of a room (its __slots__, kept by name for `clone`).
FIELDS = (
    "auto",
    "began",
    "clock_key",
    "code",
    "components",
    "created",
    "deadline",
    "game",
    "host",
    "host_token",
    "match",
    "reminded",
    "seats",
    "seen",
    "settings",
    "shown",
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
    settings: Mapping[str, Any]  # the platform's settings, "game", and the game's own options
    game: Game
    components: Components
    status: str
    seats: tuple[Seat, ...]  # during play, index = the game's seat
    host: str | None  # seat id of the host
    host_token: str
    match: Mapping[str, Any] | None  # {"seed", "commitment"} from creation; at the start "start_player", ...
    state: Any  # the game's state, None before the start
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
    undo: TurnUndo | None  # what the player to move may take back this turn (server/rooms/undo.py)

    @classmethod
    def create(cls, settings: RoomSettings, now: float | None = None) -> Room:
        r = cls()
        r.code = codes.invite_code()
        r.watch = codes.invite_code()
        r.settings, r.game, r.components = checked_settings(settings)
        r.status = LOBBY
        r.seats = ()
        r.host = None
        r.host_token = codes.token()
        r.match = new_seed()  # committed before anyone joins, so no contribution can be answered by choosing it
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
        parts are read-only and replaced by the changes that change them."""
        r = Room.__new__(Room)
        for name in FIELDS:
            setattr(r, name, getattr(self, name))
        return r

    # ---- records --------------------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The stored form: `fixed()` and `changing()` in one map."""
        return self.fixed() | self.changing()

    def fixed(self) -> dict[str, Any]:
        """The fields a change replaces rarely (a custom sheet among them): stored apart, and written again only
        when one was replaced."""
        return {
            "code": self.code,
            "watch": self.watch,
            "settings": self.settings,
            "host_token": self.host_token,
            "match": self.match,
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
            "state": self.game.to_record(self.state) if self.state is not None else None,
            "undo": self.undo.to_record(self.game) if self.undo is not None else None,
        }

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> Room:
        r = cls()
        r.code = d["code"]
        r.watch = d["watch"]
        r.settings, r.game, r.components = _stored_settings(d["settings"])
        r.status = d["status"]
        r.seats = freeze_seats(d["seats"])
        r.host = d["host"]
        r.host_token = d["host_token"]
        r.match = freeze(d["match"])
        r.state = r.game.from_record(d["state"], r.components) if d["state"] is not None else None
        r.v = d["v"]
        r.shown = d["shown"]
        r.deadline = d["deadline"]
        r.clock_key = _turn(d["clock_key"])
        r.auto = _turn(d["auto"])
        began = d.get("began")
        r.began = (float(began[0]), int(began[1])) if began is not None else None
        r.reminded = _turn(d.get("reminded"))
        r.seen = freeze_seen(d["seen"])
        r.created = d["created"]
        r.updated = d["updated"]
        r.undo = TurnUndo.from_record(d.get("undo"), r.game, r.components)
        return r

    def fixed_changed(self, base: Room) -> bool:
        """Whether this change of `base` replaced a part of the fixed record."""
        return (
            self.settings is not base.settings or self.match is not base.match or self.host_token is not base.host_token
        )

    # ---- views ------------------------------------------------------------------------------------------

    def view(self, connected: Collection[str] | None = None, spectators: int = 0) -> dict[str, Any]:
        over = self.status == OVER
        return {
            "code": self.watch,  # the spectator code: the invite code goes only to players (create / join replies)
            "status": self.status,
            "settings": self.settings_view(),
            "bots": list(self.game.bots),  # (the page's bot menu: what the room's game offers)
            "seats": [
                {
                    "id": s["id"],
                    "name": s["name"],
                    "connected": s["id"] in (connected or ()),
                    "bot": s["bot"],
                    "contributed": "entropy" in s,
                    "bot_at": s.get("bot_at"),  # away: when the bot takes the seat (server time)
                    "left": bool(s.get("left")),  # the owner left the game (server/rooms/seat_moves.py)
                    "kind": s.get("kind"),
                    "ready": bool(s.get("ready")) or s.get("kind") is not None,  # (a bot is always ready)
                }
                for s in self.seats
            ],
            "host": self.host,
            "spectators": spectators,
            "commitment": self.match["commitment"] if self.match else None,
            "seed": self.match["seed"] if self.match and over else None,
            "deadline": self.deadline,
            "auto": self.auto,
            "series": series.view(self.seats, self.match, over),
            "turn_began": self.began[0] if self.began is not None and self.status == PLAYING else None,
        }

    def settings_view(self) -> dict[str, Any]:
        """The settings as clients see them: the game's options as the game shows them (a custom sheet by name)."""
        options = self.game.options_model.model_fields
        own = {k: v for k, v in self.settings.items() if k in options}
        return dict(self.settings) | self.game.options_view(own)

    def listing(self) -> dict[str, Any] | None:
        """The room's line in GET /api/rooms while it is a public room in the lobby, else None."""
        if self.status != LOBBY or not self.settings["public"]:
            return None
        # bounded: at most 5 seated names of at most name_max characters each, and the options as shown
        shown = self.settings_view()
        return {
            "code": self.code,
            "game": self.game.id,
            "seats": self.settings["seats"],
            "taken": len(self.seats),
            "names": [s["name"] for s in self.seats],
            "sheet": shown.get("sheet"),
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

    def to_move(self) -> int | None:
        """The seat that must decide now during play, else None."""
        if self.status != PLAYING or self.state is None:
            return None
        return self.game.to_move(self.state)

    def bot_to_move(self) -> int | None:
        """The seat the server must play for now: a bot-held seat, or one whose turn clock ran out."""
        seat = self.to_move()
        if seat is None:
            return None
        if not any(s.get("kind") is None and not s["bot"] for s in self.seats):
            return None  # no person holds a seat (every one a bot's, left or away): nobody to play for
        if self.seats[seat]["bot"] or (self.auto is not None and self.auto == self.clock_key):
            return seat
        return None

    def log(self, decisions: list[Any], via_watch: bool = False) -> dict[str, Any]:
        """The finished game's full log: enough to replay it and check every draw (`rajas verify`). Asked for by
        the spectator code, it names the room by that code, never the invite code."""
        assert self.match is not None
        options = self.game.options_model.model_fields
        return {
            "format": LOG_FORMAT,
            "game": self.game.id,
            "code": self.watch if via_watch else self.code,
            "players": [s["name"] for s in self.seats],
            "options": {k: v for k, v in self.settings.items() if k in options},
            "components_digest": self.components.digest,
            "commitment": self.match["commitment"],
            "seed": self.match["seed"] if self.status == OVER else None,
            "dice": self.match.get("dice"),  # the generator's construction (games/rng.py), whatever the game draws
            "contributions": self.match.get("contributions"),
            "start_player": self.match["start_player"],
            "start_rolls": self.match["rolls"],  # what the start drew for everyone to see
            "decisions": decisions,
            "result": self.game.result(self.state) if self.state is not None and self.status == OVER else None,
            "final_state": self.game.view(self.state, None)["state"] if self.state is not None else None,
        }

"""The messages the server sends, as models: the contract a client can rely on (docs/protocol.md).

The server builds its frames for speed (packed once, shared by every connection), so these models are not
on its path; the client library checks every frame it receives against them when asked (the tests always
ask), and docs/protocol.schema.json is generated from them together with the client's messages.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from .errors import ErrorCode
from .messages import BotKind, MessageId, Reaction


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Reply(_Msg):
    """The answer to exactly one client message: accepted (ok, maybe with data) or refused (code, message)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={  # the validator below, for readers of the JSON Schema
            "if": {"properties": {"ok": {"const": True}}},
            "then": {"properties": {"code": {"type": "null"}, "message": {"type": "null"}}},
            "else": {"required": ["code", "message"], "properties": {"data": {"type": "null"}}},
        },
    )

    type: Literal["reply"] = "reply"
    id: MessageId | None  # None only when the frame was too broken to carry an id
    ok: bool
    code: ErrorCode | None = None  # a refusal's code, never on an accepted message
    message: str | None = None  # a refusal's explanation, for people
    data: dict[str, Any] | None = None  # what an accepted message returns (docs/protocol.md, per message)

    @model_validator(mode="after")
    def _accepted_or_refused(self) -> Reply:
        if self.ok and (self.code is not None or self.message is not None):
            raise ValueError("an accepted reply carries no code and no message")
        if not self.ok and (self.code is None or self.message is None or self.data is not None):
            raise ValueError("a refusal carries a code and a message, and no data")
        return self


class SeatView(_Msg):
    id: str  # public seat id (not secret): how a client finds itself in the room
    name: str
    connected: bool
    bot: bool  # the bot plays this seat now (owner away past the grace period)
    contributed: bool  # the seat's player sent its dice contribution (lobby; docs/fairness.md)
    bot_at: float | None = None  # away: unix time (server clock) the bot takes the seat unless its player is back
    left: bool = False  # its player left the game (the bot plays it; see the room setting `takeover`)
    kind: BotKind | None = None  # a bot's seat (the host added it): which bot; None: a person's
    ready: bool = False  # "play again": set by the seat's player after a game or in the lobby, cleared at each start


class SeriesSeat(BaseModel):
    """A seat's line in the series table: its wins, and the sums its game keeps over the finished games (the Dice
    Charmers: `overlap` and `fame`)."""

    model_config = ConfigDict(extra="allow")

    id: str  # the seat's id
    name: str
    wins: int = Field(ge=0)  # games won, a shared win counting as a win for each winner (docs/rules-decisions.md)


class SeriesView(_Msg):
    """The room's games so far (rematch): the seats in the room now, with what they did in its finished games."""

    game: int = Field(ge=1)  # the number of the room's current (or last) game: 1 for the first
    played: int = Field(ge=0)  # finished games
    seats: list[SeriesSeat]


class RoomView(_Msg):
    code: str  # the spectator code: the invite code is only in the create_room reply and players' join replies
    status: Literal["lobby", "playing", "over"]
    settings: dict[str, Any]  # RoomSettings with `game` and the game's own settings as it shows them
    bots: list[BotKind] = Field(default_factory=list, max_length=16)  # the kinds of bot the room's game offers
    seats: list[SeatView]
    host: str | None  # seat id of the host, None while the host is not seated
    spectators: int = Field(ge=0)
    commitment: str | None  # sha256 of the dice seed, published when the room is created
    seed: str | None  # revealed when the game is over
    deadline: float | None  # unix time the turn clock runs out
    auto: list[int] | None  # [turn, seat]: the bot finishes this timed-out turn (the turn as the game counts it)
    series: SeriesView | None = None  # the series table (rematch)
    turn_began: float | None = None  # unix time the current turn began (while a game is in play)


class GameView(_Msg):
    """The game as one audience sees it (games/interface.py `Game.view`), and what the platform adds."""

    state: dict[str, Any]  # the game's state as this audience may see it (the Dice Charmers: all of it but the dice
    # generator; with `null` for each player an update leaves as it was)
    pending: dict[str, Any]  # who decides, in which phase, and (for the seat to move) with which options
    undo: int = Field(default=0, ge=0)  # decisions the player to move may take back now (0: none, or undo off)


class RecentUpdate(_Msg):
    """One of the room's last updates, as a snapshot repeats it for a reloaded page's game log."""

    v: int = Field(ge=1)
    time: float | None = None
    events: list[dict[str, Any]]


class ChatLine(_Msg):
    """One line of the room's chat, as the server made it: name and seat are the sender's own."""

    id: str  # unique per line: a line that comes both in a snapshot and on its own is shown once
    time: float  # unix seconds
    name: str  # the player's seat name, or the spectator's name ("" for a spectator who gave none)
    seat: str | None  # the player's seat id; None for a spectator
    text: str | None  # plain text (a client shows it as text, never as markup), or None for a reaction
    reaction: Reaction | None


class ChatView(_Msg):
    """The room's chat as a snapshot carries it: its last lines, oldest first, and whether spectators may write."""

    lines: list[ChatLine]
    spectators: bool


class ChatSaid(_Msg):
    """A new chat line, to everyone in the room (not versioned: chat is not part of the room's history)."""

    type: Literal["chat"] = "chat"
    line: ChatLine


class ChatRulesChanged(_Msg):
    """The host opened or closed the chat for spectators."""

    type: Literal["chat_rules"] = "chat_rules"
    spectators: bool


class Snapshot(_Msg):
    """The whole room at one version: after a join, when asked, or unasked after a node missed updates."""

    type: Literal["snapshot"] = "snapshot"
    v: int = Field(ge=0)
    room: RoomView
    game: GameView | None
    sheet: Any  # the game's components clients draw with (the Dice Charmers' sheet file); None when held already
    sheet_digest: str  # the components' digest
    recent: list[RecentUpdate] | None = None  # the last ~50 updates, oldest first
    chat: ChatView | None = None  # the room's chat


class Update(_Msg):
    """One committed change, broadcast to everyone in the room. Versions go up by one per update."""

    type: Literal["update"] = "update"
    v: int = Field(ge=1)
    time: float | None = None  # unix seconds of the commit
    events: list[dict[str, Any]]  # the engine's events and the room's own (docs/protocol.md)
    room: RoomView
    game: GameView | None


class Presence(_Msg):
    """Who is connected now. Not versioned: it is not part of the room's history."""

    type: Literal["presence"] = "presence"
    connected: list[str]  # seat ids with at least one open connection
    spectators: int = Field(ge=0)


class Notice(_Msg):
    """Something the server tells one connection outside any reply."""

    type: Literal["notice"] = "notice"
    # kicked: the host removed this connection's seat; seat_moved: the seat was opened on another device with
    # its token; seat_taken_over: someone took over the seat its player left. The connection is out of the room.
    code: Literal["kicked", "seat_moved", "seat_taken_over"]
    message: str


ServerMessage = Annotated[
    Reply | Snapshot | Update | Presence | Notice | ChatSaid | ChatRulesChanged, Field(discriminator="type")
]
SERVER_MESSAGE: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
SERVER_TYPES = ("reply", "snapshot", "update", "presence", "notice", "chat", "chat_rules")


def check_server_message(obj: Any) -> ServerMessage:
    """The frame as its model; raises pydantic's ValidationError when the protocol does not describe it."""
    return SERVER_MESSAGE.validate_python(obj)

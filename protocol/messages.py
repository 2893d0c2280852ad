"""The client's wire messages, validated with pydantic (the server's are in server_messages.py).

Every client message has `type` and `id` (the client's id for it); the server answers each one with a
`reply` carrying the same id. Game changes reach everyone as versioned `update`s; `snapshot` is the
whole picture at one version. See docs/protocol.md.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

PROTOCOL_VERSION = 1

MessageId = Annotated[str, Field(min_length=1, max_length=64)] | Annotated[int, Field(ge=0, lt=2**53)]
Name = Annotated[str, Field(min_length=1, max_length=32)]
Token = Annotated[str, Field(min_length=1, max_length=128)]
Hex256 = Annotated[str, Field(min_length=64, max_length=64, pattern=r"^[0-9a-f]{64}$")]  # 32 bytes, lowercase hex
Digest = Annotated[str, Field(min_length=1, max_length=64)]  # a sheet's digest (Snapshot.sheet_digest)
# A bot's kind: the room's game names its own (checked against `Game.bots` by the server), so only its shape is here.
BotKind = Annotated[str, Field(min_length=1, max_length=16, pattern=r"^[a-z][a-z0-9_]*$")]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _In(BaseModel):
    """What a client sends: strict, so `id: true` or `protocol: "1"` is refused rather than coerced (a client
    relying on coercion would break on the fast path, which takes exact types only)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class RoomSettings(_In):
    """The platform's settings of a room, its game, and that game's own settings beside them (the Dice Charmers'
    `sheet`), which the server has the game check (games/interface.py `Game.options`)."""

    model_config = ConfigDict(extra="allow", strict=True)

    game: str | None = Field(default=None, max_length=32)  # the game's id; None: the server's first game
    seats: int = Field(default=4, ge=2, le=5)
    spectators: bool = True
    turn_clock: float | None = Field(default=None, ge=0.05, le=3600)  # seconds per turn; None: no clock
    grace: float = Field(default=60.0, ge=0.05, le=86400)  # seconds a dropped seat waits before the bot plays it
    public: bool = False  # listed in GET /api/rooms
    bot: BotKind = "greedy"  # who plays absent or timed-out seats: one of the room's game's bots
    undo: bool = True  # a player may take back decisions of their own turn (docs/rules-decisions.md, "Undo")
    takeover: bool = False  # mid-game, the invite link offers a seat whose owner left the game (issue 17)
    # Turn-based play (docs/protocol.md, "Turn-based rooms"): a limit per turn in hours, and what happens after it.
    mode: Literal["live", "turns"] = "live"
    turn_limit: int = Field(default=24, ge=1, le=336)  # hours per turn in a turn-based room (1 h to 14 days)
    after_limit: Literal["bot", "skip"] = "bot"  # the bot plays the turn, or the turn is skipped


# ---- client -> server -------------------------------------------------------------------------------


class Hello(_In):
    type: Literal["hello"]
    id: MessageId
    protocol: int
    client: str | None = Field(default=None, max_length=64)


class CreateRoom(_In):
    type: Literal["create_room"]
    id: MessageId
    settings: RoomSettings = RoomSettings()


class Join(_In):
    """Take a seat (role player), watch (role spectator), or come back to a seat with its token."""

    type: Literal["join"]
    id: MessageId
    room: Annotated[str, Field(min_length=1, max_length=32)]  # the invite code or the spectator code
    role: Literal["player", "spectator"] = "player"
    name: Name | None = None
    token: Token | None = None  # seat token: reconnect to that seat
    host_token: Token | None = None
    sheet_digest: Digest | None = None  # the sheet the client holds: the snapshot leaves it out if it is the room's
    move: bool = False  # with `token`: the seat moves to this device (a new token; its other connections leave)
    seat: int | None = Field(default=None, ge=0, lt=5)  # mid-game, with `name`: take over this left seat


class Leave(_In):
    type: Literal["leave"]
    id: MessageId


class Kick(_In):
    type: Literal["kick"]
    id: MessageId
    seat: int = Field(ge=0, lt=5)


class Start(_In):
    type: Literal["start"]
    id: MessageId


class HandOver(_In):
    type: Literal["hand_over"]
    id: MessageId
    seat: int = Field(ge=0, lt=5)


class BotNow(_In):
    """The host hands an away seat (its owner's connection dropped) to the bot at once, during play."""

    type: Literal["bot_now"]
    id: MessageId
    seat: int = Field(ge=0, lt=5)


class ChangeSettings(_In):
    """The host changes the room's settings in the lobby (all of them at once, checked like create_room)."""

    type: Literal["settings"]
    id: MessageId
    settings: RoomSettings


class Decide(_In):
    type: Literal["decide"]
    id: MessageId
    decision: Any  # [kind, [args...], bonus]; parsed by the engine
    v: int | None = None  # the room version the decision was made at; a newer room refuses it (stale_version)


class Undo(_In):
    """The player to move takes back their last decision of this turn (docs/protocol.md, "Undo within the turn")."""

    type: Literal["undo"]
    id: MessageId
    v: int | None = None  # the room version the player saw; a newer room refuses it (stale_version)


class Contribute(_In):
    """A seated player's random value for the dice, sent in the lobby after seeing the room's commitment
    (docs/fairness.md): the dice come from the server's seed and every seat's value."""

    type: Literal["contribute"]
    id: MessageId
    commitment: Hex256  # the commitment the player saw: the server refuses another (bad_commitment)
    value: Hex256


class GetSnapshot(_In):
    type: Literal["snapshot"]
    id: MessageId
    sheet_digest: Digest | None = None  # as in Join


class Email(_In):
    """A seated player's e-mail address for turn notices in a turn-based room (None or "": forget it). Kept with
    the seat only, never shown to anyone."""

    type: Literal["email"]
    id: MessageId
    address: Annotated[str, Field(max_length=254)] | None = None


class Ping(_In):
    type: Literal["ping"]
    id: MessageId


# ---- chat (docs/protocol.md, Chat): not part of the room's versioned history -----------------------------

CHAT_MAX = 200  # characters of one chat line
Reaction = Literal["good_move", "oops", "dice", "well_played", "thinking"]  # quick reactions, shown in each language


class Chat(_In):
    """A line in the room's chat: its own text, or one of the quick reactions. Name and seat come from the
    connection, never from the message."""

    type: Literal["chat"]
    id: MessageId
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX)] | None = None
    reaction: Reaction | None = None

    @model_validator(mode="after")
    def _text_or_reaction(self) -> Chat:
        if (self.text is None) == (self.reaction is None):
            raise ValueError("a chat line is a text or a reaction")
        return self


class ChatRules(_In):
    """The host opens or closes the chat for spectators (in the lobby or during play)."""

    type: Literal["chat_rules"]
    id: MessageId
    spectators: bool
# ---- issue 17: rematch and bots in seats (docs/protocol.md "Rematch, series and bot seats") ----


class Ready(_In):
    """A seated player says "play again" (or takes it back): only their own seat's flag, in the lobby or after
    the game; every start clears all flags."""

    type: Literal["ready"]
    id: MessageId
    ready: bool = True


class Rematch(_In):
    """The host takes the finished game's room back to the lobby: same seats, codes, tokens, spectators and
    settings, a new dice seed and commitment; the series table goes on."""

    type: Literal["rematch"]
    id: MessageId


class AddBot(_In):
    """The host seats a bot (lobby only): one of the room's game's bots (games/interface.py `Game.bots`)."""

    type: Literal["add_bot"]
    id: MessageId
    kind: BotKind = "greedy"


class RemoveBot(_In):
    """The host removes a bot's seat (lobby only; a person's seat is removed with kick)."""

    type: Literal["remove_bot"]
    id: MessageId
    seat: int = Field(ge=0, lt=5)


ClientMessage = Annotated[
    Hello | CreateRoom | Join | Leave | Kick | Start | HandOver | ChangeSettings | Decide | GetSnapshot | Ping
    | Contribute | Undo | Chat | ChatRules | BotNow | Ready | Rematch | AddBot | RemoveBot | Email,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
CLIENT_TYPES = (
    "hello", "create_room", "join", "leave", "kick", "start", "hand_over", "settings", "decide", "snapshot", "ping",
    "contribute", "undo", "chat", "chat_rules", "bot_now", "ready", "rematch", "add_bot", "remove_bot", "email",
)

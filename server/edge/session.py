"""What the server does with each frame a client sends: decode, check, act, and reply to exactly that message.

Every refusal is a ProtocolError turned into a `reply` with ok=false; nothing is changed by a refused
message and the connection stays open unless refusals keep coming (then it is closed, code 1008).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from rajas.protocol import PROTOCOL_VERSION, ProtocolError, decode_obj, parse_message
from rajas.protocol.codec import check_size, plain_decide, raw_id
from rajas.protocol.messages import (
    AddBot,
    BotNow,
    ChangeSettings,
    Chat,
    ChatRules,
    Contribute,
    CreateRoom,
    Decide,
    Email,
    GetSnapshot,
    HandOver,
    Hello,
    Join,
    Kick,
    Leave,
    Ping,
    Ready,
    Rematch,
    RemoveBot,
    Start,
    Undo,
)
from rajas.server.edge.connection import Conn
from rajas.server.frames import Frame
from rajas.server.logs import Gate
from rajas.server.rooms import changes, chat, seat_moves, turn_rules
from rajas.server.rooms.hub import Hub
from rajas.server.rooms.lobby_changes import SeatReady
from rajas.server.rooms.room import LOBBY, Room
from rajas.server.rooms.undo import TakeBack
from rajas.server.turns.service import TurnService

log = logging.getLogger("rajas.server")
SNAPSHOT_COST = 10  # messages of the rate a snapshot takes: building one costs the node as much as ten decisions
INTERNAL_LOG = Gate(10.0)  # at most one traceback of a failed message per 10 s per node; the rest are counted


def store_fault(e: Exception) -> bool:
    """Whether a failure is the store's being away (a dropped connection, a timeout, redis-py's errors)."""
    return isinstance(e, OSError | TimeoutError) or type(e).__module__.startswith(("redis", "rajas.server.redis"))


class Session:
    def __init__(
        self,
        hub: Hub,
        turns: TurnService,
        conn: Conn,
        base_url: str,
        admit_room: Callable[[], None] | None = None,
    ) -> None:
        self.hub = hub
        self.turns = turns
        self.conn = conn
        self.base_url = base_url.rstrip("/")
        self.admit_room = admit_room  # counts a room against the limits of this client's address, or refuses
        self.chatter: chat.Chatter | None = None  # made at the first chat line or a spectator's join with a name
        self.spectator_name: str | None = None

    def reply(self, mid: str | int | None, data: dict[str, Any] | None = None) -> None:
        frame = self.conn.send({"type": "reply", "id": mid, "ok": True, "data": data})
        if mid is not None:
            self._remember(mid, frame)

    def refuse(self, mid: str | int | None, err: ProtocolError, strike: bool = True) -> None:
        self.hub.metrics.errors.inc(err.code)
        frame = self.conn.send({"type": "reply", "id": mid, "ok": False, "code": err.code, "message": err.message})
        if mid is not None and err.code != "internal":  # a server fault may pass: the same id tries again
            self._remember(mid, frame)
        if strike and self.conn.strike():
            self.conn.drop(1008, "too many refused messages")

    def _remember(self, mid: str | int, frame: Frame) -> None:
        replies = self.conn.replies
        replies[mid] = frame.packed if self.conn.binary else frame.text  # (what the client got)
        while len(replies) > self.conn.limits.dedupe:
            replies.popitem(last=False)

    async def handle(self, frame: bytes | str) -> None:
        conn = self.conn
        if conn.closed:  # nothing received after a close is carried out (it may have come in the same read)
            return
        conn.cork()  # (what this message causes for this client leaves in one write, at the end)
        try:
            if not conn.greeted:
                conn.binary = isinstance(frame, bytes)  # the hello's frame type is the format from then on
            mid: str | int | None = None
            started = time.perf_counter()
            metrics = self.hub.metrics
            metrics.messages.inc()
            try:
                obj = decode_obj(frame)
                mid = raw_id(obj)
                check_size(frame)
                if not conn.allow():
                    metrics.limit_refusals.inc("message_rate")
                    raise ProtocolError("rate_limited", "too many messages; slow down")
                if mid is not None and mid in conn.replies:
                    conn.push(Frame.sent(conn.replies[mid]))  # a resent message: same answer, applied once
                    return
                fast = plain_decide(obj) if conn.greeted else None
                data: dict[str, Any] | None
                if fast is not None:  # the most frequent message: straight to its handler
                    data = await self.play(*fast)
                    decided = True
                else:
                    msg = parse_message(obj)
                    data = await self.dispatch(msg)
                    decided = isinstance(msg, Decide)
                if decided and data is not None and not data.get("duplicate"):
                    metrics.decisions.inc("player")
                    metrics.latency.observe(time.perf_counter() - started)
            except ProtocolError as e:
                self.refuse(mid, e)
                return
            except Exception as e:
                # One traceback now and then, not one per message: a client can resend a failing message.
                if INTERNAL_LOG.allow():
                    log.exception("internal error handling a message", extra={"suppressed": INTERNAL_LOG.take()})
                # The store being away (Redis restarting) is nobody's fault and clients retry through it; any
                # other failure came of this message, and a message that keeps failing must not be resent
                # without end: it is a strike like every other refusal.
                self.refuse(mid, ProtocolError("internal", "the server failed on this message"), not store_fault(e))
                return
            self.reply(mid, data)
        finally:
            conn.uncork()

    async def dispatch(self, msg: Any) -> dict[str, Any] | None:
        if isinstance(msg, Hello):
            if msg.protocol != PROTOCOL_VERSION:
                raise ProtocolError("protocol_version", f"this server speaks protocol {PROTOCOL_VERSION}")
            self.conn.greeted = True
            return {"protocol": PROTOCOL_VERSION, "server": "rajas", "email": self.turns.mailer.enabled}
        if not self.conn.greeted:
            raise ProtocolError("protocol_version", f"say hello first (protocol {PROTOCOL_VERSION})")
        if isinstance(msg, Ping):
            return {"time": time.time()}
        if isinstance(msg, CreateRoom):
            if self.admit_room is not None:
                self.admit_room()
            room = await self.hub.create_room(msg.settings)
            return self.created(room)
        if isinstance(msg, Join):
            return await self.join(msg)
        if isinstance(msg, GetSnapshot):
            if not self.conn.take(SNAPSHOT_COST - 1):  # (the message itself took one)
                self.hub.metrics.limit_refusals.inc("message_rate")
                raise ProtocolError("rate_limited", "too many snapshots; slow down")
            code = self._room_code()
            lr = await self.hub.local(code)
            room = await self.hub.newest(code)
            self.conn.push(await self.hub.snapshot_frame(lr, room, msg.sheet_digest, self.conn))
            lr.held[self.conn.cid] = room.components.digest
            return {"v": room.v}
        if isinstance(msg, Decide):
            return await self.play(msg.id, msg.decision, msg.v)
        if isinstance(msg, Undo):
            return await self.undo(msg)
        if isinstance(msg, Leave):
            return await self.leave()
        if isinstance(msg, Contribute):
            return await self.contribute(msg)
        if isinstance(msg, Chat):
            if self.chatter is None:
                self.chatter = chat.Chatter(self.conn.limits.chat_per_minute, self.spectator_name)
            await chat.say(self.hub, self.conn, self.chatter, msg, self.conn.limits.chat_spectators_per_minute)
            return None
        if isinstance(msg, ChatRules):
            await chat.rules(self.hub, self.conn, self.conn.host_token, msg)
            return None
        if isinstance(msg, Email):
            return await self.email(msg)
        if isinstance(msg, Kick | Start | HandOver | ChangeSettings | AddBot | RemoveBot | Rematch):
            return await self.host_action(msg)
        if isinstance(msg, BotNow):
            return await self.bot_now(msg)
        if isinstance(msg, Ready):
            if self.conn.role != "player":
                raise ProtocolError("not_a_player", "spectators watch; they cannot act")
            await self.hub.change(self._room_code(), SeatReady(self.conn.token, msg.ready))
            return None
        raise ProtocolError("malformed_frame", "unknown message")

    def created(self, room: Room) -> dict[str, Any]:
        return {
            "code": room.code,
            "watch": room.watch,
            "host_token": room.host_token,
            "link": f"{self.base_url}/?room={room.code}",
            "watch_link": f"{self.base_url}/?watch={room.watch}",
        }

    def _room_code(self) -> str:
        if self.conn.code is None:
            raise ProtocolError("not_joined", "join a room first")
        return self.conn.code

    async def join(self, msg: Join) -> dict[str, Any]:
        code, via_watch = await self.hub.resolve(msg.room)
        room = await self.hub.newest(code)  # (a crowd joining reads the version, not the whole record, each time)
        role = "spectator" if via_watch else msg.role
        host_token = msg.host_token
        if host_token is not None and host_token != room.host_token:
            raise ProtocolError("bad_token", "this host token does not belong to this room")
        if msg.token is not None and not via_watch:
            seat = room.seat_of(msg.token)
            if seat is None:
                raise ProtocolError("bad_token", "this seat token does not belong to this room")
            seat_id = room.seats[seat]["id"]
            token: str | None = msg.token
            role = "player"
            if msg.move:  # opened on another device: the seat's token changes, its other connections leave
                moved = await self.hub.change(code, seat_moves.MoveSeat(seat_id))
                token = moved["token"] if moved else token
        elif role == "player":
            if msg.name is None:
                raise ProtocolError("malformed_frame", "name: a player joins with a display name")
            if room.status != LOBBY and msg.seat is None:
                raise ProtocolError("wrong_phase", "the game has started: join as a spectator")
            take = changes.TakeSeat(msg.name, host_token)
            got = await self.hub.change(code, take if msg.seat is None else seat_moves.TakeOver(msg.seat, msg.name))
            assert got is not None
            seat_id, token = got["id"], got["token"]
        else:
            if not room.settings["spectators"]:
                raise ProtocolError("spectators_not_allowed", "this room does not allow spectators")
            seat_id = token = None
        self.conn.host_token = host_token
        self.spectator_name = chat.plain(msg.name) or None if role == "spectator" and msg.name else None
        if self.chatter is not None:
            self.chatter.name = self.spectator_name
        room = await self.hub.attach(self.conn, code, role, token, seat_id, msg.sheet_digest)
        if role == "player" and seat_id is not None:
            seat = room.seat_index(seat_id)
            if seat is not None and seat_moves.needs_back(room.seats[seat]):
                await self.hub.change(code, seat_moves.Back(seat_id))  # the owner is back: the bot lets go
        # A spectator is never told the invite code (it would let them take a seat): their room is the watch code.
        return {"room": room.watch if role == "spectator" else code, "role": role, "seat_id": seat_id, "token": token,
                "v": room.v, "time": time.time()}  # (the server's clock: clients count down to `bot_at` with it)

    async def play(self, mid: str | int, wire: Any, at: int | None) -> dict[str, Any] | None:
        """A player's decision `wire`, id `mid`, made seeing version `at` (None: whatever is newest)."""
        code = self._room_code()
        if self.conn.role != "player":
            raise ProtocolError("not_a_player", "spectators watch; they cannot act")
        return await self.hub.change(code, changes.Play(self.conn.token, mid, wire, at, time.time()))

    async def undo(self, msg: Undo) -> dict[str, Any] | None:
        """The player to move takes back their last decision of this turn (server/undo.py)."""
        code = self._room_code()
        if self.conn.role != "player":
            raise ProtocolError("not_a_player", "spectators watch; they cannot act")
        data = await self.hub.change(code, TakeBack(self.conn.token, msg.id, msg.v, time.time()))
        if data is not None and not data.get("duplicate"):
            self.hub.metrics.undos.inc()
        return data

    async def contribute(self, msg: Contribute) -> dict[str, Any] | None:
        """A seated player's dice contribution (docs/fairness.md)."""
        code = self._room_code()
        if self.conn.role != "player":
            raise ProtocolError("not_a_player", "spectators watch; they cannot act")
        await self.hub.change(code, changes.Contribute(self.conn.token, msg.commitment, msg.value))
        return None

    async def email(self, msg: Email) -> dict[str, Any] | None:
        """A seated player's address for turn e-mails (server/turn_rules.py): kept with the seat, shown to nobody."""
        code = self._room_code()
        if self.conn.role != "player":
            raise ProtocolError("not_a_player", "spectators watch; they cannot act")
        if not self.turns.mailer.enabled:
            raise ProtocolError("email_unavailable", "this server sends no e-mail")
        await self.hub.change(code, turn_rules.SetEmail(self.conn.token, msg.address))
        return {"email": bool(msg.address and msg.address.strip())}

    async def leave(self) -> dict[str, Any] | None:
        code = self._room_code()
        seat_id = self.conn.seat_id if self.conn.role == "player" else None
        failure: BaseException | None = None
        try:
            if seat_id is not None:  # (first: mid-game the seat is left before it could be marked away)
                await self.hub.change(code, changes.LeaveSeat(seat_id))
        except BaseException as e:  # (no await in a finally: see RoomTasks._drive)
            failure = e
        await self.hub.detach(self.conn)
        if failure is not None:
            raise failure
        return None

    async def host_action(
        self, msg: Kick | Start | HandOver | ChangeSettings | AddBot | RemoveBot | Rematch
    ) -> dict[str, Any] | None:
        code = self._room_code()
        act = changes.HostAction(self.conn.host_token, self.conn.token, msg, time.time())
        result = await self.hub.change(code, act)
        if isinstance(msg, AddBot | RemoveBot | Rematch):
            self.hub.metrics.table.inc(msg.type)
        if isinstance(msg, HandOver):
            self.conn.host_token = None  # the old host token stopped working
        if isinstance(msg, ChangeSettings):
            await self.hub.store.set_public(code, msg.settings.public)
        return result

    async def bot_now(self, msg: BotNow) -> dict[str, Any] | None:
        """The host hands an away seat to the bot at once (its owner coming back takes it back)."""
        code = self._room_code()
        room = await self.hub.load(code)
        seat = room.seats[msg.seat] if 0 <= msg.seat < len(room.seats) else None
        lr = self.hub.rooms.get(code)
        connected = seat is not None and lr is not None and lr.counts.get(seat["id"], 0) > 0
        act = seat_moves.BotNow(msg.seat, connected, self.conn.host_token, self.conn.token)
        return await self.hub.change(code, act)

"""What the server does with each frame a client sends: decode, check, act, and reply to exactly that message.

Every refusal is a ProtocolError turned into a `reply` with ok=false; nothing is changed by a refused
message and the connection stays open unless refusals keep coming (then it is closed, code 1008).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from rajas.protocol import PROTOCOL_VERSION, ProtocolError, decode_obj, parse_message, unpack
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
from rajas.server.budget import CONNECTION, NOBODY, ROOM, SEAT, Held, Who
from rajas.server.edge.connection import Conn
from rajas.server.frames import Frame
from rajas.server.logs import Gate
from rajas.server.names import display_name
from rajas.server.room_budget import NodeBudgets, create_room
from rajas.server.rooms import changes, chat, seat_moves, series
from rajas.server.rooms.hub import Hub
from rajas.server.rooms.lobby_changes import SeatReady
from rajas.server.rooms.room import LOBBY, OVER, Room
from rajas.server.rooms.turn_rules import turn_based
from rajas.server.rooms.undo import TakeBack
from rajas.server.turns.service import TurnService

log = logging.getLogger("rajas.server")
SNAPSHOT_COST = 10  # messages of the rate a snapshot takes: building one costs the node as much as ten decisions
DEDUPE = 256  # replies remembered per connection, to answer a resent message id the same way
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
        who: Who = NOBODY,
        budgets: NodeBudgets | None = None,
    ) -> None:
        self.hub = hub
        self.turns = turns
        self.conn = conn
        self.base_url = base_url.rstrip("/")
        self.who = who  # the client's address and network, which its rooms, chat and e-mails are charged to
        self.budgets = budgets  # (None: nothing is charged, as for the node's own clients in a test)
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
        while len(replies) > DEDUPE:
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
            return self.created(await create_room(self.hub, self.budgets, self.who, msg.settings))
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
                self.chatter = chat.Chatter(self.spectator_name)
            self._charge_chat()
            await chat.say(self.hub, self.conn, self.chatter, msg)
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

    def _charge_chat(self) -> None:
        """A chat line is charged to its seat (one seat's sockets share it, however many), or to a spectator's
        connection and the room's spectators together (a spectator reconnecting in a loop gets a new connection's
        share, never more of the room's): each line goes to everyone in the room."""
        conn, budgets = self.conn, self.budgets
        if budgets is None or conn.code is None:
            return
        if conn.role == "player" and conn.seat_id is not None:
            budgets.ledger.charge("chat", {SEAT: f"{conn.code}/{conn.seat_id}"})
        else:
            budgets.ledger.charge("chat", {CONNECTION: str(conn.cid), ROOM: conn.code})

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
            name = display_name(msg.name) if msg.name is not None else ""
            if not name:
                raise ProtocolError("malformed_frame", "name: a player joins with a display name")
            if room.status != LOBBY and msg.seat is None:
                raise ProtocolError("wrong_phase", "the game has started: join as a spectator")
            take = changes.TakeSeat(name, host_token)
            got = await self.hub.change(code, take if msg.seat is None else seat_moves.TakeOver(msg.seat, name))
            assert got is not None
            seat_id, token = got["id"], got["token"]
        else:
            if not room.settings["spectators"]:
                raise ProtocolError("spectators_not_allowed", "this room does not allow spectators")
            seat_id = token = None
        self.conn.host_token = host_token
        self.spectator_name = display_name(msg.name) or None if role == "spectator" and msg.name else None
        if self.chatter is not None:
            self.chatter.name = self.spectator_name
        room = await self.hub.attach(self.conn, code, role, token, seat_id, msg.sheet_digest)
        if self.budgets is not None:
            self.budgets.rooms.joined(code)
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
        data = await self.hub.change(code, changes.Play(self.conn.token, mid, wire, at, time.time()))
        await self._acted(code)
        return data

    async def _acted(self, code: str) -> None:
        """A person acted in a turn-based game: its idle limit starts again (server/turns/service.py)."""
        lr = self.hub.rooms.get(code)
        if lr is not None and lr.room is not None and turn_based(lr.room.settings):
            await self.turns.acted(code)

    async def undo(self, msg: Undo) -> dict[str, Any] | None:
        """The player to move takes back their last decision of this turn (server/undo.py)."""
        code = self._room_code()
        if self.conn.role != "player":
            raise ProtocolError("not_a_player", "spectators watch; they cannot act")
        data = await self.hub.change(code, TakeBack(self.conn.token, msg.id, msg.v, time.time()))
        if data is not None and not data.get("duplicate"):
            self.hub.metrics.undos.inc()
            await self._acted(code)
        return data

    async def contribute(self, msg: Contribute) -> dict[str, Any] | None:
        """A seated player's dice contribution (docs/fairness.md)."""
        code = self._room_code()
        if self.conn.role != "player":
            raise ProtocolError("not_a_player", "spectators watch; they cannot act")
        await self.hub.change(code, changes.Contribute(self.conn.token, msg.commitment, msg.value))
        return None

    async def email(self, msg: Email) -> dict[str, Any] | None:
        """A seated player's address for turn e-mails (server/turns/consent.py): kept beside the room, shown to
        nobody, and written to only once its owner confirmed it from the first e-mail."""
        code = self._room_code()
        if self.conn.role != "player" or self.conn.seat_id is None:
            raise ProtocolError("not_a_player", "spectators watch; they cannot act")
        if not self.turns.mailer.enabled:
            raise ProtocolError("email_unavailable", "this server sends no e-mail")
        room = await self.hub.load(code)
        if not turn_based(room.settings):
            raise ProtocolError("email_unavailable", "e-mail notices are offered in turn-based rooms only")
        room.seat_for(self.conn.token)
        return await self.turns.set_email(room, self.conn.seat_id, msg.address, self.who, self.budgets)

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
        budgets = self.budgets
        held: Held | None = None
        listed: bool | None = None  # (whether the room was public, when this message may change it)
        if budgets is not None and isinstance(msg, Start | Rematch | ChangeSettings):
            room = await self.hub.load(code)
            if not room.is_host(self.conn.host_token, self.conn.token):
                raise ProtocolError("not_host", "only the host may do this")
            if isinstance(msg, Rematch) and room.status == OVER and series.number(room.match) >= budgets.games_per_room:
                budgets.rooms.metrics.limit_refusals.inc("games_per_room")
                raise ProtocolError("too_many_games", f"a room plays at most {budgets.games_per_room} games")
            if isinstance(msg, Start) and room.status == LOBBY and turn_based(room.settings):
                held = budgets.rooms.start_turns(code)  # (a game of weeks: charged for its whole life)
            if isinstance(msg, ChangeSettings) and room.status == LOBBY:
                listed = bool(room.settings["public"])
                budgets.rooms.listing(code, msg.settings.public)
        act = changes.HostAction(self.conn.host_token, self.conn.token, msg, time.time())
        try:
            result = await self.hub.change(code, act)
        except BaseException:
            if budgets is not None:
                if held is not None:
                    budgets.rooms.release(held)
                if listed is not None:
                    budgets.rooms.listing(code, listed)
            raise
        if held is not None and budgets is not None:
            budgets.rooms.turns_started(code, held)
            await self.turns.acted(code)
        if isinstance(msg, AddBot | RemoveBot | Rematch):
            self.hub.metrics.table.inc(msg.type)
        if isinstance(msg, Rematch):
            await self._forget_old_games(code)
        if isinstance(msg, HandOver):
            self.conn.host_token = None  # the old host token stopped working
        if isinstance(msg, ChangeSettings):
            await self.hub.store.set_public(code, msg.settings.public)
        return result

    async def _forget_old_games(self, code: str) -> None:
        """After a rematch the room's game log keeps the game just played (archived, or being archived now) and
        forgets the ones before it: a room's log holds at most two games, however long its series."""
        entries = [unpack(e) for e in await self.hub.store.log(code)]
        marks = [i for i, e in enumerate(entries) if isinstance(e, list) and len(e) == 2 and e[0] == series.GAME_MARK]
        if marks and marks[-1] > 0:
            await self.hub.store.trim_log(code, marks[-1])

    async def bot_now(self, msg: BotNow) -> dict[str, Any] | None:
        """The host hands an away seat to the bot at once (its owner coming back takes it back)."""
        code = self._room_code()
        room = await self.hub.load(code)
        seat = room.seats[msg.seat] if 0 <= msg.seat < len(room.seats) else None
        lr = self.hub.rooms.get(code)
        connected = seat is not None and lr is not None and lr.counts.get(seat["id"], 0) > 0
        act = seat_moves.BotNow(msg.seat, connected, self.conn.host_token, self.conn.token)
        return await self.hub.change(code, act)

"""Turn-based rooms, the I/O part: after each commit of such a room, its next due time goes into the turn index
(the store's `turns`) and, when a turn began, the room's life is extended and the player whose turn it is
gets an e-mail (if they gave an address, its owner confirmed it, and nobody is connected to their seat). Every
node sweeps the index: a reminder or a deadline that came due is committed as a change by whichever node gets
there first, so a timer outlives the node that armed it, and only the node that commits a change sends its e-mail.

A game is played for people: a turn-based game in which no person holds a seat any more stops at once, and in
one in which no person acted for RAJAS_TURN_IDLE_TURNS turn limits per person, each person's seat is taken to
have been left at its next deadline (so it stops too; the seat token brings its player back). A stopped game's
room goes like any quiet room. E-mail addresses and their owners' consent: server/turns/consent.py."""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import time
from dataclasses import dataclass
from typing import Any

from rajas.protocol import ProtocolError
from rajas.server.budget import NOBODY, SEAT, Who
from rajas.server.config import ServeSettings
from rajas.server.names import display_name
from rajas.server.room_budget import NodeBudgets
from rajas.server.rooms.changes import ExpireClock
from rajas.server.rooms.hub import Hub, LocalRoom, Observer
from rajas.server.rooms.room import LOBBY, OVER, PLAYING, Room
from rajas.server.rooms.seat_moves import LeaveGame
from rajas.server.rooms.tasks import RoomTasks
from rajas.server.rooms.turn_rules import Remind, Unit, check_email, limit_seconds, next_due, remind_at, turn_based
from rajas.server.storage.store import ASK
from rajas.server.turns.consent import CONFIRMED, REFUSED, Links, address_id
from rajas.server.turns.mail import Mailer
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

log = logging.getLogger("rajas.server")
DUE_BATCH = 50  # rooms one sweep handles at most (the rest wait for the next sweep)


NAME_IN_MAIL = 32  # characters of a player's name an e-mail quotes at most (plain text, normalised)
CONFIRM_PATH, UNSUBSCRIBE_PATH = "/email/confirm", "/email/unsubscribe"


@dataclass(frozen=True)
class TurnConfig:
    room_ttl: float = 30 * 86400.0  # seconds a turn-based room in play is kept after its last turn began
    unit: float = 3600.0  # seconds in an hour of a turn limit (tests only shorten it)
    smtp_url: str | None = None
    smtp_from: str | None = None
    public_url: str | None = None
    idle_turns: float = 1.0  # turn limits per person with no person acting before a game stops
    mail_per_address_day: int = 20
    mail_per_room_day: int = 60
    confirmations_per_day: int = 3
    mail_queue: int = 100

    @classmethod
    def from_settings(cls, s: ServeSettings) -> TurnConfig:
        return cls(
            s.turn_room_ttl, s.turn_unit, s.smtp_url, s.smtp_from, s.public_url, s.turn_idle_turns,
            s.mail_per_address_day, s.mail_per_room_day, s.confirmations_per_day, s.mail_queue,
        )  # fmt: skip

    @classmethod
    def from_env(cls) -> TurnConfig:
        return cls.from_settings(ServeSettings())


class TurnService(Observer):
    def __init__(
        self,
        rooms: Hub,
        tasks: RoomTasks,
        budgets: NodeBudgets | None = None,
        config: TurnConfig | None = None,
        sweep: float = 2.0,
    ) -> None:
        self.rooms = rooms
        self.index = rooms.store.turns
        self.every = sweep
        self.tasks = tasks  # the bot driver, for turns the bot or the skip owes
        self.budgets = budgets  # the rooms a client holds, e-mail changes (None: nothing is charged)
        self.consent = rooms.store.consent
        self.links = Links(self.consent)
        self._task: asyncio.Task[None] | None = None
        self._idle_rooms: dict[str, str] = {}  # rooms being stopped for idleness (their seats are being left)
        self.configure(config or TurnConfig.from_env())

    def configure(self, config: TurnConfig) -> None:
        self.config = config
        Unit.seconds = config.unit
        self.mailer = Mailer(config.smtp_url, config.smtp_from, config.public_url, queue=config.mail_queue)
        metrics = self.rooms.metrics
        self.mailer.refused = metrics.limit_refusals.inc
        metrics.extra = [c for c in metrics.extra if c.name != self.mailer.sent.name] + [self.mailer.sent]

    def start(self) -> None:
        self._task = self.rooms.spawn(self._sweep_forever())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.mailer.close()

    # ---- after a commit (on the node that made it) -------------------------------------------------------

    def committed(self, lr: LocalRoom, room: Room) -> None:
        if turn_based(room.settings) and room.status != LOBBY:
            self.rooms.spawn(self._after(room))

    async def _after(self, room: Room) -> None:
        index = self.index
        if index is None:
            return
        if room.status == OVER:
            await self._stop(room.code)  # a finished game's room goes like any quiet room
            return
        if not persons(room):
            # (the last person left, or was taken to have left for being idle: never played for nobody)
            await self._stop(room.code, self._idle_rooms.pop(room.code, "nobody"))
            return
        await index.schedule(room.code, next_due(room))
        if room.began is not None and room.began[1] == room.v:  # this commit began a turn
            await index.keep(room.code, self.config.room_ttl)
            if self.budgets is not None:
                self.budgets.rooms.turn_began(room.code)
            await self.notify(room, "turn")

    async def _stop(self, code: str, why: str | None = None) -> None:
        """The game needs no timer any more (over, or `why`: "nobody" holds a seat, or nobody acted: "idle"): out
        of the index, and its room goes like any quiet room."""
        assert self.index is not None
        await self.index.schedule(code, None)
        await self.index.keep(code, None)
        await self.index.forget_acted(code)
        if self.budgets is not None:
            self.budgets.rooms.turns_over(code)
        if why is not None:
            self.rooms.metrics.rooms_ended.inc(why)
            log.info("turn-based game stopped", extra={"event": "turns_stopped", "room": code, "why": why})

    async def _idle(self, code: str, room: Room) -> None:
        """No person acted for the game's idle limit: each person's seat is taken to have been left (the bot would
        play it; with no person seated nothing plays), and the game stops. Coming back with the seat token takes a
        seat back, as after any `leave`, and the game goes on."""
        self._idle_rooms[code] = "idle"
        for seat in room.seats:
            if seat.get("kind") is None and not seat["bot"]:
                await self.rooms.change(code, LeaveGame(seat["id"]))

    async def acted(self, code: str) -> None:
        """A person acted in the room's game (a decision, an undo, the start)."""
        if self.index is not None:
            await self.index.acted(code, time.time())

    def idle_limit(self, room: Room) -> float:
        """Seconds a game may go with no person acting: RAJAS_TURN_IDLE_TURNS turn limits per person seated."""
        persons = sum(1 for s in room.seats if s.get("kind") is None and not s.get("left"))
        return (limit_seconds(room.settings) or 0.0) * max(1, persons) * self.config.idle_turns

    async def notify(self, room: Room, kind: str) -> None:
        """E-mails the player whose turn it is, if they gave an address its owner confirmed, nobody is at their
        seat now, and neither the address nor the room has had its e-mails for today."""
        to_move = room.to_move()
        if not self.mailer.enabled or self.consent is None or to_move is None:
            return
        seat = room.seats[to_move]
        if seat["bot"]:
            return
        address = await self.consent.address(room.code, seat["id"])
        if not address:
            return
        aid = address_id(address)
        if await self.consent.state(aid) != CONFIRMED:
            self.mailer.sent.inc("unconfirmed")
            return
        counts = await self.rooms.store.presence(room.code, ASK, 0)  # (every node's connections, not just ours)
        if counts.get(seat["id"], 0) > 0:
            return
        if not await self._within(aid, room.code):
            return
        link = self.mailer.link(room.code, seat["token"])
        hours = room.settings["turn_limit"]
        name = display_name(str(seat["name"]))[:NAME_IN_MAIL]
        if kind == "turn":
            subject = f"Rajas: your turn in room {room.code}"
            body = f"It is your turn, {name}. You have {hours} h.\n\nPlay: {link}\n"
        else:
            subject = f"Rajas: your turn in room {room.code} runs out soon"
            body = f"{name}, your turn's time limit of {hours} h runs out soon.\n\nPlay: {link}\n"
        await self._send(room.code, address, aid, subject, body)

    async def _within(self, aid: str, code: str) -> bool:
        """Counts one turn e-mail against the address's and the room's day; False (not sent) past either."""
        assert self.consent is not None
        config, refused = self.config, self.rooms.metrics.limit_refusals
        if await self.consent.count("address", aid) > config.mail_per_address_day:
            refused.inc("mail_per_address")
            self.mailer.sent.inc("capped")
            return False
        if await self.consent.count("room", code) > config.mail_per_room_day:
            refused.inc("mail_per_room")
            self.mailer.sent.inc("capped")
            return False
        return True

    async def _send(self, code: str, address: str, aid: str, subject: str, body: str) -> None:
        assert self.links is not None
        unsubscribe = self.mailer.page(UNSUBSCRIBE_PATH, await self.links.unsubscribe(aid))
        self.mailer.send(code, address, subject, body, unsubscribe)

    # ---- a seat's address ----------------------------------------------------------------------------------

    async def set_email(
        self, room: Room, seat_id: str, address: str | None, who: Who = NOBODY, budgets: NodeBudgets | None = None
    ) -> dict[str, Any]:
        """A seated player gives (or forgets, with None or "") their address. It is kept beside the room, never in
        its record (no commit, no update to anyone); a new address gets the confirmation e-mail first."""
        if self.consent is None:
            raise ProtocolError("email_unavailable", "this server sends no e-mail")
        kept = check_email(address)
        if budgets is not None:  # (each change costs the seat and its client's address: no set/unset loops)
            budgets.ledger.charge("email_changes", {SEAT: f"{room.code}/{seat_id}", **who.keys()})
        if kept is None:
            await self.consent.set_address(room.code, seat_id, None, 0)
            return {"email": False, "confirmed": False}
        aid = address_id(kept)
        state = await self.consent.state(aid)
        if state is None and budgets is not None:
            budgets.ledger.charge("confirmations", who.keys())  # (before anything is kept: refused, nothing is)
        await self.consent.set_address(room.code, seat_id, kept, self.config.room_ttl)
        if state is None:
            await self._ask(room, seat_id, kept, aid)
        return {"email": True, "confirmed": state == CONFIRMED}

    async def _ask(self, room: Room, seat_id: str, address: str, aid: str) -> None:
        """The first e-mail to an address: who asked, the link that confirms it, and the one that refuses all mail
        from this server. At most RAJAS_CONFIRMATIONS_PER_DAY a day to one address."""
        assert self.consent is not None and self.links is not None
        if await self.consent.count("confirm", aid) > self.config.confirmations_per_day:
            self.rooms.metrics.limit_refusals.inc("confirmations_per_recipient")
            self.mailer.sent.inc("capped")
            return
        seat = room.seats[room.seat_index(seat_id) or 0]
        name = display_name(str(seat["name"]))[:NAME_IN_MAIL]
        confirm = self.mailer.page(CONFIRM_PATH, await self.links.confirm(aid))
        server = self.mailer.public_url
        body = (
            f"A player calling themselves \"{name}\" in a turn-based game of Rajas of the Ganges on {server} "
            f"(room {room.watch}) asked to be e-mailed at this address when their turn begins.\n\n"
            f"If that was you, confirm the address: {confirm}\n\n"
            "If it was not, do nothing: this server sends nothing more to this address unless it is confirmed. "
            "To refuse every e-mail from this server, now and later, use the link below."
        )
        await self._send(room.code, address, aid, "Rajas: confirm your address for turn e-mails", body)

    # ---- the e-mail pages: confirm an address, refuse all mail ------------------------------------------

    def routes(self) -> list[Route]:
        return [
            Route(CONFIRM_PATH, self._confirm_page, methods=["GET", "POST"]),
            Route(UNSUBSCRIBE_PATH, self._unsubscribe_page, methods=["GET", "POST"]),
        ]

    async def _confirm_page(self, request: Request) -> Response:
        return await self._page(request, "confirm", CONFIRMED, "Confirm this address for turn e-mails",
                                "Confirmed: this address gets turn e-mails from this server.")  # fmt: skip

    async def _unsubscribe_page(self, request: Request) -> Response:
        return await self._page(request, "unsubscribe", REFUSED, "Refuse every e-mail from this server",
                                "Done: this server sends nothing more to this address.")  # fmt: skip

    async def _page(self, request: Request, kind: str, state: str, ask: str, done: str) -> Response:
        """GET shows a button (a link scanner that opens the link changes nothing); POST does it (also the one-click
        unsubscribe of a mail program, RFC 8058)."""
        token = request.query_params.get("t", "")
        aid = await self.links.read(kind, token) if self.links is not None and len(token) <= 128 else None
        if aid is None:
            return _html("This link is not valid (it may have expired).", status=404)
        if request.method == "GET":
            form = (f'<form method="post" action="?t={html.escape(token)}">'
                    f'<button type="submit">{html.escape(ask)}</button></form>')  # fmt: skip
            return _html(form)
        assert self.consent is not None
        if state == CONFIRMED and await self.consent.state(aid) == REFUSED:
            return _html("This address refused every e-mail from this server.")  # (a refusal is not undone here)
        await self.consent.set_state(aid, state)
        return _html(html.escape(done))

    # ---- the sweep (every node) ----------------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(min(self.every, Unit.seconds / 16))
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the store is away: the index is read again next time
                self.rooms.metrics.store_errors.inc()
                log.warning("turn sweep: %s", type(e).__name__, extra={"event": "turn_sweep_failed"})

    async def sweep(self) -> None:
        if self.index is None:
            return
        for code in await self.index.due(time.time(), DUE_BATCH):
            await self._due(code)

    async def _due(self, code: str) -> None:
        assert self.index is not None
        rooms = self.rooms
        try:
            room = await rooms.load(code, fresh=True)
        except ProtocolError:  # gone (expired)
            await self.index.schedule(code, None)
            return
        now = time.time()
        if not turn_based(room.settings) or room.status != PLAYING:
            await self.index.schedule(code, None)
            return
        if not persons(room):
            await self._stop(code, "nobody")  # (no person holds a seat: the game is never played for nobody)
            return
        acted = await self.index.last_acted(code)
        if acted is None:
            await self.index.acted(code, now)  # (a game from before this was kept: its limit starts now)
        elif room.deadline is not None and now >= room.deadline and now - acted > self.idle_limit(room):
            await self._idle(code, room)
            return
        key = room.clock_key
        remind = remind_at(room)
        lr = await rooms.local(code)
        try:
            if room.auto == key:  # the bot or the skip owes this turn: make sure someone plays it
                if not lr.driving:
                    self.tasks.drive(lr)
                await self.index.schedule(code, now + max(self.every, 1.0))
                return
            if room.deadline is not None and now >= room.deadline:
                await rooms.change(code, ExpireClock(key))  # (the bot or the skip plays it: room_tasks)
            elif remind is not None and now >= remind:
                if await rooms.change(code, Remind(key)) is not None:  # committed here: this node sends it
                    await self.notify(await rooms.load(code), "reminder")
            else:
                await self.index.schedule(code, next_due(room))  # (an entry left early by a node that died)
                return
            room = await rooms.load(code)
            await self.index.schedule(code, next_due(room))
        finally:
            await rooms.release(lr)


def persons(room: Room) -> bool:
    """Whether a person holds a seat: one that is not a bot's, and whose player has not left (nor is played by
    the bot for being away): Room.bot_to_move plays for nobody else either."""
    return any(s.get("kind") is None and not s["bot"] for s in room.seats)


def _html(body: str, status: int = 200) -> HTMLResponse:
    page = (
        '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="robots" content="noindex">'
        f"<title>Rajas e-mail</title><body><p>{body}</p></body></html>"
    )
    return HTMLResponse(page, status_code=status, headers={"cache-control": "no-store"})

"""A small asyncio client for the game server, used by bots, tests and benchmarks.

It keeps a mirror of the room: the newest snapshot plus every update after it. A gap in versions
(a lost update) makes it ask for a fresh snapshot, as the protocol asks clients to.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import secrets
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError
from websockets.asyncio.client import ClientConnection, connect

from .codec import pack, unpack
from .messages import PROTOCOL_VERSION
from .server_messages import check_server_message

# Check every received frame against the protocol's models (server_messages.py). Off by default (it costs
# a validation per frame); the test suite turns it on (tests/conftest.py), so every test that plays through
# this client also checks the server keeps the contract.
CHECK_FRAMES = False
FAILED_CHECKS: list[str] = []  # what the checks found, for the test suite to fail on (the first 20)


class InvalidFrame(Exception):
    """The server sent a frame the protocol's models do not describe (only with frame checks on)."""


class ServerError(Exception):
    """The server refused a message: `code` is one of the protocol's error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def ws_url(url: str) -> str:
    """http://host:port (or ws://host:port/ws) -> the websocket endpoint."""
    if url.startswith("http"):
        url = "ws" + url[4:]
    return url if url.rstrip("/").endswith("/ws") else url.rstrip("/") + "/ws"


class Client:
    def __init__(self, url: str, binary: bool = True, keep: bool = True, check: bool | None = None) -> None:
        self.url = ws_url(url)
        self.binary = binary
        self.check = CHECK_FRAMES if check is None else check  # validate every received frame
        self.invalid: InvalidFrame | None = None  # the first frame that failed the check: reading stopped there
        self.keep = keep  # keep every received message in `received` (tests look at them)
        self.ws: ClientConnection | None = None
        # Ids unique across this seat's connections (tabs), since the server remembers them per seat.
        self._prefix = secrets.token_hex(4)
        self._ids = itertools.count(1)
        self._waiting: dict[str | int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self.received: list[dict[str, Any]] = []
        self.v = 0
        self.room: dict[str, Any] | None = None
        self.game: dict[str, Any] | None = None
        self.sheet: dict[str, Any] | None = None
        self.sheet_digest: str | None = None  # the digest of `sheet`: told to the server, which then leaves it out
        self.events: list[dict[str, Any]] = []  # every game and room event seen, in order
        self.presence: dict[str, Any] | None = None
        self.chat: list[dict[str, Any]] = []  # the room's chat lines, oldest first, each once
        self.chat_spectators: bool | None = None  # whether spectators may write (None: not told yet)
        self.seat_id: str | None = None
        self.token: str | None = None
        self.role: str | None = None
        self.code: str | None = None
        self.gaps = 0
        self._tasks: set[asyncio.Future[None]] = set()
        self.closed = asyncio.Event()

    # ---- connection ---------------------------------------------------------------------------------------

    async def connect(self) -> Client:
        self.ws = await connect(self.url, compression=None, max_size=2**22, open_timeout=10)
        self._reader = asyncio.create_task(self._read())
        await self.request("hello", protocol=PROTOCOL_VERSION, client="rajas-client")
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    async def __aenter__(self) -> Client:
        return await self.connect()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def send_raw(self, frame: bytes | str) -> None:
        assert self.ws is not None
        await self.ws.send(frame)

    def next_id(self) -> str:
        return f"{self._prefix}-{next(self._ids)}"

    async def request(self, type: str, *, id: str | int | None = None, timeout: float = 30.0, **fields: Any) -> Any:
        """Sends one message and waits for its reply; returns the reply's data or raises ServerError."""
        mid = self.next_id() if id is None else id
        obj = {"type": type, "id": mid, **fields}
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[mid] = fut
        try:
            await self.send_raw(pack(obj) if self.binary else json.dumps(obj))
            reply = await asyncio.wait_for(fut, timeout)
        finally:
            self._waiting.pop(mid, None)
        if not reply["ok"]:
            raise ServerError(reply["code"], reply["message"])
        return reply.get("data")

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for frame in self.ws:
                msg = unpack(frame) if isinstance(frame, bytes) else json.loads(frame)
                if self.check:
                    self._check(msg)
                self._on(msg)
        except Exception:  # connection closed (or a frame failed the check): whoever waits sees `closed`
            pass
        finally:
            self.closed.set()
            for fut in self._waiting.values():
                if not fut.done():
                    fut.set_exception(self.invalid or ConnectionError("connection closed"))
            self._pulse()

    def _check(self, msg: Any) -> None:
        try:
            check_server_message(msg)
        except ValidationError as e:
            self.invalid = InvalidFrame(f"the server sent a frame the protocol does not describe: {e}\n{msg!r:.800}")
            if len(FAILED_CHECKS) < 20:
                FAILED_CHECKS.append(str(self.invalid))
            raise self.invalid from None

    def _pulse(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _on(self, msg: dict[str, Any]) -> None:
        if self.keep:
            self.received.append(msg)
        kind = msg.get("type")
        if kind == "reply":
            fut = self._waiting.get(msg["id"])
            if fut is not None and not fut.done():
                fut.set_result(msg)
        elif kind == "snapshot":
            if msg.get("sheet") is not None:
                self.sheet, self.sheet_digest = msg["sheet"], msg.get("sheet_digest")
            elif msg.get("sheet_digest") != self.sheet_digest:  # (never: it is left out only when we hold it)
                self.sheet = self.sheet_digest = None
            if msg["v"] >= self.v:
                self.v, self.room, self.game = msg["v"], msg["room"], msg["game"]
            if msg.get("chat") is not None:
                self._chat_lines(msg["chat"]["lines"])
                self.chat_spectators = msg["chat"]["spectators"]
        elif kind == "update":
            if msg["v"] <= self.v:
                return  # already in the snapshot
            if msg["v"] != self.v + 1:
                self.gaps += 1
                self._tasks.add(task := asyncio.ensure_future(self._resync()))
                task.add_done_callback(self._tasks.discard)
                return
            self.v, self.room, self.game = msg["v"], msg["room"], with_players(msg["game"], self.game)
            self.events.extend(msg["events"])
        elif kind == "presence":
            self.presence = msg
        elif kind == "chat":
            self._chat_lines([msg["line"]])
        elif kind == "chat_rules":
            self.chat_spectators = msg["spectators"]
        self._pulse()

    def _chat_lines(self, lines: list[dict[str, Any]]) -> None:
        seen = {line["id"] for line in self.chat}
        self.chat.extend(line for line in lines if line["id"] not in seen)

    async def _resync(self) -> None:
        with contextlib.suppress(Exception):
            await self.snapshot()

    async def wait_for(self, predicate: Callable[[Client], bool], timeout: float = 10.0) -> None:
        async def wait() -> None:
            while not predicate(self):
                if self.closed.is_set():
                    raise self.invalid or ConnectionError("connection closed")
                await self._changed.wait()

        await asyncio.wait_for(wait(), timeout)

    # ---- messages -----------------------------------------------------------------------------------------

    async def create_room(self, **settings: Any) -> dict[str, Any]:
        data: dict[str, Any] = await self.request("create_room", settings=settings)
        return data

    async def join(
        self,
        room: str,
        name: str | None = None,
        role: str = "player",
        token: str | None = None,
        host_token: str | None = None,
        move: bool = False,
        seat: int | None = None,
    ) -> dict[str, Any]:
        """`move`: with `token`, the seat moves to this client; `seat`: mid-game, take over this left seat."""
        fields: dict[str, Any] = {"room": room, "role": role}
        held = self.sheet_digest
        for key, value in (("name", name), ("token", token), ("host_token", host_token), ("sheet_digest", held),
                           ("seat", seat), ("move", move or None)):
            if value is not None:
                fields[key] = value
        data: dict[str, Any] = await self.request("join", **fields)
        self.code, self.role, self.seat_id, self.token = data["room"], data["role"], data["seat_id"], data["token"]
        return data

    async def start(self) -> Any:
        return await self.request("start")

    async def contribute(self, value: str, commitment: str | None = None) -> Any:
        """Sends this seat's dice contribution (64 hex digits) against the room's commitment as last seen."""
        seen = commitment if commitment is not None else (self.room or {}).get("commitment")
        return await self.request("contribute", commitment=seen, value=value)

    async def kick(self, seat: int) -> Any:
        return await self.request("kick", seat=seat)

    async def hand_over(self, seat: int) -> Any:
        return await self.request("hand_over", seat=seat)

    async def bot_now(self, seat: int) -> Any:
        """(The host) hands the away seat `seat` to the bot at once."""
        return await self.request("bot_now", seat=seat)

    async def change_settings(self, **settings: Any) -> Any:
        return await self.request("settings", settings=settings)

    async def ready(self, on: bool = True) -> Any:
        return await self.request("ready", ready=on)

    async def rematch(self) -> Any:
        return await self.request("rematch")

    async def add_bot(self, kind: str = "greedy") -> Any:
        return await self.request("add_bot", kind=kind)

    async def remove_bot(self, seat: int) -> Any:
        return await self.request("remove_bot", seat=seat)

    async def leave(self) -> Any:
        return await self.request("leave")

    async def decide(self, decision: Any, v: int | None = None, id: str | int | None = None) -> Any:
        fields: dict[str, Any] = {"decision": decision}
        if v is not None:
            fields["v"] = v
        return await self.request("decide", id=id, **fields)

    async def undo(self, v: int | None = None, id: str | int | None = None) -> Any:
        """Takes back this player's last decision of the turn (docs/protocol.md, "Undo within the turn")."""
        return await self.request("undo", id=id, **({"v": v} if v is not None else {}))
    async def say(self, text: str | None = None, reaction: str | None = None) -> Any:
        """A chat line: text, or one of the quick reactions."""
        return await self.request("chat", **({"text": text} if reaction is None else {"reaction": reaction}))

    async def chat_rules(self, spectators: bool) -> Any:
        return await self.request("chat_rules", spectators=spectators)

    async def snapshot(self) -> Any:
        """Asks for a snapshot; the sheet comes with it only when it is not the one this client holds."""
        if self.sheet_digest is None:
            return await self.request("snapshot")
        return await self.request("snapshot", sheet_digest=self.sheet_digest)

    # ---- the mirror ---------------------------------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        """My seat index in the room now (None for spectators)."""
        if self.room is None or self.seat_id is None:
            return None
        for i, s in enumerate(self.room["seats"]):
            if s["id"] == self.seat_id:
                return i
        return None

    @property
    def pending(self) -> dict[str, Any] | None:
        return self.game["pending"] if self.game else None

    @property
    def my_turn(self) -> bool:
        p = self.pending
        return p is not None and p["player"] is not None and p["player"] == self.seat

    @property
    def over(self) -> bool:
        return self.room is not None and self.room["status"] == "over"


def with_players(game: Any, before: Any) -> Any:
    """An update's game view with its players whole: an update names only the players whose sheets changed
    (None for the others, who are as in the version before, which the client holds)."""
    players = game["state"].get("players") if game and game.get("state") else None
    if not isinstance(players, list) or None not in players:
        return game
    was = before["state"]["players"] if before and before.get("state") else []
    game["state"]["players"] = [p if p is not None else was[i] for i, p in enumerate(players)]
    return game

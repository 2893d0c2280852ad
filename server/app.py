"""The Starlette app: one websocket endpoint, a few HTTP routes, and the web client as static files."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import rajas.client_web
from pydantic import ValidationError
from rajas.protocol import ProtocolError, RoomSettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .connection import Conn, Limits
from .hub import Hub
from .room import LOBBY
from .session import Session
from .store import RoomStore

log = logging.getLogger("rajas.server")
CLIENT_DIR = Path(rajas.client_web.__file__).parent


def _base_url(scope_url: Any) -> str:
    scheme = {"ws": "http", "wss": "https"}.get(scope_url.scheme, scope_url.scheme)
    return f"{scheme}://{scope_url.netloc}"


def _error(err: ProtocolError) -> JSONResponse:
    status = {"room_not_found": 404, "wrong_phase": 409, "internal": 500}.get(err.code, 400)
    return JSONResponse({"ok": False, "code": err.code, "message": err.message}, status_code=status)


def create_app(store: RoomStore, limits: Limits | None = None) -> Starlette:
    limits = limits or Limits()
    hub = Hub(store)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.start()
        try:
            yield
        finally:
            await hub.close()
            await store.close()

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "rooms_here": len(hub.rooms)})

    async def create_room(request: Request) -> Response:
        try:
            body = await request.body()
            settings = RoomSettings.model_validate_json(body or b"{}")
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "settings"
            return _error(ProtocolError("bad_settings", f"{where}: {first['msg']}"))
        try:
            room = await hub.create_room(settings)
        except ProtocolError as e:
            return _error(e)
        session = Session(hub, Conn(_noop_bytes, _noop_text, _noop_close, limits), _base_url(request.url))
        return JSONResponse(session.created(room), status_code=201)

    async def room_info(request: Request) -> Response:
        try:
            code, _ = await hub.resolve(request.path_params["code"])
            room = await hub.load(code, fresh=True)
        except ProtocolError as e:
            return _error(e)
        lr = hub.rooms.get(code)
        connected = hub._connected(lr) if lr else []
        return JSONResponse(room.view(set(connected), lr.counts.get("~spectators", 0) if lr else 0) | {"v": room.v})

    async def room_list(request: Request) -> Response:
        rooms = []
        for code in await store.public_rooms():
            with contextlib.suppress(ProtocolError):
                room = await hub.load(code, fresh=True)
                if room.status == LOBBY:
                    rooms.append({"code": code, "seats": room.settings["seats"], "taken": len(room.seats)})
        return JSONResponse({"rooms": rooms})

    async def game_log(request: Request) -> Response:
        try:
            code, _ = await hub.resolve(request.path_params["code"])
            return JSONResponse(await hub.game_log(code))
        except ProtocolError as e:
            return _error(e)

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()

        async def close(code: int, reason: str) -> None:
            await ws.close(code, reason)

        conn = Conn(ws.send_bytes, ws.send_text, close, limits)
        session = Session(hub, conn, _base_url(ws.url))
        writer = hub._spawn(conn.writer())
        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                frame = message.get("bytes")
                if frame is None:
                    frame = message.get("text")
                if frame is None:
                    continue
                await session.handle(frame)
        except WebSocketDisconnect:
            pass
        finally:
            conn.closed = True
            if conn.close_reason is None:
                conn.drop(1000, "bye")
            await hub.detach(conn)
            with contextlib.suppress(Exception):
                await writer

    routes = [
        Route("/health", health),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", room_list, methods=["GET"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/rooms/{code}/log", game_log),
        WebSocketRoute("/ws", websocket),
        Mount("/", StaticFiles(directory=CLIENT_DIR, html=True, check_dir=False), name="client"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app


async def _noop_bytes(data: bytes) -> None:
    return None


async def _noop_text(data: str) -> None:
    return None


async def _noop_close(code: int, reason: str) -> None:
    return None

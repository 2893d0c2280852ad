"""The Starlette app: one websocket endpoint, a few HTTP routes, and the web client as static files."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import rajas.client_web
from pydantic import ValidationError
from rajas.protocol import ProtocolError, RoomSettings
from rajas.server.budget import Ledger, Refusal, Who
from rajas.server.config import ServeSettings
from rajas.server.edge import forwarded
from rajas.server.edge.connection import Conn
from rajas.server.edge.forwarded import Addresses
from rajas.server.edge.session import Session
from rajas.server.edge.static import ClientFiles
from rajas.server.edge.transport import Link, Socket
from rajas.server.edge.web import read_body
from rajas.server.history.routes import game_routes
from rajas.server.history.service import History
from rajas.server.logs import RateFilter
from rajas.server.metrics import Metrics
from rajas.server.room_budget import NodeBudgets, RoomBudget, create_room
from rajas.server.rooms.hub import Hub
from rajas.server.rooms.room import COMPONENTS, PLAYING
from rajas.server.rooms.tasks import RoomTasks, Watchdog
from rajas.server.storage.archive import HistorySettings
from rajas.server.storage.store import SPECTATORS, RoomStore, connected_seats
from rajas.server.turns.service import TurnService
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

log = logging.getLogger("rajas.server")
CLIENT_DIR = Path(rajas.client_web.__file__).parent


def _base_url(scope_url: Any) -> str:
    scheme = {"ws": "http", "wss": "https"}.get(scope_url.scheme, scope_url.scheme)
    return f"{scheme}://{scope_url.netloc}"


STATUS = {
    "room_not_found": 404,
    "wrong_phase": 409,
    "too_large": 413,
    "too_many_rooms": 429,
    "too_many_listed": 429,
    "too_many_connections": 429,
    "rate_limited": 429,
    "server_full": 503,
    "request_timeout": 408,
    "internal": 500,
}


async def _internal(request: Request, exc: Exception) -> JSONResponse:
    """A route that failed (the store away, most often) answers in JSON like every other answer of /api, so a page
    can say so; 503 when the store could not be reached, as that passes by itself."""
    away = isinstance(exc, (OSError, TimeoutError)) or type(exc).__module__.startswith("redis")
    message = "the rooms' store cannot be reached: try again in a moment" if away else "the server failed to answer"
    return JSONResponse({"ok": False, "code": "internal", "message": message}, status_code=503 if away else 500)


def _error(err: ProtocolError) -> JSONResponse:
    return JSONResponse({"ok": False, "code": err.code, "message": err.message}, status_code=STATUS.get(err.code, 400))


def create_app(
    store: RoomStore,
    settings: ServeSettings | None = None,
    node: str = "local",
    history_settings: HistorySettings | None = None,
    tick: float = 0.5,
    stall: float = 2.0,
    bot_pace: float = 0.0,
) -> Starlette:
    settings = settings or ServeSettings()
    metrics = Metrics(node)
    store.on_reconnect = metrics.store_reconnects.inc
    # The node: its rooms, the budgets every client's spending is charged to, and what watches the rooms (timers
    # and bots, turn-based rooms, the game history).
    hub = Hub(store, metrics)
    ledger = Ledger(settings, metrics.limit_refusals.inc)
    for label in ledger.labels():
        metrics.limit_refusals.inc(label, 0.0)
    rooms = RoomBudget(ledger, hub, metrics, settings.room_ttl, settings.unjoined_ttl, settings.turn_room_ttl)
    budgets = NodeBudgets(ledger, rooms, settings)
    heartbeat = getattr(store, "heartbeat", 2.0)
    tasks = RoomTasks(hub, bot_pace, budgets.bot_turn, settings.bot_think, settings.bot_processes)
    watchdog = Watchdog(hub, tasks, tick, stall, heartbeat)
    turns = TurnService(hub, tasks, budgets, sweep=heartbeat)
    history = History(store, history_settings or HistorySettings(), metrics, ledger)
    for observer in (tasks, turns, history):
        hub.watch(observer)
    conns: set[Conn] = set()
    _gauges(metrics, hub, conns)
    monitors = Addresses(settings.monitor_allow_ips)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.start()
        hub.spawn(watchdog.run())
        turns.start()
        history.start()
        log.info("node started", extra={"event": "node_started", "store": type(store).__name__})
        try:
            yield
        finally:
            tasks.close()
            await history.close()
            await turns.close()
            await hub.close()
            await store.close()
            log.info("node stopped", extra={"event": "node_stopped"})

    def monitor(request: Request) -> bool:
        """Whether the request comes from an address that may see the node's details (RAJAS_MONITOR_ALLOW_IPS)."""
        return request.client is not None and request.client.host in monitors

    async def health(request: Request) -> Response:
        if not monitor(request):  # (a stranger learns whether the node answers, not its name or its load)
            return JSONResponse({"ok": True})
        return JSONResponse(
            {
                "ok": True,
                "node": node,
                "compiled": metrics.compiled,
                "rooms_here": len(hub.rooms),
                "connections": len(conns),
            }
        )

    async def metrics_route(request: Request) -> Response:
        if not monitor(request):
            return PlainTextResponse("not found", status_code=404)
        return PlainTextResponse(metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8")

    async def create_room_route(request: Request) -> Response:
        try:
            body = await read_body(request, settings.max_body)
            room_settings = RoomSettings.model_validate_json(body or b"{}")
        except ProtocolError as e:
            metrics.limit_refusals.inc("body")
            return _error(e)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "settings"
            return _error(ProtocolError("bad_settings", f"{where}: {first['msg']}"))
        try:
            who = Who.of(request.client.host if request.client else None)
            room = await create_room(hub, budgets, who, room_settings)
        except ProtocolError as e:
            return _error(e)
        session = Session(hub, turns, Conn(Socket(), settings), _base_url(request.url))
        return JSONResponse(session.created(room), status_code=201)

    async def room_info(request: Request) -> Response:
        try:
            code, _ = await hub.resolve(request.path_params["code"])
            room = await hub.load(code, fresh=True)
        except ProtocolError as e:
            return _error(e)
        lr = hub.rooms.get(code)
        counts = lr.counts if lr else {}
        return JSONResponse(room.view(connected_seats(counts), counts.get(SPECTATORS, 0)) | {"v": room.v})

    async def room_list(request: Request) -> Response:
        return JSONResponse({"rooms": await hub.lobby()})

    async def game_log(request: Request) -> Response:
        try:
            code, via_watch = await hub.resolve(request.path_params["code"])
            return JSONResponse(await hub.game_log(code, via_watch))
        except ProtocolError as e:
            return _error(e)

    async def websocket(scope: Scope, receive: Receive, send: Send) -> None:
        """/ws as plain ASGI: each update goes to every socket of a room, and Starlette's WebSocket and
        middleware wrappers around every send cost more than uvicorn's send itself."""
        if (await receive())["type"] != "websocket.connect":
            return
        client = scope.get("client")
        who = Who.of(client[0] if client else None)
        try:
            held = ledger.hold("connections", who.keys())
        except Refusal as e:
            body = json.dumps({"ok": False, "code": e.code, "message": e.message}).encode()
            headers = [(b"content-type", b"application/json")]
            await send({"type": "websocket.http.response.start", "status": 429, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
            return
        try:
            await _serve_socket(scope, receive, send, who)
        finally:
            ledger.release(held)

    async def _serve_socket(scope: Scope, receive: Receive, send: Send, who: Who) -> None:
        await send({"type": "websocket.accept"})
        link = Link(receive, send)
        conn = Conn(link.socket, settings)
        session = Session(hub, turns, conn, _base_url(WebSocket(scope, receive, send).url), who, budgets)
        writer = hub.spawn(conn.writer())
        conns.add(conn)
        metrics.connections_total.inc()
        try:
            await link.run(conn, session.handle, store.eager)
        except (WebSocketDisconnect, OSError):
            pass
        finally:
            conns.discard(conn)
            conn.closed = True
            if conn.frames_refused:
                metrics.limit_refusals.inc("control_rate", conn.frames_refused)
            if conn.close_reason is None:
                conn.drop(1000, "bye")
            elif conn.close_reason[0] == 4008:
                metrics.dropped.inc()
                metrics.limit_refusals.inc("queue")
            elif conn.close_reason[0] == 1008:
                metrics.limit_refusals.inc("strikes")
            try:
                await hub.detach(conn)
            except Exception:  # the store is away; the presence heartbeat puts the counts right later
                metrics.store_errors.inc()
            with contextlib.suppress(Exception):
                await writer

    files = ClientFiles(CLIENT_DIR)
    routes = [
        Route("/health", health),
        Route("/metrics", metrics_route),
        Route("/api/rooms", create_room_route, methods=["POST"]),
        Route("/api/rooms", room_list, methods=["GET"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/rooms/{code}/log", game_log),
        *game_routes(hub, history, files),
        *turns.routes(),
        Mount("/", files, name="client"),
    ]
    app = App(websocket, settings, metrics, routes=routes, lifespan=lifespan, exception_handlers={Exception: _internal})
    app.state.hub = hub
    app.state.tasks = tasks
    app.state.turns = turns
    app.state.history = history
    app.state.settings = settings
    app.state.budgets = budgets
    return app


class App(Starlette):
    """Starlette for HTTP; the websocket endpoint /ws is served without Starlette's layers (see websocket).
    Before either: a trusted proxy's forwarded headers (uvicorn's ProxyHeadersMiddleware for the client's address
    and scheme, forwarded.py for the host), and the body limit of every HTTP request."""

    def __init__(
        self, ws: Callable[[Scope, Receive, Send], Awaitable[None]], settings: ServeSettings, metrics: Metrics,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(**kwargs)
        self.ws = ws
        self.proxies = Addresses(settings.forwarded_allow_ips)
        self.max_body = settings.max_body
        self.metrics = metrics
        self.forwarded = cast(
            ASGIApp, ProxyHeadersMiddleware(cast(Any, self._inner), trusted_hosts=settings.forwarded_allow_ips)
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http" or kind == "websocket":
            forwarded.apply_host(scope, self.proxies)  # (first: it asks whether the peer is a trusted proxy)
            await self.forwarded(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    async def _inner(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" and scope["path"] == "/ws":
            await self.ws(scope, receive, send)
            return
        if kind == "http" and self._announced(scope) > self.max_body:
            self.metrics.limit_refusals.inc("body")
            err = ProtocolError("too_large", f"a request body is at most {self.max_body} bytes")
            await _error(err)(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    @staticmethod
    def _announced(scope: Scope) -> int:
        """The body's Content-Length (0 when none is given: a chunked body is counted as it is read)."""
        for key, value in scope["headers"]:
            if key == b"content-length":
                try:
                    return int(value)
                except ValueError:
                    return 1 << 62  # (not a length: refused as too large rather than believed)
        return 0


def _gauges(metrics: Metrics, hub: Hub, conns: set[Conn]) -> None:
    def timers() -> list[tuple[str, float]]:
        kinds: dict[str, int] = {"clock": 0, "grace": 0}
        for lr in hub.rooms.values():
            for name in lr.timers:
                kind = name.split(":")[0]
                kinds[kind] = kinds.get(kind, 0) + 1
        return [(f'{{kind="{k}"}}', n) for k, n in sorted(kinds.items())]

    def roles() -> list[tuple[str, float]]:
        players = sum(1 for c in conns if c.role == "player")
        spectators = sum(1 for c in conns if c.role == "spectator")
        return [
            ('{role="player"}', players),
            ('{role="spectator"}', spectators),
            ('{role="none"}', len(conns) - players - spectators),
        ]

    metrics.gauge("rajas_sheet_cache_entries", "parsed custom sheets in the cache", lambda: [("", len(COMPONENTS))])
    metrics.gauge(
        "rajas_sheet_cache_evictions", "sheets dropped from the cache since start", lambda: [("", COMPONENTS.evictions)]
    )
    metrics.gauge("rajas_connections", "open websocket connections on this node", roles)
    metrics.gauge("rajas_rooms", "rooms with a connection or a timer on this node", lambda: [("", len(hub.rooms))])
    metrics.gauge(
        "rajas_rooms_playing",
        "of those, rooms with a game in progress",
        lambda: [("", sum(1 for lr in hub.rooms.values() if lr.room is not None and lr.room.status == PLAYING))],
    )
    metrics.gauge("rajas_timers", "grace and turn-clock timers armed on this node", timers)
    metrics.gauge(
        "rajas_log_lines_dropped",
        "log lines not written for being over RAJAS_LOG_RATE, since the node started",
        lambda: [("", RateFilter.dropped_total)],
    )
    metrics.gauge(
        "rajas_bots_driving",
        "rooms whose bot this node is playing now",
        lambda: [("", sum(lr.driving for lr in hub.rooms.values()))],
    )

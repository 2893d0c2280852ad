"""The history routes (docs/protocol.md "Game history"): archived games, a room's games, the replay viewer.

Read-only: nothing here changes a room or a game. Every id and step range is checked before a lookup; the
answers are bounded (a room lists at most RAJAS_HISTORY_PER_ROOM games, a steps request at most
RAJAS_REPLAY_STEPS steps) and charged to the client's address (server/history/service.py)."""

from __future__ import annotations

from rajas.protocol import ProtocolError
from rajas.server.budget import Who
from rajas.server.edge.static import ClientFiles
from rajas.server.history.service import History
from rajas.server.rooms.hub import Hub
from rajas.server.storage.archive import HistoryError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

STATUS = {"game_not_found": 404, "room_not_found": 404, "bad_range": 400, "replay_failed": 500, "rate_limited": 429}
VIEWER = "/replay.html"
JSON = "application/json"


def _error(err: ProtocolError | HistoryError) -> JSONResponse:
    return JSONResponse({"ok": False, "code": err.code, "message": err.message}, status_code=STATUS.get(err.code, 400))


def game_routes(hub: Hub, history: History, files: ClientFiles) -> list[Route]:
    def who(request: Request) -> Who:
        return Who.of(request.client.host if request.client else None)

    async def game(request: Request) -> Response:
        """The archived game's log, as `rajas verify URL` reads it (`?download=1`: as a file to save); sent as kept,
        deflated, to a client that takes deflate."""
        gid = request.path_params["id"]
        deflated = "deflate" in request.headers.get("accept-encoding", "")
        try:
            body = await history.game_bytes(gid, who(request), deflated)
        except HistoryError as e:
            return _error(e)
        headers = {"cache-control": "private, max-age=60", "vary": "accept-encoding"}
        if deflated:
            headers["content-encoding"] = "deflate"
        if request.query_params.get("download") == "1":
            headers["content-disposition"] = f'attachment; filename="rajas-game-{gid}.json"'
        return Response(body, media_type=JSON, headers=headers)

    async def steps(request: Request) -> Response:
        q = request.query_params
        try:
            body = await history.steps(request.path_params["id"], q.get("from"), q.get("to"), who(request))
        except HistoryError as e:
            return _error(e)
        return Response(body, media_type=JSON)

    async def outline(request: Request) -> Response:
        try:
            return Response(await history.outline(request.path_params["id"], who(request)), media_type=JSON)
        except HistoryError as e:
            return _error(e)

    async def room_games(request: Request) -> Response:
        try:
            code, _ = await hub.resolve(request.path_params["code"])
            room = await hub.load(code)
        except ProtocolError as e:
            return _error(e)
        return JSONResponse({"games": await history.of_room(room)})

    async def viewer(request: Request) -> Response:
        """/games/ID: the viewer's page (the same page for every id; it reads the id from its address)."""
        page = files.lookup(VIEWER)
        if page is None:
            return Response("not found", status_code=404, media_type="text/plain")
        headers = {"cache-control": "no-cache", "x-content-type-options": "nosniff"}
        return Response(page.body, media_type=page.content_type, headers=headers)

    return [
        Route("/api/games/{id}", game),
        Route("/api/games/{id}/steps", steps),
        Route("/api/games/{id}/replay", outline),
        Route("/api/rooms/{code}/games", room_games),
        Route("/games/{id}", viewer),
    ]

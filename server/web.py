"""The node's plain HTTP side, besides its routes: bodies read within their limit, and which of the client's
files are served."""

from __future__ import annotations

import os

from rajas.protocol import ProtocolError
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (too_large) as soon as it is past `limit` bytes, whether its length was
    announced (Content-Length, checked by App before any route) or not (chunked: counted as it arrives)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ProtocolError("too_large", f"a request body is at most {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)



class ClientFiles(StaticFiles):
    """The browser client's files and nothing else of its folder: not the package's __init__.py, its README,
    nor the demo page and its fixtures (a design aid, served by any static server: client_web/README.md)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if not served(path):
            return PlainTextResponse("Not Found", status_code=404)
        return await super().get_response(path, scope)


def served(path: str) -> bool:
    """Whether `rajas serve` serves this path of client_web/ (as StaticFiles normalised it)."""
    parts = path.replace(os.sep, "/").split("/")
    if path == ".":
        return True  # (the index)
    if len(parts) == 2:
        return parts[0] in ("vendor", "i18n")
    name = parts[0]
    return len(parts) == 1 and name.endswith((".html", ".js", ".css", ".svg", ".png")) and not name.startswith("demo")

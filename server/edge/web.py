"""The node's plain HTTP side, besides its routes: bodies read within their limit (the client's files are
served by static.py)."""

from __future__ import annotations

from rajas.protocol import ProtocolError
from starlette.requests import Request


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

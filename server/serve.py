"""`rajas serve`: the app on uvicorn, with the settings the stack measurements chose."""

from __future__ import annotations

import uvicorn
from rajas.protocol import MAX_FRAME

from .app import create_app
from .connection import Limits
from .memory_store import MemoryStore
from .redis_store import RedisStore
from .store import RoomStore


def make_store(redis_url: str | None, room_ttl: float) -> RoomStore:
    return RedisStore(redis_url, ttl=room_ttl) if redis_url else MemoryStore(ttl=room_ttl)


def uvicorn_config(app: object, host: str, port: int, log_level: str = "warning") -> uvicorn.Config:
    return uvicorn.Config(
        app,  # type: ignore[arg-type]
        host=host,
        port=port,
        loop="uvloop",
        http="httptools",
        ws="websockets-sansio",  # cheaper per message than the legacy websockets implementation
        ws_max_size=4 * MAX_FRAME,  # larger frames are cut by the transport; up to this, the app answers
        ws_per_message_deflate=False,  # compression costs CPU and 50 KiB per connection; messages are small
        lifespan="on",
        log_level=log_level,
        access_log=False,
    )


def serve(
    host: str, port: int, redis_url: str | None, room_ttl: float, limits: Limits, log_level: str = "warning"
) -> None:
    app = create_app(make_store(redis_url, room_ttl), limits)
    uvicorn.Server(uvicorn_config(app, host, port, log_level)).run()

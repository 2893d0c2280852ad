"""`rajas serve`: the app on uvicorn, with the settings the stack measurements chose."""

from __future__ import annotations

import argparse
import gc
import resource

import uvicorn
from rajas.protocol import MAX_FRAME
from rajas.server import logs
from rajas.server.app import create_app
from rajas.server.config import node_name
from rajas.server.edge import transport
from rajas.server.edge.connection import Limits
from rajas.server.metrics import watch_gc
from rajas.server.storage.archive import HistorySettings
from rajas.server.storage.memory_store import MemoryStore
from rajas.server.storage.redis_store import RedisStore
from rajas.server.storage.store import RoomStore
from rajas.server.turns.service import TurnConfig


def make_store(
    redis_url: str | None, room_ttl: float, node: str | None = None, heartbeat: float = 2.0, node_ttl: float = 6.0
) -> RoomStore:
    if redis_url:
        return RedisStore(redis_url, ttl=room_ttl, node=node, heartbeat=heartbeat, node_ttl=node_ttl)
    return MemoryStore(ttl=room_ttl)


def uvicorn_config(
    app: object, host: str, port: int, log_level: str = "warning", mode: str | None = None
) -> uvicorn.Config:
    """uvicorn for our app, on the transport `mode` (default RAJAS_TRANSPORT, else fast; see server/transport);
    the limits (app.state.limits) and the refusal counter come from the app."""
    state = getattr(app, "state", None)
    limits: Limits = getattr(state, "limits", None) or Limits()
    hub = getattr(state, "hub", None)
    refused = hub.metrics.limit_refusals.inc if hub is not None else None
    return uvicorn.Config(
        app,  # type: ignore[arg-type]
        host=host,
        port=port,
        loop="uvloop",
        **transport.uvicorn_options(transport.choose(mode), limits, refused),
        ws_max_size=4 * MAX_FRAME,  # larger frames are cut by the transport; up to this, the app answers
        ws_per_message_deflate=False,  # compression costs CPU and 50 KiB per connection; messages are small
        lifespan="on",
        log_level=log_level,
        log_config=None,  # logs.setup routes uvicorn's loggers to our handler
        access_log=False,
        backlog=4096,  # a reconnect storm after a node dies arrives all at once
        proxy_headers=False,  # forwarded.py believes X-Forwarded-* from RAJAS_FORWARDED_ALLOW_IPS only
    )


def raise_fd_limit() -> int:
    """Each socket is a file descriptor: take the hard limit, so 10,000 clients fit on one node."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def serve(args: argparse.Namespace, limits: Limits) -> None:
    node = args.node or node_name()
    logs.setup(args.log_level, args.log_format, node, args.log_rate)
    raise_fd_limit()
    store = make_store(args.redis, args.room_ttl, node, args.heartbeat, args.node_ttl)
    history = HistorySettings.from_days(
        args.history_days,
        max_games=args.history_max_games,
        per_room=args.history_per_room,
        replay_cache=args.replay_cache,
        replay_steps=args.replay_steps,
    )
    tick = min(0.5, args.stall / 2)
    app = create_app(
        store, limits, node=node, history_settings=history, tick=tick, stall=args.stall, bot_pace=args.bot_pace
    )
    app.state.turns.configure(TurnConfig.from_args(args))
    # A cyclic-GC pass looks at every tracked object (each a cache miss in a heap of thousands of sockets),
    # a pause for everyone in every room. Almost all our garbage is acyclic and freed by reference counting,
    # and the hot path keeps no new container objects alive, so passes are made rare; /metrics shows them.
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    gc.callbacks.append(watch_gc(app.state.hub.metrics.gc_pauses))
    config = uvicorn_config(app, args.host, args.port, args.log_level, args.transport)
    logs.setup(args.log_level, args.log_format, node, args.log_rate)  # again: uvicorn's Config set its own levels
    uvicorn.Server(config).run()

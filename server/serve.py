"""`rajas serve`: the app on uvicorn, with the settings the stack measurements chose."""

from __future__ import annotations

import gc
import logging
import resource
from urllib.parse import urlsplit, urlunsplit

import uvicorn
from rajas.protocol import MAX_FRAME
from rajas.server import logs
from rajas.server.app import create_app
from rajas.server.config import ServeSettings, node_name
from rajas.server.edge import transport
from rajas.server.metrics import watch_gc
from rajas.server.storage.archive import HistorySettings
from rajas.server.storage.memory_store import MemoryStore
from rajas.server.storage.redis_store import RedisStore
from rajas.server.storage.store import RoomStore
from rajas.server.turns.service import TurnConfig

log = logging.getLogger("rajas.serve")


def make_store(
    redis_url: str | None,
    room_ttl: float,
    node: str | None = None,
    heartbeat: float = 2.0,
    node_ttl: float = 6.0,
    unjoined_ttl: float | None = None,
) -> RoomStore:
    if redis_url:
        return RedisStore(
            redis_url, ttl=room_ttl, node=node, heartbeat=heartbeat, node_ttl=node_ttl, unjoined_ttl=unjoined_ttl
        )
    return MemoryStore(ttl=room_ttl, unjoined_ttl=unjoined_ttl)


def uvicorn_config(
    app: object, host: str, port: int, log_level: str = "warning", mode: str | None = None
) -> uvicorn.Config:
    """uvicorn for our app, on the transport `mode` (default RAJAS_TRANSPORT, else fast; see server/transport);
    the settings (app.state.settings), the budgets and the refusal counter come from the app."""
    state = getattr(app, "state", None)
    settings: ServeSettings = getattr(state, "settings", None) or ServeSettings()
    hub = getattr(state, "hub", None)
    budgets = getattr(state, "budgets", None)
    refused = hub.metrics.limit_refusals.inc if hub is not None else None
    mode = transport.choose(mode)
    config = uvicorn.Config(
        app,  # type: ignore[arg-type]
        host=host,
        port=port,
        loop="uvloop",
        **transport.uvicorn_options(mode, settings, refused, budgets.ledger if budgets is not None else None),
        ws_max_size=4 * MAX_FRAME,  # larger frames are cut by the transport; up to this, the app answers
        ws_per_message_deflate=False,  # compression costs CPU and 50 KiB per connection; messages are small
        lifespan="on",
        log_level=log_level,
        log_config=None,  # logs.setup routes uvicorn's loggers to our handler
        access_log=False,
        backlog=4096,  # a reconnect storm after a node dies arrives all at once
        proxy_headers=False,  # (the app applies uvicorn's ProxyHeadersMiddleware itself, after its X-Forwarded-Host)
    )
    # What the fast websocket protocol reads off its Config (server/edge/transport/fast.py).
    config.rajas_close_timeout = settings.close_timeout  # type: ignore[attr-defined]
    config.rajas_refused = refused  # type: ignore[attr-defined]
    return config


def raise_fd_limit() -> int:
    """Each socket is a file descriptor: take the hard limit, so 10,000 clients fit on one node."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def redacted(url: str) -> str:
    """A store's address without its password, fit for a log line."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def announce(settings: ServeSettings, node: str) -> None:
    """One line an operator reads at start: where the node serves, its store and whether e-mail is on; and a
    warning when rooms live only in this process (a restart loses every room and archived game)."""
    shown = f"[{settings.host}]" if ":" in settings.host else settings.host
    mail_off = settings.mail_off_because()
    store = f"redis {redacted(settings.redis)}" if settings.redis else "memory"
    log.info(
        "rajas serving http://%s:%d, store %s, turn e-mails %s, transport %s, node %s",
        shown, settings.port, store, f"off ({mail_off})" if mail_off else "on", settings.transport, node,
        extra={"event": "start", "port": settings.port, "store": "redis" if settings.redis else "memory",
               "mail": mail_off is None},
    )  # fmt: skip
    if not settings.redis:
        log.warning(
            "rooms and archived games live in this process's memory only: a restart loses them all "
            "(set RAJAS_REDIS_URL to keep them)",
            extra={"event": "memory_store"},
        )


def serve(settings: ServeSettings) -> None:
    node = settings.node or node_name()
    logs.setup(settings.log_level, settings.log_format, node, settings.log_rate)
    announce(settings, node)
    raise_fd_limit()
    store = make_store(
        settings.redis, settings.room_ttl, node, settings.heartbeat, settings.node_ttl, settings.unjoined_ttl
    )
    history = HistorySettings.from_days(
        settings.history_days,
        max_games=settings.history_max_games,
        per_room=settings.history_per_room,
        replay_cache=settings.replay_cache,
        replay_steps=settings.replay_steps,
    )
    tick = min(0.5, settings.stall / 2)
    app = create_app(
        store, settings, node=node, history_settings=history, tick=tick, stall=settings.stall,
        bot_pace=settings.bot_pace,
    )  # fmt: skip
    app.state.turns.configure(TurnConfig.from_settings(settings))
    # A cyclic-GC pass looks at every tracked object (each a cache miss in a heap of thousands of sockets),
    # a pause for everyone in every room. Almost all our garbage is acyclic and freed by reference counting,
    # and the hot path keeps no new container objects alive, so passes are made rare; /metrics shows them.
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    gc.callbacks.append(watch_gc(app.state.hub.metrics.gc_pauses))
    config = uvicorn_config(app, settings.host, settings.port, settings.log_level, settings.transport)
    # (again: uvicorn's Config set its own levels)
    logs.setup(settings.log_level, settings.log_format, node, settings.log_rate)
    uvicorn.Server(config).run()

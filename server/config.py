"""Settings of `rajas serve` from the environment: every flag has a RAJAS_* variable as its default, so a
container or a process manager configures a node without a command line (flags still win)."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable
from typing import Any

# flag -> (environment variable, type, default, help)
SERVE: dict[str, tuple[str, Callable[[str], Any], Any, str]] = {
    "host": ("RAJAS_HOST", str, "127.0.0.1", "address to listen on"),
    "port": ("RAJAS_PORT", int, 8000, "port to listen on"),
    "redis": ("RAJAS_REDIS_URL", str, None, "share rooms through Redis, e.g. redis://localhost:6379/0"),
    "room_ttl": ("RAJAS_ROOM_TTL", float, 7200.0, "seconds an abandoned room is kept"),
    "rate": ("RAJAS_RATE", float, 100.0, "messages per second per connection (pings and other frames too)"),
    "burst": ("RAJAS_BURST", float, 200.0, "messages a connection may send at once"),
    "queue": ("RAJAS_QUEUE", int, 1024, "outgoing frames queued before a slow client is dropped"),
    # ---- limits against hostile clients (docs/security.md) ----
    "queue_bytes": ("RAJAS_QUEUE_BYTES", int, 2097152, "outgoing bytes queued before a slow client is dropped"),
    "strikes": ("RAJAS_STRIKES", int, 50, "refused messages (decaying one a second) before a connection is closed"),
    "max_body": ("RAJAS_MAX_BODY", int, 64 * 1024, "bytes of an HTTP request body (a custom sheet file)"),
    "max_head": ("RAJAS_MAX_HEAD", int, 16 * 1024, "bytes of an HTTP request's line and headers"),
    "handshake_timeout": (
        "RAJAS_HANDSHAKE_TIMEOUT", float, 10.0, "seconds a client has to send a whole request or websocket upgrade"
    ),
    "rooms_per_minute": ("RAJAS_ROOMS_PER_MINUTE", int, 10, "rooms one client address may create per minute"),
    "max_rooms": ("RAJAS_MAX_ROOMS", int, 5000, "rooms this node may create per --room-ttl seconds"),
    "conns_per_address": ("RAJAS_CONNS_PER_ADDRESS", int, 64, "open websocket connections per client address"),
    "forwarded_allow_ips": (
        "RAJAS_FORWARDED_ALLOW_IPS", str, "127.0.0.1",
        "proxy addresses (IPs or CIDRs, comma-separated; * for any) whose X-Forwarded-* headers are believed",
    ),
    "chat_per_minute": ("RAJAS_CHAT_PER_MINUTE", int, 20, "chat lines a connection may send per minute (5 at once)"),
    "chat_spectators_per_minute": (
        "RAJAS_CHAT_SPECTATORS_PER_MINUTE", int, 60, "chat lines one room's spectators on a node may send per minute"
    ),
    "log_rate": ("RAJAS_LOG_RATE", float, 50.0, "log lines per second at most (the rest are counted in /metrics)"),
    # ----
    "log_level": ("RAJAS_LOG_LEVEL", str, "info", "debug, info, warning, error"),
    "log_format": ("RAJAS_LOG_FORMAT", str, "json", "json (one object per line) or text"),
    "node": ("RAJAS_NODE", str, None, "this node's name in logs and /metrics (default: host-pid-random)"),
    "heartbeat": ("RAJAS_HEARTBEAT", float, 2.0, "seconds between a node's heartbeats and presence checks"),
    "node_ttl": ("RAJAS_NODE_TTL", float, 6.0, "seconds without a heartbeat before a node counts as dead"),
    "stall": ("RAJAS_STALL", float, 2.0, "seconds a room owed a bot move or a clock may sit before takeover"),
    "transport": ("RAJAS_TRANSPORT", str, "fast", "fast (private uvicorn overrides) or standard (public ASGI only)"),
    "sheet_cache": ("RAJAS_SHEET_CACHE", int, 64, "parsed custom sheets kept in memory (least recently used go)"),
    # ---- game history and the replay viewer (server/history.py) ----
    "history_days": ("RAJAS_HISTORY_DAYS", float, 90.0, "days a finished game is kept in the history (0: for ever)"),
    "history_max_games": (
        "RAJAS_HISTORY_MAX_GAMES", int, 1000, "finished games kept in memory (oldest go first; Redis: no limit)"
    ),
    "history_per_room": ("RAJAS_HISTORY_PER_ROOM", int, 20, "finished games a room's page lists (its newest)"),
    "replay_cache": ("RAJAS_REPLAY_CACHE", int, 8, "replayed games kept in memory for the viewer (least recent go)"),
    "replay_steps": ("RAJAS_REPLAY_STEPS", int, 50, "steps one GET /api/games/ID/steps returns at most"),
    "bot_pace": ("RAJAS_BOT_PACE", float, 0.5, "seconds each bot decision waits, so people can follow (below --stall)"),
    # ---- turn-based rooms and turn e-mails (server/turn_based.py, server/mail.py) ----
    "turn_room_ttl": (
        "RAJAS_TURN_ROOM_TTL", float, 30 * 86400.0,
        "seconds a turn-based room in play is kept after its last turn began",
    ),
    "turn_unit": ("RAJAS_TURN_UNIT", float, 3600.0, "seconds in an hour of a turn limit (for tests only)"),
    "smtp_url": ("RAJAS_SMTP_URL", str, None, "turn e-mails: smtp://user:pass@host:587?starttls=1 or smtps://..."),
    "smtp_from": ("RAJAS_SMTP_FROM", str, None, "turn e-mails: the sender address"),
    "public_url": ("RAJAS_PUBLIC_URL", str, None, "the address players reach this server at (links in e-mails)"),
}


class ConfigError(ValueError):
    pass


def env_default(flag: str, environ: dict[str, str] | None = None) -> Any:
    var, kind, default, _ = SERVE[flag]
    raw = (environ if environ is not None else os.environ).get(var)
    if raw is None or raw == "":
        return default
    try:
        return kind(raw)
    except ValueError:
        raise ConfigError(f"{var}={raw!r} is not a valid {kind.__name__}") from None


def help_for(flag: str) -> str:
    var, _, default, text = SERVE[flag]
    return f"{text} (env {var}; default {default})"


def node_name() -> str:
    """Unique per process start: a restarted container keeps its hostname and often its pid (1)."""
    return f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:4]}"

"""Settings of `rajas serve`, read by pydantic-settings: every flag has a RAJAS_* environment variable as its
default, so a container or a process manager configures a node without a command line (flags still win).

Each field's environment variable is RAJAS_ and its name in capitals, unless its alias says otherwise
(`redis` is RAJAS_REDIS_URL); its description is the flag's help. The budgets (docs/security.md, "Budgets") are
the fields between the `budgets` markers below.
"""

from __future__ import annotations

import os
import socket
import uuid
from typing import Any
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, SettingsConfigDict


def _env(name: str, description: str, default: Any, var: str | None = None, **bounds: Any) -> Any:
    """A field read from the variable `var` (default RAJAS_ + NAME), and given by its name from a flag; `bounds`
    are pydantic's (ge, le...), so a value out of them is refused at start with one line."""
    return Field(default, description=description, validation_alias=var or f"RAJAS_{name.upper()}", **bounds)


def _scheme(value: str | None, schemes: tuple[str, ...], example: str) -> str | None:
    """A URL setting must name its scheme and host: a bare host name would make unclickable links or connect
    nowhere, found only when the first player is waiting."""
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in schemes or not (parts.hostname or (parts.path and parts.scheme == "unix")):
        raise ValueError(f"give the whole address with its scheme, e.g. {example}")
    return value


class ServeSettings(BaseSettings):
    # (an empty variable counts as unset; flags come in by field name and win over the environment)
    model_config = SettingsConfigDict(extra="ignore", case_sensitive=True, env_ignore_empty=True, validate_by_name=True)

    host: str = _env("host", "address to listen on", "127.0.0.1")
    port: int = _env("port", "port to listen on (0: any free one)", 8000, ge=0, le=65535)
    redis: str | None = _env("redis", "share rooms through Redis, e.g. redis://localhost:6379/0", None,
                             "RAJAS_REDIS_URL")  # fmt: skip
    room_ttl: float = _env("room_ttl", "seconds an abandoned room is kept", 7200.0)
    # ---- budgets: what a client can make the node spend (docs/security.md, "Budgets") ----
    rate: float = _env("rate", "messages per second per connection (pings and other frames too)", 100.0)
    burst: float = _env("burst", "messages a connection may send at once", 200.0)
    queue: int = _env("queue", "outgoing frames queued before a slow client is dropped", 1024)
    queue_bytes: int = _env("queue_bytes", "outgoing bytes queued before a slow client is dropped", 2097152)
    strikes: int = _env("strikes", "refused messages (decaying one a second) before a connection is closed", 50)
    close_timeout: float = _env(
        "close_timeout", "seconds a connection the node closed waits for the client's close (nothing else is read)", 2.0
    )
    max_body: int = _env("max_body", "bytes of an HTTP request body (a custom sheet file)", 64 * 1024)
    max_head: int = _env("max_head", "bytes of an HTTP request's line and headers", 16 * 1024)
    handshake_timeout: float = _env(
        "handshake_timeout", "seconds a client has to send a whole request or websocket upgrade", 10.0
    )
    http_conns_per_address: int = _env(
        "http_conns_per_address", "open HTTP connections (not websockets) per client address", 32
    )
    conns_per_address: int = _env("conns_per_address", "open websocket connections per client address", 64)
    network_share: int = _env(
        "network_share", "a client's network (IPv6 /56, IPv4 /24) gets this many addresses' worth of each budget", 5
    )
    rooms_per_minute: int = _env("rooms_per_minute", "rooms one client address may create per minute", 10)
    rooms_per_address: int = _env("rooms_per_address", "rooms one client address holds on this node at once", 20)
    max_rooms: int = _env("max_rooms", "rooms this node holds at once (near it, idle lobbies go first)", 5000)
    unjoined_ttl: float = _env("unjoined_ttl", "seconds a room nobody has joined is kept", 600.0)
    listed_per_address: int = _env("listed_per_address", "public rooms one client address holds at once", 5)
    turn_rooms_per_address: int = _env(
        "turn_rooms_per_address", "turn-based games in play one client address holds at once (for their whole life)", 5
    )
    turn_idle_turns: float = _env(
        "turn_idle_turns", "a turn-based game ends after this many turn limits per person with no person acting", 1.0
    )
    games_per_room: int = _env("games_per_room", "games one room may play (rematches past it are refused)", 50)
    bot_rate: float = _env("bot_rate", "bot decisions per second this node makes, all rooms together", 100.0)
    bot_think: float = _env(
        "bot_think", "seconds one bot decision may search (the expert's time cap)", 1.0, gt=0, le=60
    )
    bot_processes: int = _env(
        "bot_processes", "worker processes bot searches run in, off the event loop's GIL (0: threads)", 1, ge=0, le=64
    )
    chat_per_minute: int = _env("chat_per_minute", "chat lines a seat (or a spectator) may send per minute", 20)
    chat_spectators_per_minute: int = _env(
        "chat_spectators_per_minute", "chat lines one room's spectators on a node may send per minute", 60
    )
    email_changes_per_day: int = _env(
        "email_changes_per_day", "e-mail addresses a seat (and a client address) may set per day", 10
    )
    mail_per_address_day: int = _env("mail_per_address_day", "turn e-mails one address gets per day", 20)
    mail_per_room_day: int = _env("mail_per_room_day", "turn e-mails one room sends per day", 60)
    confirmations_per_day: int = _env(
        "confirmations_per_day", "confirmation e-mails per address asked, and per client address asking, per day", 3
    )
    mail_queue: int = _env("mail_queue", "e-mails waiting to be sent (each room a fair share)", 100)
    history_bytes_per_minute: int = _env(
        "history_bytes_per_minute", "bytes of game history one client address is sent per minute", 16 * 1024 * 1024
    )
    replays_per_minute: int = _env(
        "replays_per_minute", "games one client address may have replayed per minute (cached ones are free)", 4
    )
    forwarded_allow_ips: str = _env(
        "forwarded_allow_ips",
        "proxy addresses (IPs or CIDRs, comma-separated; * for any) whose X-Forwarded-* headers are believed",
        "127.0.0.1",
    )
    monitor_allow_ips: str = _env(
        "monitor_allow_ips", "addresses (IPs or CIDRs) that may read /metrics and the details of /health",
        "127.0.0.1,::1",
    )  # fmt: skip
    log_rate: float = _env("log_rate", "log lines per second at most (the rest are counted in /metrics)", 50.0)
    # ---- budgets ----
    log_level: str = _env("log_level", "debug, info, warning, error", "info")
    log_format: str = _env("log_format", "json (one object per line) or text", "json")
    node: str | None = _env("node", "this node's name in logs and /metrics (default: host-pid-random)", None)
    heartbeat: float = _env("heartbeat", "seconds between a node's heartbeats and presence checks", 2.0)
    node_ttl: float = _env("node_ttl", "seconds without a heartbeat before a node counts as dead", 6.0)
    stall: float = _env("stall", "seconds a room owed a bot move or a clock may sit before takeover", 2.0)
    transport: str = _env("transport", "fast (private uvicorn overrides) or standard (public ASGI only)", "fast")
    sheet_cache: int = _env("sheet_cache", "parsed custom sheets kept in memory (least recently used go)", 64)
    # ---- game history and the replay viewer (server/history/) ----
    history_days: float = _env("history_days", "days a finished game is kept in the history (0: for ever)", 90.0)
    history_max_games: int = _env(
        "history_max_games", "finished games kept in memory (oldest go first; Redis: no limit)", 1000
    )
    history_per_room: int = _env("history_per_room", "finished games a room's page lists (its newest)", 20)
    replay_cache: int = _env("replay_cache", "replayed games kept in memory for the viewer (least recent go)", 8)
    replay_steps: int = _env("replay_steps", "steps one GET /api/games/ID/steps returns at most", 50)
    bot_pace: float = _env("bot_pace", "seconds each bot decision waits, so people can follow (below --stall)", 0.5)
    # ---- turn-based rooms and turn e-mails (server/turns/) ----
    turn_room_ttl: float = _env(
        "turn_room_ttl", "seconds a turn-based room in play is kept after its last turn began", 30 * 86400.0
    )
    turn_unit: float = _env("turn_unit", "seconds in an hour of a turn limit (for tests only)", 3600.0)
    smtp_url: str | None = _env("smtp_url", "turn e-mails: smtp://user:pass@host:587?starttls=1 or smtps://...", None)
    smtp_from: str | None = _env("smtp_from", "turn e-mails: the sender address", None)
    public_url: str | None = _env("public_url", "the address players reach this server at (links in e-mails)", None)

    @field_validator("redis")
    @classmethod
    def _redis_url(cls, v: str | None) -> str | None:
        return _scheme(v, ("redis", "rediss", "unix", "redis+cluster", "rediss+cluster"), "redis://localhost:6379/0")

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, v: str | None) -> str | None:
        return _scheme(v, ("http", "https"), "https://rajas.example.org")

    @field_validator("smtp_url")
    @classmethod
    def _smtp_url(cls, v: str | None) -> str | None:
        return _scheme(v, ("smtp", "smtps"), "smtp://user:pass@mail.example.org:587?starttls=1")

    @field_validator("log_format")
    @classmethod
    def _log_format(cls, v: str) -> str:
        if v not in ("json", "text"):
            raise ValueError("json or text")
        return v

    @field_validator("transport")
    @classmethod
    def _transport(cls, v: str) -> str:
        if v not in ("fast", "standard"):
            raise ValueError("fast or standard")
        return v

    @model_validator(mode="after")
    def _paced_bots_are_not_stalled(self) -> ServeSettings:
        if not 0 <= self.bot_pace < self.stall:  # (a paced bot must not look stalled to the other nodes)
            raise ValueError(
                f"--bot-pace / RAJAS_BOT_PACE={self.bot_pace} must be 0 or more and less than --stall / RAJAS_STALL"
                f"={self.stall}"
            )
        return self

    def mail_off_because(self) -> str | None:
        """Why turn e-mails are off with these settings (None: they are on)."""
        missing = [variable(f) for f in ("smtp_url", "smtp_from", "public_url") if not getattr(self, f)]
        if len(missing) == 3:
            return "no RAJAS_SMTP_URL"
        return f"{', '.join(missing)} not set" if missing else None


FIELDS: dict[str, FieldInfo] = ServeSettings.model_fields


class ConfigError(ValueError):
    pass


def variable(flag: str) -> str:
    """The environment variable of a setting."""
    return str(FIELDS[flag].validation_alias)


def load(flags: dict[str, Any] | None = None) -> ServeSettings:
    """The settings from the environment, with the flags given (not None) over it: a flag wins. A bad value is a
    ConfigError naming its variable."""
    given = {k: v for k, v in (flags or {}).items() if k in FIELDS and v is not None}
    try:
        return ServeSettings(**given)
    except ValidationError as e:
        first = e.errors()[0]
        where = str(first["loc"][0]) if first["loc"] else ""
        where = next((f for f in FIELDS if variable(f) == where), where)  # (from the environment: its variable)
        if where in FIELDS:
            raise ConfigError(
                f"--{where.replace('_', '-')} / {variable(where)}={first.get('input')!r}: "
                + str(first["msg"]).removeprefix("Value error, ")
            ) from None
        raise ConfigError(str(first["msg"]).removeprefix("Value error, ")) from None


def env_default(flag: str) -> Any:
    """One setting from the environment (its default when unset)."""
    return getattr(load(), flag)


def help_for(flag: str) -> str:
    field = FIELDS[flag]
    return f"{field.description} (env {variable(flag)}; default {field.default})"


def node_name() -> str:
    """Unique per process start: a restarted container keeps its hostname and often its pid (1)."""
    return f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:4]}"

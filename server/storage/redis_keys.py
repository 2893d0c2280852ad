"""The names of the server's keys in Redis. A room's keys and its channel carry the room's code as hash tag, so on
a Redis Cluster they are all in one slot (and a script may touch them together)."""

from __future__ import annotations

PREFIX = "rajas:"


def room_key(code: str, part: str) -> str:
    """The key `part` of room `code`: room, log, recent, presence, chat, games, or the channel ch."""
    return f"{PREFIX}{{{code}}}:{part}"

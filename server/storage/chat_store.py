"""Where a room's chat lives: its last CHAT_KEEP lines and whether spectators may write, apart from the room's
record. A chat line must not change the room's version (a decision made seeing the version before would then be
refused as stale), so chat has storage and messages of its own.

In memory: a bounded deque per room, dropped with the room. In Redis: the capped list `rajas:{code}:chat` that
expires with the room (its lifetime is set to the room hash's remaining one at each line, so it never outlives
the room), and field 'cs' of the room's hash ('0': spectators may not write). One script each adds a line or
changes the rule and publishes it on the room's channel, so every node's clients get it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from rajas.server.storage.redis_keys import room_key

CHAT_KEEP = 50  # lines a room keeps (what a snapshot shows a reloaded page)
OK, CLOSED, GONE = "ok", "closed", "gone"


class ChatStore(ABC):
    @abstractmethod
    async def add(self, code: str, line: bytes, message: bytes, spectator: bool) -> str:
        """Keeps the packed `line` (the last CHAT_KEEP) and publishes `message` on the room's channel. OK; CLOSED
        when a spectator writes while spectators may not (nothing kept); GONE when there is no such room."""

    @abstractmethod
    async def set_rules(self, code: str, spectators: bool, message: bytes) -> bool:
        """Opens or closes the chat for spectators and publishes `message`; False when there is no such room."""

    @abstractmethod
    async def read(self, code: str) -> tuple[list[bytes], bool]:
        """The room's kept lines (packed, oldest first) and whether spectators may write."""

    def forget(self, code: str) -> None:
        """The store dropped the room: its chat goes too (Redis's keys expire by themselves)."""
        return None


class _Chat:
    __slots__ = ("lines", "spectators")

    def __init__(self) -> None:
        self.lines: deque[bytes] = deque(maxlen=CHAT_KEEP)
        self.spectators = True


class MemoryChat(ChatStore):
    """The memory store's chat: `rooms` is that store's records (a room not in it has no chat)."""

    def __init__(self, rooms: Mapping[str, object], publish: Callable[[str, bytes], None]) -> None:
        self.rooms = rooms
        self.publish = publish
        self.chats: dict[str, _Chat] = {}

    def _chat(self, code: str) -> _Chat | None:
        if code not in self.rooms:
            self.chats.pop(code, None)
            return None
        got = self.chats.get(code)
        if got is None:
            got = self.chats[code] = _Chat()
        return got

    def forget(self, code: str) -> None:
        self.chats.pop(code, None)

    async def add(self, code: str, line: bytes, message: bytes, spectator: bool) -> str:
        chat = self._chat(code)
        if chat is None:
            return GONE
        if spectator and not chat.spectators:
            return CLOSED
        chat.lines.append(line)
        self.publish(code, message)
        return OK

    async def set_rules(self, code: str, spectators: bool, message: bytes) -> bool:
        chat = self._chat(code)
        if chat is None:
            return False
        chat.spectators = spectators
        self.publish(code, message)
        return True

    async def read(self, code: str) -> tuple[list[bytes], bool]:
        chat = self.chats.get(code) if code in self.rooms else None
        return ([], True) if chat is None else (list(chat.lines), chat.spectators)


# KEYS: room hash, chat list. ARGV: line, message, lines kept, channel, publish command, '1' for a spectator.
# Returns 1 (kept and published), 2 (spectators may not write), 0 (no such room).
_ADD = """
local left = redis.call('PTTL', KEYS[1])
if left == -2 then return 0 end
if ARGV[6] == '1' and redis.call('HGET', KEYS[1], 'cs') == '0' then return 2 end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
if left > 0 then redis.call('PEXPIRE', KEYS[2], left) end
redis.call(ARGV[5], ARGV[4], ARGV[2])
return 1
"""

# KEYS: room hash. ARGV: '1' spectators may write / '0' not, message, channel, publish command.
_RULES = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'cs', ARGV[1])
redis.call(ARGV[4], ARGV[3], ARGV[2])
return 1
"""

# KEYS: room hash, chat list. Returns {lines, rule ('0' closed for spectators)}.
_READ = """
return {redis.call('LRANGE', KEYS[2], 0, -1), redis.call('HGET', KEYS[1], 'cs') or '1'}
"""


class RedisChat(ChatStore):
    """The Redis store's chat. `publish` says the store's publish command (known once the store started);
    `channel` names a room's channel."""

    def __init__(self, redis: Any, publish: Callable[[], str], channel: Callable[[str], str]) -> None:
        self.publish = publish
        self.channel = channel
        self._add = redis.register_script(_ADD)
        self._rules = redis.register_script(_RULES)
        self._read = redis.register_script(_READ)

    @staticmethod
    def _keys(code: str) -> list[str]:
        return [room_key(code, "room"), room_key(code, "chat")]

    async def add(self, code: str, line: bytes, message: bytes, spectator: bool) -> str:
        args = [line, message, CHAT_KEEP, self.channel(code), self.publish(), "1" if spectator else "0"]
        got = int(await self._add(keys=self._keys(code), args=args))
        return OK if got == 1 else CLOSED if got == 2 else GONE

    async def set_rules(self, code: str, spectators: bool, message: bytes) -> bool:
        args = ["1" if spectators else "0", message, self.channel(code), self.publish()]
        return int(await self._rules(keys=self._keys(code)[:1], args=args)) == 1

    async def read(self, code: str) -> tuple[list[bytes], bool]:
        lines, rule = await self._read(keys=self._keys(code), args=[])
        return list(lines), rule != b"0"

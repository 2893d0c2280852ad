"""One client connection: its identity in a room, its outgoing queue, its rate limit.

The outgoing queue is bounded: a client that cannot keep up is dropped, so it never slows the room.
A broadcast is a `Frame` encoded once; JSON clients share one lazily made text encoding.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Any

from rajas.server.budget import Bucket
from rajas.server.config import ServeSettings
from rajas.server.edge.transport.base import Socket, start
from rajas.server.frames import Frame

_ids = itertools.count(1)


class Conn:
    """A connection's budgets are its own (RAJAS_RATE/RAJAS_BURST, RAJAS_STRIKES, RAJAS_QUEUE/RAJAS_QUEUE_BYTES): the
    `limits` are the node's settings (server/config.py)."""

    def __init__(self, socket: Socket, limits: ServeSettings) -> None:
        self.cid = next(_ids)
        # Takes whole websocket frames straight to the socket, or says False when it cannot now (the buffer
        # is full, the socket is closing, or the transport does not write frames itself): then `send` does.
        self._raw = socket
        self._cork: list[Frame] | None = None
        self.on_drop: Callable[[], None] | None = None  # tells the connection's reader to stop waiting
        self.limits = limits
        self.binary = True
        self.greeted = False
        self.code: str | None = None  # room
        self.role: str | None = None  # "player" | "spectator"
        self.token: str | None = None  # seat token
        self.host_token: str | None = None
        self.seat_id: str | None = None
        # Kept as sent (bytes or text), not Frames: thousands of long-lived small objects would each cost every
        # GC pass.
        self.replies: OrderedDict[str | int, bytes | str] = OrderedDict()
        self._out: deque[Frame] = deque()
        self._out_bytes = 0  # of the frames in _out (what each holds, in the format this client gets)
        self.frames_refused = 0  # control frames left unanswered for being over the rate
        self._blocked: Awaitable[None] | None = None  # a send waiting for the socket
        self._wake = asyncio.Event()
        self.closed = False
        self.close_reason: tuple[int, str] | None = None
        self.messages = Bucket(limits.rate, limits.burst)  # every frame it sends, control frames too
        self.strikes = Bucket(1.0, float(limits.strikes))  # refused messages, forgiven one a second

    # ---- incoming ---------------------------------------------------------------------------------------

    def allow(self) -> bool:
        """False when this message is over the connection's rate."""
        return self.messages.take()

    def take(self, cost: float) -> bool:
        """A message that costs the node `cost` ordinary ones (e.g. a snapshot): False when over the rate."""
        return self.messages.take(cost)

    def strike(self) -> bool:
        """Counts a refused message; True when they keep coming and the connection should go."""
        return not self.strikes.take()

    def control_frame(self) -> bool:
        """A ping, pong or other frame the transport answers itself: it takes from the same message rate;
        False when it is over the rate and must be ignored (then it is a strike, and may close the connection)."""
        if self.allow():
            return True
        self.frames_refused += 1
        if self.strike():
            self.drop(1008, "too many refused messages")
        return False

    # ---- outgoing ---------------------------------------------------------------------------------------

    def push(self, frame: Frame) -> None:
        if self.closed:
            return
        if not self._out and self._blocked is None:
            raw = self._raw  # (the common case of `_write_now`, inline: a broadcast pushes to every socket)
            if self._cork is None and raw.write(frame.wire(self.binary)):
                return
            self._write_now(frame)
            return
        self._queue(frame)

    def _queue(self, frame: Frame) -> None:
        """Behind a slow socket: queued, up to the queue's frames and bytes; past either the client is dropped."""
        size = self._out_bytes + frame.size(self.binary)
        if len(self._out) >= self.limits.queue or size > self.limits.queue_bytes:
            self._out.clear()
            self._out_bytes = 0
            self.drop(4008, "too slow: outgoing queue full")
            return
        self._out_bytes = size
        self._out.append(frame)
        self._wake.set()

    def send(self, obj: Any) -> Frame:
        frame = Frame(obj)
        self.push(frame)
        return frame

    def drop(self, code: int, reason: str) -> None:
        """Closes the connection once the writer gets to it (from sync code, e.g. a full queue)."""
        if self.close_reason is None:
            self.close_reason = (code, reason)
        self.closed = True
        self._wake.set()
        if self.on_drop is not None:
            self.on_drop()

    def cork(self) -> None:
        """Holds this connection's frames until `uncork`, which writes them at once: while a client's own
        message is handled, the update it caused and the reply to it leave in one write."""
        if self._cork is None:
            self._cork = []

    def uncork(self) -> None:
        frames, self._cork = self._cork, None
        if not frames:
            return
        if self._out or self._blocked is not None:
            for frame in frames:
                self._queue(frame)
            return
        raw = self._raw
        if len(frames) > 1 and raw.write(b"".join([f.wire(self.binary) for f in frames])):
            return
        for frame in frames:  # (even when closed since: a refusal that closed it still goes out, as in push)
            if self._out or self._blocked is not None:
                self._queue(frame)
            else:
                self._write_now(frame)

    def _write_now(self, frame: Frame) -> None:
        """Writes a frame from the caller, without a task switch: a broadcast would otherwise wake a writer task
        per connection, and frame the message again for each. The frame's bytes are made once and written as
        they are; when the transport cannot do that now, its send is started here instead (`start`: in the
        caller, until it has to wait for the socket's buffer)."""
        if self._cork is not None:
            self._cork.append(frame)
            return
        raw = self._raw
        if raw.write(frame.wire(self.binary)):
            return
        try:
            blocked = start(raw.send_bytes(frame.packed) if self.binary else raw.send_text(frame.text))
        except Exception:  # the socket went away; the reader notices and cleans up
            self.closed = True
            self._wake.set()
            return
        if blocked is not None:
            self._blocked = blocked  # a slow client: its writer carries on from here, later frames queue
            self._wake.set()

    async def _finish_blocked(self) -> None:
        """Waits for a send that `_write_now` started and that had to wait for the socket."""
        assert self._blocked is not None
        try:
            await self._blocked
        finally:
            self._blocked = None

    async def writer(self) -> None:
        try:
            while True:
                if self._blocked is not None:
                    await self._finish_blocked()
                while not self._out and not self.closed and self._blocked is None:
                    self._wake.clear()
                    await self._wake.wait()
                if self._blocked is not None:
                    continue
                if self.closed and not self._out:
                    break  # (what was queued before a close still goes out: the refusal that caused it)
                frame = self._out.popleft()
                self._out_bytes -= frame.size(self.binary)
                if self.binary:
                    await self._raw.send_bytes(frame.packed)
                else:
                    await self._raw.send_text(frame.text)
        except Exception:  # the socket went away under us; the reader notices and cleans up
            self.closed = True
            return
        if self.close_reason is not None:
            try:
                await self._raw.close(*self.close_reason)
            except Exception:  # already closed
                return

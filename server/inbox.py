"""A connection's incoming messages, handed from the websocket protocol straight to the session.

uvicorn passes each message through a queue to the app's task: a task switch and a pause and resume of the
socket (two system calls) per message. `DirectProtocol` hands a message to the connection's `Inbox` as soon
as it is read, and reads the frames clients send most (small, whole, masked text or binary frames)
itself. The inbox handles messages one at a time, in order. With a store that answers without
waiting (the in-process one), a message is handled right there, with no task at all; when handling has to
wait (Redis, or a room's lock held by a bot), a task carries on and later messages queue behind it.
"""

from __future__ import annotations

import asyncio
import random
import struct
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover (websockets built without its C extension)
    from websockets.utils import apply_mask

from .connection import Conn, RawSocket, resume

Message = bytes | str
Handler = Callable[[Message], Coroutine[Any, Any, None]]
PAUSE_AT = 32  # messages waiting before the socket stops being read (the client is sending faster than we handle)
EAGER = 8  # messages of one read handled straight away; the rest wait for a task that lets other sockets in


class Inbox:
    def __init__(self, handle: Handler, eager: bool, pause: Callable[[bool], None] | None = None) -> None:
        self._handle = handle
        self._eager = eager  # may messages be handled outside a task (no asyncio.timeout inside, e.g. redis-py)
        self._pause = pause
        self._paused = False
        self._queue: deque[Message] = deque()
        self._task: asyncio.Task[None] | None = None
        self._run = 0  # messages of the current read handled straight away
        self.closed = False

    def new_read(self) -> None:
        self._run = 0

    def feed(self, message: Message) -> None:
        if self.closed:
            return
        if self._task is not None:
            self._queue.append(message)
            if len(self._queue) >= PAUSE_AT and self._pause is not None and not self._paused:
                self._paused = True
                self._pause(True)
            return
        if not self._eager or self._run >= EAGER:
            # (A read full of costly messages, handled all at once, would hold up every other socket.)
            self._queue.append(message)
            self._task = asyncio.get_running_loop().create_task(self._drain())
            return
        self._run += 1
        coro = self._handle(message)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return
        self._task = asyncio.get_running_loop().create_task(self._finish(coro, waiting))

    async def _finish(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        try:
            await resume(coro, waiting)
        except BaseException:
            self._task = None
            raise
        await self._drain()

    async def _drain(self) -> None:
        try:
            n = 0
            while self._queue and not self.closed:
                await self._handle(self._queue.popleft())
                n += 1
                if n % EAGER == 0:
                    await asyncio.sleep(0)  # other sockets' messages in between
        finally:
            self._task = None
            if self._paused and self._pause is not None:
                self._paused = False
                self._pause(False)

    def stop(self) -> None:
        """No more messages from now on (the connection is being dropped): what is queued is not carried out."""
        self.closed = True
        self._queue.clear()

    async def close(self) -> None:
        """No more messages; waits for the one being handled (so a join finishes before the leave)."""
        self.closed = True
        self._queue.clear()
        task = self._task
        if task is not None:
            await asyncio.wait([task])


OPEN = State.OPEN
TEXT_FINAL, BINARY_FINAL = 0x81, 0x82  # first byte of an unfragmented data frame with no extension bits
PING_FINAL, PONG_FINAL, CLOSE_FINAL = 0x89, 0x8A, 0x88
PING_HEAD = bytes((0x89, 4))  # a ping frame from the server: final, unmasked, a 4-byte payload


class DirectProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol; once the app sets `inbox`, messages go to it instead of the queue.

    websockets' frame parser is a chain of Python generators and a Frame object per frame, as much as the rest
    of receiving a decision. This protocol cuts the frames itself and reads the plain ones: whole text or
    binary frames, masked, up to the transport's size limit, and keepalive pongs. Every other frame (ping, close,
    fragments) is handed to the websockets parser whole, so that parser always starts at a frame boundary and keeps
    its own state (close handshake, keepalive, fragmentation) right; each of those frames takes from the
    connection's message rate first (a ping over it is not answered). A frame this reader never takes (past the
    size limit, or unmasked: either closes the connection) hands the websockets parser the rest of it."""

    inbox: Inbox | None = None
    session_conn: Conn | None = None  # the app's connection: its message rate covers the frames read here too
    _direct = True  # frames are cut here (until one is handed over for good)
    _rest = b""  # the start of a frame not yet whole

    def data_received(self, data: bytes) -> None:
        # The first call brings the upgrade request (uvicorn hands it over as a whole): websockets reads it.
        if not self._direct or not self.handshake_initiated:
            super().data_received(data)
            return
        buf = self._rest + data if self._rest else data
        self._rest = b""
        if self.inbox is not None:
            self.inbox.new_read()
        conn = self.conn
        i, end = 0, len(buf)
        while end - i >= 2:
            if conn.state is not OPEN:
                self._hand_over(buf[i:])
                return
            first, second = buf[i], buf[i + 1]
            n = second & 0x7F
            head = 6
            if n >= 126:
                head = 8 if n == 126 else 14
                if end - i < head - 4:
                    break
                n = buf[i + 2] << 8 | buf[i + 3] if head == 8 else int.from_bytes(buf[i + 2 : i + 10], "big")
                if conn.max_message_size is not None and n > conn.max_message_size:
                    self._hand_over(buf[i:])  # websockets closes with 1009
                    return
            if not second & 0x80:
                self._hand_over(buf[i:])  # a client frame unmasked: websockets refuses it
                return
            stop = i + head + n
            if stop > end:
                break
            client = self.session_conn
            # Every frame counts towards the message rate, pings and pongs too (the transport answers a ping
            # itself): one over the rate is left unanswered, and counts as a refused message. (A fragment over
            # the rate is carried on with, as a strike: skipping it would break the message.)
            if (
                first != TEXT_FINAL
                and first != BINARY_FINAL
                and first != CLOSE_FINAL
                and client is not None
                and (client.closed or not client.control_frame())
                and (first == PING_FINAL or first == PONG_FINAL)  # noqa: SIM109  # (ints: no tuple built)
            ):
                i = stop
                continue
            if (first == BINARY_FINAL or first == TEXT_FINAL) and conn.current_size is None:  # noqa: SIM109
                payload = apply_mask(buf[i + head : stop], buf[i + head - 4 : i + head])
                inbox = self.inbox
                if inbox is not None and first == BINARY_FINAL and not self.close_sent:
                    inbox.feed(payload)
                else:
                    self.curr_msg_data_type = "bytes" if first == BINARY_FINAL else "text"
                    self.frames = [payload]
                    self.send_receive_event_to_app()
            elif first == PONG_FINAL and head == 6:
                # The answer to a keepalive ping (each connection sends one every 20 s; websockets' parser does
                # nothing with a pong but pass it on): straight to uvicorn's handler.
                self.handle_pong(Frame(Opcode.PONG, apply_mask(buf[i + head : stop], buf[i + head - 4 : i + head])))
            else:
                conn.receive_data(buf[i:stop])
                if conn.parser_exc is not None:
                    self.handle_parser_exception()
                    return
                self.handle_events()
            i = stop
        if i < end:
            self._rest = buf[i:]  # at most one frame, of up to the transport's limit

    def _hand_over(self, rest: bytes) -> None:
        self._direct = False
        if rest:
            super().data_received(rest)

    def send_receive_event_to_app(self) -> None:
        inbox = self.inbox
        if inbox is None or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.curr_msg_data_type == "text":
            try:
                text = data.decode()
            except UnicodeDecodeError:
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
            inbox.feed(text)
        else:
            inbox.feed(data)

    # ---- writing: a broadcast frames once and writes the same bytes to every socket ----------------------

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.raw = RawSocket()  # (first: the base class's __init__ sets close_sent)
        super().__init__(*args, **kwargs)

    @property
    def close_sent(self) -> bool:
        return self.raw.close_sent

    @close_sent.setter
    def close_sent(self, value: bool) -> None:
        self.raw.close_sent = value

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.raw.transport = transport

    def pause_writing(self) -> None:
        self.raw.paused = True
        super().pause_writing()

    def resume_writing(self) -> None:
        self.raw.paused = False
        super().resume_writing()

    def send_keepalive_ping(self) -> None:
        """uvicorn's, with the ping frame written here: websockets makes it through its general framing, and
        with thousands of connections, each pinged every 20 s, that is a few percent of a busy node."""
        if self.conn.extensions or self.conn.state is not OPEN:  # (extensions may change what a frame looks like)
            super().send_keepalive_ping()
            return
        self.ping_timer = None
        if self.close_sent or self.transport.is_closing():
            return
        # A random payload names this ping: `handle_pong` ignores a pong that does not repeat it.
        payload = struct.pack("!I", random.getrandbits(32))
        self.pending_ping_payload = payload
        self.ping_sent_at = self.loop.time()
        self.transport.write(PING_HEAD + payload)
        if self.ping_timeout is not None:
            self.pong_timer = self.loop.call_later(self.ping_timeout, self.keepalive_timeout)
        else:
            self.schedule_ping()

    def pause(self, on: bool) -> None:
        if on:
            self.transport.pause_reading()
        elif not self.transport.is_closing():
            self.transport.resume_reading()

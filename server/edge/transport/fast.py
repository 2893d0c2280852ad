"""The fast transport: uvicorn's websockets-sansio protocol, with messages handed straight to the connection's
inbox and whole frames written straight to the socket. It builds on attributes and methods of uvicorn and
websockets that no public API promises; `BORROWED` names every one, `missing()` says which a release lacks
(then `rajas serve` falls back to the standard transport), and tests/security/test_transport_contract.py
fails on the same list.

uvicorn passes each message through a queue to the app's task: a task switch and a pause and resume of the
socket (two system calls) per message. `DirectProtocol` hands a message to the inbox as soon as it is read,
and reads the frames clients send most (small, whole, masked text or binary frames) itself.

Two budgets of a connection hold here, in every state of it: a frame that arrives a byte at a time costs time
linear in its size (the start of a frame is kept until the whole of it is there, not re-read with each byte), and
a connection the node closed costs nothing more (nothing it sends is parsed or answered but its close frame, and
only its first few frames are looked at; RAJAS_CLOSE_TIMEOUT later the socket is closed).
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover (websockets built without its C extension)
    from websockets.utils import apply_mask

from rajas.server.edge.connection import Conn
from rajas.server.edge.inbox import Handler, Inbox
from rajas.server.edge.transport.base import Send, Socket

# What this module relies on, by owner: methods it overrides or calls and attributes it reads or sets.
BORROWED: dict[str, tuple[str, ...]] = {
    "uvicorn WebSocketsSansIOProtocol methods": (
        "data_received", "send_receive_event_to_app", "handle_pong", "handle_events", "handle_parser_exception",
        "connection_made", "connection_lost", "pause_writing", "resume_writing", "send_keepalive_ping",
        "keepalive_timeout", "schedule_ping", "send",
    ),
    "uvicorn WebSocketsSansIOProtocol attributes": (
        "handshake_initiated", "conn", "frames", "curr_msg_data_type", "close_sent", "ping_timer", "pong_timer",
        "pending_ping_payload", "ping_sent_at", "ping_timeout", "queue", "loop", "transport", "close_timer",
        "close_timeout",
    ),
    "websockets ServerProtocol attributes": ("state", "max_message_size", "current_size", "parser_exc", "extensions"),
    "websockets ServerProtocol methods": ("receive_data", "send_close"),
}  # fmt: skip
KNOWN = {"uvicorn": ("0.54.",), "websockets": ("17.",)}  # the releases BORROWED was read from

OPEN = State.OPEN
TEXT_FINAL, BINARY_FINAL = 0x81, 0x82  # first byte of an unfragmented data frame with no extension bits
PING_FINAL, PONG_FINAL, CLOSE_FINAL = 0x89, 0x8A, 0x88
PING_HEAD = bytes((0x89, 4))  # a ping frame from the server: final, unmasked, a 4-byte payload
# What of a closed connection is looked at for the client's close frame (a well-behaved client sends it at once,
# behind at most a few frames already on their way); past either, reading stops.
AFTER_CLOSE, AFTER_CLOSE_FRAMES = 65536, 16


def _needed(rest: bytes | bytearray) -> int:
    """How many bytes the frame that `rest` starts needs before it can be read (its header, then all of it)."""
    if len(rest) < 2:
        return 2
    n = rest[1] & 0x7F
    head = 6 if n < 126 else 8 if n == 126 else 14
    if len(rest) < head - 4:
        return head - 4
    if n >= 126:
        n = rest[2] << 8 | rest[3] if head == 8 else int.from_bytes(rest[2:10], "big")
    return head + n


class DirectProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets-sansio protocol; once `attach` sets `inbox`, messages go to it instead of the queue.

    websockets' frame parser is a chain of Python generators and a Frame object per frame. This protocol
    cuts the frames itself and reads the plain ones: whole text or binary frames, masked, up to the size
    limit, and keepalive pongs. Every other frame (ping, close, fragments) is handed to the websockets parser
    whole, so that parser always starts at a frame boundary and keeps its own state right; each of those
    frames takes from the connection's message rate first (a ping over it is not answered). A frame this
    reader never takes (past the size limit, or unmasked: either closes the connection) hands the websockets
    parser the rest of it."""

    inbox: Inbox | None = None
    session_conn: Conn | None = None  # the app's connection: its message rate covers the frames read here too
    refused: Callable[..., None] | None = None  # counts frames dropped after a close (Metrics.limit_refusals.inc)
    _direct = True  # frames are cut here (until one is handed over for good)
    _rest: bytes | bytearray = b""  # the start of a frame not yet whole (a bytearray while it grows)
    _need = 0  # bytes `_rest` needs before its frame can be read
    _after_close = -1  # bytes looked at since the node closed the connection, or -1: not closed
    _dropped = 0  # frames dropped unread since then

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.socket = Socket()  # (first: the base class's __init__ sets close_sent)
        super().__init__(*args, **kwargs)
        # The node's settings ride on uvicorn's Config (serve.uvicorn_config): the close timeout (uvicorn's own
        # close_timeout, the wait for a client's close, is set to it too) and the counter of dropped frames.
        config = kwargs.get("config")
        self.close_timeout = float(getattr(config, "rajas_close_timeout", self.close_timeout))
        self.refused = getattr(config, "rajas_refused", None)

    def data_received(self, data: bytes) -> None:
        # The first call brings the upgrade request (uvicorn hands it over as a whole): websockets reads it.
        if not self.handshake_initiated:
            super().data_received(data)
            return
        client = self.session_conn
        if self._after_close >= 0 or self.close_sent or (client is not None and client.closed):
            self._closed_read(data)
            return
        if not self._direct:
            super().data_received(data)
            return
        rest = self._rest
        if rest:
            # A frame arriving in pieces: kept growing (amortised linear) until it is whole, then read once.
            if not isinstance(rest, bytearray):
                rest = self._rest = bytearray(rest)
            rest += data
            if len(rest) < self._need:
                return
            buf = bytes(rest)
            self._rest = b""
        else:
            buf = data
        if self.inbox is not None:
            self.inbox.new_read()
        conn = self.conn
        i, end = 0, len(buf)
        while end - i >= 2:
            if conn.state is not OPEN:
                self._closed_read(buf[i:])
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
                if inbox is not None and not self.close_sent:
                    if first == BINARY_FINAL:
                        inbox.feed(payload)
                    elif not self._feed_text(inbox, payload):
                        return
                else:
                    self.curr_msg_data_type = "bytes" if first == BINARY_FINAL else "text"
                    self.frames = [payload]
                    self.send_receive_event_to_app()
            elif first == PONG_FINAL and head == 6:
                # The answer to a keepalive ping (websockets' parser does nothing with a pong but pass it on).
                self.handle_pong(Frame(Opcode.PONG, apply_mask(buf[i + head : stop], buf[i + head - 4 : i + head])))
            else:
                conn.receive_data(buf[i:stop])
                if conn.parser_exc is not None:
                    self.handle_parser_exception()
                    return
                self.handle_events()
            i = stop
            client = self.session_conn
            if self.close_sent or (client is not None and client.closed):
                self._closed_read(buf[i:])  # (closed by what this read brought: the rest is not read)
                return
        if i < end:
            self._rest = buf[i:]  # at most one frame, of up to the transport's limit
            self._need = _needed(self._rest)

    def _closed_read(self, data: bytes) -> None:
        """Bytes from a connection the node closed: looked at only for the client's close frame (which ends the
        closing handshake), the first AFTER_CLOSE of them or AFTER_CLOSE_FRAMES frames; nothing else is parsed or
        answered. Past those, the socket is not read any more, and RAJAS_CLOSE_TIMEOUT after the close it is
        closed."""
        transport = self.transport
        if self._after_close < 0:
            self._after_close = 0
            self._rest = b""
            if self.close_timer is None and not transport.is_closing():
                self.close_timer = self.loop.call_later(self.close_timeout, transport.close)
        if transport.is_closing() or self._after_close > AFTER_CLOSE:
            return
        self._after_close += len(data)
        buf = self._rest + data if self._rest else data
        self._rest = b""
        i, end = 0, len(buf)
        while end - i >= 2:
            need = _needed(buf[i : i + 14])
            if end - i < need:
                break
            if buf[i] == CLOSE_FINAL and self.conn.state is not State.CLOSED:
                self.conn.receive_data(buf[i : i + need])
                self.handle_events()  # (our close answered: the handshake is over and the socket closed)
                return
            self._dropped += 1
            i += need
            if self._dropped >= AFTER_CLOSE_FRAMES:
                self._after_close = AFTER_CLOSE + 1
                break
        if self._after_close > AFTER_CLOSE:
            transport.pause_reading()  # (nothing more is read: the client's data waits in its own buffers)
        elif i < end:
            self._rest = buf[i:]

    def connection_lost(self, exc: Exception | None) -> None:
        if self._dropped and self.refused is not None:
            self.refused("after_close", self._dropped)
            self._dropped = 0
        super().connection_lost(exc)

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
            self._feed_text(inbox, data)
        else:
            inbox.feed(data)

    def _feed_text(self, inbox: Inbox, data: bytes) -> bool:
        """A text message to the inbox; False when it is not UTF-8 (the connection is then closed, 1007)."""
        try:
            text = data.decode()
        except UnicodeDecodeError:
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return False
        inbox.feed(text)
        return True

    # ---- writing: the socket's flags live in the compiled Socket, read by every broadcast ----------------

    @property
    def close_sent(self) -> bool:
        return self.socket.close_sent

    @close_sent.setter
    def close_sent(self, value: bool) -> None:
        self.socket.close_sent = value

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.socket.transport = transport

    def pause_writing(self) -> None:
        self.socket.paused = True
        super().pause_writing()

    def resume_writing(self) -> None:
        self.socket.paused = False
        super().resume_writing()

    def send_keepalive_ping(self) -> None:
        """uvicorn's, with the ping frame written here rather than through websockets' general framing, which
        with thousands of connections, each pinged every 20 s, is a measurable share of a busy node."""
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


def protocol_of(send: Send) -> DirectProtocol | None:
    """The connection's protocol, when it is ours: uvicorn's `send` is a bound method of it."""
    proto = getattr(send, "__self__", None)
    return proto if isinstance(proto, DirectProtocol) else None


def socket_of(proto: DirectProtocol, send: Send) -> Socket:
    """Frames go straight to the socket, unless an extension (compression) changes what a frame looks like."""
    if proto.conn.extensions:
        return Socket(send)
    proto.socket.send = send
    return proto.socket


def attach(proto: DirectProtocol, conn: Conn, handle: Handler, eager: bool) -> Inbox:
    """Messages go from the protocol straight to an inbox that hands them to `handle`; the app's receive loop
    then only waits for the close. A connection we drop must end that loop too (a slow client may never let
    the close frame out), and nothing it sent after that may be carried out."""
    inbox = proto.inbox = Inbox(handle, eager=eager, pause=proto.pause)
    proto.session_conn = conn
    queue = proto.queue

    def dropped() -> None:
        inbox.stop()
        queue.put_nowait({"type": "websocket.disconnect", "code": 1006})

    conn.on_drop = dropped
    return inbox


def missing() -> list[str]:
    """What of BORROWED this uvicorn and websockets lack, and releases other than those it was read from."""
    from importlib.metadata import version

    from websockets.server import ServerProtocol

    gone = [f"{p} {version(p)}" for p, known in KNOWN.items() if not version(p).startswith(known)]
    owners: dict[str, Any] = {"uvicorn": WebSocketsSansIOProtocol, "websockets": ServerProtocol}
    for what, names in BORROWED.items():
        owner = owners[what.split()[0]]
        if what.endswith("methods"):
            gone += [f"{what}: {n}" for n in names if not callable(getattr(owner, n, None))]
    return gone

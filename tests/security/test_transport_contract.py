"""The node's limits sit on uvicorn's and websockets' internals (server/inbox.py, server/serve.py, server/app.py):
methods it overrides and attributes it reads that no public API promises. A release that renames one would
quietly switch a limit off (a half-sent request never timed out again, pings answered without limit); this
says which one, loudly, instead."""

from __future__ import annotations

import inspect

import uvicorn
from rajas.server.app import create_app
from rajas.server.inbox import DirectProtocol
from rajas.server.memory_store import MemoryStore
from rajas.server.serve import uvicorn_config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.server import ServerProtocol

# uvicorn's websockets-sansio protocol: what DirectProtocol overrides, calls or reads (inbox.py; app.py reads
# `queue`, `conn` and finds the protocol as `send.__self__`).
WS_METHODS = (
    "data_received", "send_receive_event_to_app", "handle_pong", "handle_events", "handle_parser_exception",
    "connection_made", "pause_writing", "resume_writing", "send_keepalive_ping", "keepalive_timeout",
    "schedule_ping", "send",
)  # fmt: skip
WS_ATTRIBUTES = (
    "handshake_initiated", "conn", "frames", "curr_msg_data_type", "close_sent", "ping_timer", "pong_timer",
    "pending_ping_payload", "ping_sent_at", "ping_timeout", "queue", "loop", "transport",
)  # fmt: skip
# websockets' sans-I/O connection, as DirectProtocol cuts frames for it.
PARSER_ATTRIBUTES = ("state", "max_message_size", "current_size", "parser_exc", "extensions")
PARSER_METHODS = ("receive_data", "send_close")
# uvicorn's httptools protocol: what serve.guarded_http overrides (the request deadline and the head's size).
HTTP_METHODS = (
    "connection_made", "connection_lost", "data_received", "send_400_response", "on_message_begin", "on_url",
    "on_header", "on_headers_complete", "on_message_complete", "handle_websocket_upgrade",
)  # fmt: skip
HTTP_ATTRIBUTES = ("loop", "transport", "cycle", "parser")


async def test_the_websocket_protocols_internals_are_still_there() -> None:
    config = uvicorn_config(create_app(MemoryStore()), "127.0.0.1", 0)
    config.load()
    proto = DirectProtocol(config=config, server_state=ServerState(), app_state={})
    missing = [m for m in WS_METHODS if not callable(getattr(WebSocketsSansIOProtocol, m, None))]
    missing += [a for a in WS_ATTRIBUTES if not hasattr(proto, a)]
    assert not missing, f"uvicorn's websockets-sansio protocol no longer has {missing}"
    assert isinstance(proto.conn, ServerProtocol)
    missing = [a for a in PARSER_ATTRIBUTES if not hasattr(proto.conn, a)]
    missing += [m for m in PARSER_METHODS if not callable(getattr(proto.conn, m, None))]
    assert not missing, f"websockets' ServerProtocol no longer has {missing}"
    # app.py finds the protocol of a connection through the `send` it is given: a bound method of it.
    assert proto.send.__self__ is proto


async def test_the_http_protocols_internals_are_still_there() -> None:
    config = uvicorn_config(create_app(MemoryStore()), "127.0.0.1", 0)
    config.load()
    guarded = config.http_protocol_class
    assert issubclass(guarded, HttpToolsProtocol)
    missing = [m for m in HTTP_METHODS if m not in vars(HttpToolsProtocol)]  # (overridden: must be its own)
    assert not missing, f"uvicorn's httptools protocol no longer has {missing}: a limit of serve.py is off"
    proto = guarded(config=config, server_state=ServerState(), app_state={})
    missing = [a for a in HTTP_ATTRIBUTES if not hasattr(proto, a)]
    assert not missing, f"uvicorn's httptools protocol no longer has {missing}"
    # The deadline closes a request whose answer has started without a word more: it reads this flag.
    assert "self.response_started" in inspect.getsource(RequestResponseCycle.__init__)
    # uvicorn calls the parser's callbacks by these names; the head's size is counted in two of them.
    assert {"on_url", "on_header"} <= set(vars(guarded))


def test_uvicorn_is_the_version_these_internals_were_read_from() -> None:
    assert uvicorn.__version__.startswith("0.54."), "read server/inbox.py and serve.py against the new uvicorn"

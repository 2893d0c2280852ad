"""The fast transport (server/transport/fast.py, http.py, base.py) sits on uvicorn's, websockets' and
asyncio's internals: methods it overrides and attributes it reads that no public API promises. A release that
renames one would quietly switch a limit off (a half-sent request never timed out again, pings answered
without limit) or break the node; this names which one, loudly. `rajas serve` itself falls back to the
standard transport, with a warning, on a release the fast one was not read from."""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
import sys
from pathlib import Path

import pytest
from rajas.server.app import create_app
from rajas.server.edge import transport
from rajas.server.edge.transport import fast, http
from rajas.server.serve import uvicorn_config
from rajas.server.storage.memory_store import MemoryStore
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.server import ServerProtocol

SERVER = Path(transport.__file__).parent.parent


def _missing(owner: object, names: tuple[str, ...], methods: bool) -> list[str]:
    if methods:
        return [n for n in names if not callable(getattr(owner, n, None))]
    return [n for n in names if not hasattr(owner, n)]


async def test_the_websocket_protocols_internals_are_still_there() -> None:
    config = uvicorn_config(create_app(MemoryStore()), "127.0.0.1", 0, mode="fast")
    config.load()
    proto = fast.DirectProtocol(config=config, server_state=ServerState(), app_state={})
    assert isinstance(proto.conn, ServerProtocol)
    owners = {"uvicorn": (WebSocketsSansIOProtocol, proto), "websockets": (ServerProtocol, proto.conn)}
    for what, names in fast.BORROWED.items():
        cls, instance = owners[what.split()[0]]
        methods = what.endswith("methods")
        missing = _missing(cls if methods else instance, names, methods)
        assert not missing, f"{what}: {missing} gone; port server/transport/fast.py (or serve --transport standard)"
    # Link finds the protocol of a connection through the `send` it is given: a bound method of it.
    assert proto.send.__self__ is proto
    assert fast.protocol_of(proto.send) is proto


async def test_the_http_protocols_internals_are_still_there() -> None:
    config = uvicorn_config(create_app(MemoryStore()), "127.0.0.1", 0, mode="fast")
    config.load()
    guarded = config.http_protocol_class
    assert issubclass(guarded, HttpToolsProtocol)
    assert not http.missing(), f"{http.missing()}: a limit of server/transport/http.py is off"
    proto = guarded(config=config, server_state=ServerState(), app_state={})
    names = http.BORROWED["uvicorn HttpToolsProtocol attributes"]
    missing = _missing(proto, names, False)
    assert not missing, f"uvicorn's httptools protocol no longer has {missing}"
    # The deadline closes a request whose answer has started without a word more: it reads this flag.
    assert "self.response_started" in inspect.getsource(RequestResponseCycle.__init__)
    # uvicorn calls the parser's callbacks by these names; the head's size is counted in two of them.
    assert {"on_url", "on_header"} <= set(vars(guarded))


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.12+ starts coroutines with asyncio's eager tasks")
async def test_asyncios_future_still_has_the_flag_a_hand_stepped_coroutine_resets() -> None:
    future = asyncio.get_running_loop().create_future()
    assert hasattr(future, "_asyncio_future_blocking"), "server/transport/base.py's _resume must be ported"


def test_the_fast_transport_was_read_from_these_releases() -> None:
    assert not fast.missing(), f"{fast.missing()}: read server/transport/fast.py against the new release"
    assert transport.choose("fast") == "fast"


def test_an_unknown_release_falls_back_to_the_standard_transport(caplog: pytest.LogCaptureFixture) -> None:
    known = dict(fast.KNOWN)
    fast.KNOWN["uvicorn"] = ("0.0.",)  # (as if uvicorn had moved on)
    try:
        with caplog.at_level(logging.WARNING, logger="rajas.server"):
            assert transport.choose("fast") == "standard"
    finally:
        fast.KNOWN.update(known)
    assert any(getattr(r, "event", None) == "transport_fallback" for r in caplog.records)
    assert transport.choose("standard") == "standard"
    with pytest.raises(ValueError):
        transport.choose("turbo")


PRIVATE = re.compile(
    r"uvicorn\.protocols|websockets\.(frames|protocol|server|speedups|utils)\b|_asyncio_|__self__|\bproto\.\w+"
)


def test_no_module_outside_the_transport_names_those_internals() -> None:
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        if "transport" in path.relative_to(SERVER).parts or path.name.startswith("bench"):
            continue  # (the benchmarks' bare baseline is a websockets server of its own, on its public API)
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if PRIVATE.search(line):
                found.append(f"{path.relative_to(SERVER)}:{n}: {line.strip()}")
    assert not found, "uvicorn/websockets/asyncio internals outside server/transport:\n" + "\n".join(found)

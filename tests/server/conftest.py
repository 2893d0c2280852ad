"""Fixtures for the server tests: a real redis-server, and the real app on uvicorn over loopback."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import uvicorn
from rajas.protocol.client import Client
from rajas.server.app import create_app
from rajas.server.config import ServeSettings
from rajas.server.rooms.hub import Hub
from rajas.server.serve import uvicorn_config
from rajas.server.storage.archive import HistorySettings
from rajas.server.storage.memory_store import MemoryStore
from rajas.server.storage.redis_store import RedisStore
from rajas.server.storage.store import RoomStore

from tests.scale.cluster import Cluster, redis_cluster

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"
# The transport every server here runs (tests/run.sh runs these tests under both; server/transport).
TRANSPORT = os.environ.get("RAJAS_TRANSPORT", "fast")
fast_only = pytest.mark.skipif(TRANSPORT != "fast", reason="needs the fast transport (see docs/security.md)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def own_redis_server(*args: str) -> Iterator[str]:
    """A redis-server of our own on a free port (`args`: more of its settings), its files in a temporary
    directory; its URL."""
    tmp = tempfile.mkdtemp(prefix="rajas-redis-")
    port = free_port()
    proc = subprocess.Popen(
        [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--dir", tmp, "--save", "", "--appendonly", "no", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The session's redis-server, shared by the tests that run on Redis."""
    with own_redis_server() as url:
        yield url


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A Redis Cluster of three masters, for the tests of a module that run on one."""
    with redis_cluster(3) as c:
        yield c


@pytest.fixture
async def cluster_store(cluster: Cluster) -> AsyncIterator[RedisStore]:
    """The Redis store on `cluster`, started, and closed after the test."""
    s = RedisStore(cluster.url)
    await s.start()
    try:
        yield s
    finally:
        await s.close()


@dataclass
class Running:
    url: str
    hub: Hub
    store: RoomStore
    tasks: Any = None  # the node's room tasks (timers and bots)
    turns: Any = None  # its turn-based rooms' service
    history: Any = None  # its game history


@contextlib.asynccontextmanager
async def run_server(
    store: RoomStore,
    settings: ServeSettings | None = None,
    ping: float | None = None,
    history: HistorySettings | None = None,
) -> AsyncIterator[Running]:
    """The real app on uvicorn, in this event loop, on a loopback socket, on the transport RAJAS_TRANSPORT
    names (`ping`: the keepalive interval and timeout, seconds, instead of uvicorn's 20)."""
    app = create_app(store, settings, history_settings=history)
    # IPPROTO_TCP named explicitly: asyncio sets TCP_NODELAY on accepted sockets only when the listening
    # socket says so, and without it Nagle's algorithm adds ~40 ms to every request/reply.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn_config(app, "127.0.0.1", port, mode=TRANSPORT)
    if ping is not None:
        config.ws_ping_interval = config.ws_ping_timeout = ping
    server = uvicorn.Server(config)
    server.install_signal_handlers = lambda: None  # type: ignore[method-assign]  # (older uvicorn)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        state = app.state
        yield Running(f"http://127.0.0.1:{port}", state.hub, store, state.tasks, state.turns, state.history)
    finally:
        server.should_exit = True
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(task, 5)
        sock.close()


def make_store(kind: str, redis_url: str | None) -> RoomStore:
    if kind == "redis":
        assert redis_url is not None
        return RedisStore(redis_url)
    return MemoryStore()


@pytest.fixture(params=["memory", "redis"])
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


# The servers of `server` and `memory_server` are shared by the tests of a module (on each pytest-xdist worker,
# in the module's event loop, pyproject.toml): starting one costs more than most tests here. Each test makes
# rooms of its own, so they do not meet; the server's per-address limits are opened wide (every test comes
# from 127.0.0.1), and tests/server/test_limits.py tests them on servers of its own. A test that counts
# server-wide figures (its metrics), changes the server or fills its room list is marked `own_server` and
# gets a server of its own, as do the tests that start one with other settings (run_server).
SHARED_LIMITS = ServeSettings(
    rooms_per_minute=1_000_000,
    rooms_per_address=1_000_000,
    conns_per_address=1_000_000,
    listed_per_address=1_000_000,
    turn_rooms_per_address=1_000_000,
    http_conns_per_address=1_000_000,
)


@pytest.fixture(scope="module")
async def _shared_memory_server() -> AsyncIterator[Running]:
    async with run_server(MemoryStore(), SHARED_LIMITS) as running:
        yield running


@pytest.fixture(scope="module")
async def _shared_redis_server(redis_url: str) -> AsyncIterator[Running]:
    async with run_server(RedisStore(redis_url), SHARED_LIMITS) as running:
        yield running


@pytest.fixture
async def _own_memory_server() -> AsyncIterator[Running]:
    async with run_server(MemoryStore()) as running:
        yield running


@pytest.fixture
async def _own_redis_server(redis_url: str) -> AsyncIterator[Running]:
    async with run_server(RedisStore(redis_url)) as running:
        yield running


def _serving(kind: str, request: pytest.FixtureRequest) -> Running:
    whose = "own" if request.node.get_closest_marker("own_server") else "shared"
    running: Running = request.getfixturevalue(f"_{whose}_{kind}_server")
    return running


@pytest.fixture
def server(store_kind: str, request: pytest.FixtureRequest) -> Running:
    return _serving(store_kind, request)


@pytest.fixture
def memory_server(request: pytest.FixtureRequest) -> Running:
    return _serving("memory", request)


class Clients:
    """Opens clients against a server and closes them all at the end of the test."""

    def __init__(self) -> None:
        self.all: list[Client] = []

    async def open(self, url: str, binary: bool = True) -> Client:
        c = await Client(url, binary=binary).connect()
        self.all.append(c)
        return c

    async def close(self) -> None:
        await asyncio.gather(*(c.close() for c in self.all), return_exceptions=True)


@pytest.fixture
async def clients() -> AsyncIterator[Clients]:
    c = Clients()
    try:
        yield c
    finally:
        await c.close()


async def seated_room(
    clients: Clients, url: str, players: int = 2, start: bool = True, **settings: Any
) -> tuple[dict[str, Any], list[Client]]:
    """A room with `players` seated clients (the first is the host); started unless start=False."""
    host = await clients.open(url)
    created = await host.create_room(seats=settings.pop("seats", players), **settings)
    await host.join(created["code"], name="p0", host_token=created["host_token"])
    seated = [host]
    for i in range(1, players):
        c = await clients.open(url)
        await c.join(created["code"], name=f"p{i}")
        seated.append(c)
    if start:
        await host.start()
        for c in seated:
            await c.wait_for(lambda c: c.game is not None)
    return created, seated


def mover(seated: list[Client]) -> Client:
    """The client whose decision is pending (their mirrors agree once they are at the same version)."""
    pending = seated[0].pending
    assert pending is not None
    return next(c for c in seated if c.seat == pending["player"])


async def sync(seated: list[Client], v: int) -> None:
    for c in seated:
        await c.wait_for(lambda c: c.v >= v)


async def play_random(seated: list[Client], seed: int = 0, max_decisions: int = 5000) -> int:
    """Plays random legal decisions until the game is over; returns how many were taken."""
    rng = random.Random(seed)
    n = 0
    while not seated[0].over and n < max_decisions:
        c = mover(seated)
        assert c.pending is not None
        data = await c.decide(rng.choice(c.pending["options"]), v=c.v)
        await sync(seated, data["v"])
        n += 1
    return n

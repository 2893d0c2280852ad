"""The store's redis-py client and its batches on a real redis-server: a pass's commits split into pipelines of at
most BATCH_BYTES, the heartbeat ends on close even when its cancellation is swallowed, and after a Redis restart or
dropped subscriber connections the rooms' channels are heard again and commits land."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from rajas.protocol import pack
from rajas.server.storage.redis_batches import BATCH_BYTES, Batches
from rajas.server.storage.redis_store import RedisStore

from tests.scale.cluster import Cluster

from .conftest import REDIS, free_port

LENGTH = "return string.len(ARGV[1])"  # a script answering with the size of what it was sent


def count_pipelines(redis: aioredis.Redis) -> list[int]:
    """The number of commands of each pipeline `redis` sends from now on, in the order they are sent."""
    sent: list[int] = []
    make = redis.pipeline

    def pipeline(*args: Any, **kwargs: Any) -> Any:
        pipe = make(*args, **kwargs)
        execute = pipe.execute

        async def counted(*a: Any, **kw: Any) -> Any:
            sent.append(len(pipe.command_stack))
            return await execute(*a, **kw)

        pipe.execute = counted  # type: ignore[method-assign]
        return pipe

    redis.pipeline = pipeline  # type: ignore[method-assign]
    return sent


async def test_a_pass_of_calls_goes_in_pipelines_of_at_most_batch_bytes(redis_url: str) -> None:
    redis = aioredis.Redis.from_url(redis_url)
    try:
        script = redis.register_script(LENGTH)
        await redis.script_load(LENGTH)
        batches = Batches(redis, script)
        sent = count_pipelines(redis)
        quarter = b"x" * (BATCH_BYTES // 4 + 1)  # (three fit in a batch, a fourth would pass the limit)
        got = await asyncio.gather(*[batches([], [quarter]) for _ in range(10)])
        assert got == [len(quarter)] * 10
        assert sent == [3, 3, 3, 1]
        sent.clear()
        huge = b"y" * (BATCH_BYTES + 1)  # a call larger than a batch still goes, in a pipeline of its own
        got = await asyncio.gather(batches([], [b"a"]), batches([], [huge]), batches([], [b"b"]))
        assert got == [1, len(huge), 1] and sent == [1, 1, 1]
        sent.clear()
        assert await batches([], [b"one"]) == 3  # the next pass: a batch of its own
        assert await batches([], [b"two!"]) == 4
        assert sent == [1, 1]
        await batches.close()
    finally:
        await redis.aclose()


async def test_close_ends_the_heartbeat_even_when_its_cancellation_is_swallowed(redis_url: str) -> None:
    store = RedisStore(redis_url, heartbeat=0.05)
    await store.start()
    asked = asyncio.Event()
    swallowed: list[bool] = []

    async def run_id() -> str | None:
        # As redis-py may take a cancelled read for a lost connection, which the real _run_id then suppresses.
        asked.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            swallowed.append(True)
        return None

    store._run_id = run_id  # type: ignore[method-assign]
    await asyncio.wait_for(asked.wait(), 5)  # the beat waits inside its loop
    started = time.monotonic()
    await store.close()
    assert swallowed and store._beater is not None and store._beater.done()
    assert time.monotonic() - started < 2  # (not the close's own time limit, heartbeat + 5 s)


@contextlib.contextmanager
def restartable_redis() -> Iterator[tuple[str, Callable[[], None]]]:
    """A redis-server of our own, its URL, and a function that kills it and starts a new one on the same port (its
    data, scripts and connections gone, as after a crash)."""
    tmp = tempfile.mkdtemp(prefix="rajas-restart-")
    port = free_port()
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        procs.append(subprocess.Popen(
            [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--dir", tmp, "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ))  # fmt: skip
        deadline = time.monotonic() + 10
        while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).stdout != b"PONG\n":
            assert time.monotonic() < deadline and procs[-1].poll() is None, "redis-server did not start"
            time.sleep(0.05)

    def restart() -> None:
        procs[-1].kill()
        procs[-1].wait()
        start()

    start()
    try:
        yield f"redis://127.0.0.1:{port}/0", restart
    finally:
        for p in procs:
            p.kill()
            p.wait()
        shutil.rmtree(tmp, ignore_errors=True)


async def until_heard(publish: Callable[[], Any], heard: Callable[[], bool], seconds: float = 15.0) -> None:
    """Publishes again every 50 ms until `heard()` (a subscription, or its renewal, takes effect when Redis has read
    it)."""
    deadline = time.monotonic() + seconds
    while not heard():
        assert time.monotonic() < deadline, "nothing heard"
        with contextlib.suppress(Exception):  # (the server may still be coming back)
            await publish()
        await asyncio.sleep(0.05)


async def test_after_a_redis_restart_a_room_is_heard_again_and_commits_land() -> None:
    with restartable_redis() as (url, restart):
        store = RedisStore(url, heartbeat=0.1)
        await store.start()
        caught_up: list[int] = []
        store.on_reconnect = lambda: caught_up.append(1)
        heard: list[bytes] = []

        def publish(data: bytes) -> Callable[[], Any]:
            return lambda: store.redis.execute_command(store._publish, store.channel("restart"), data)

        try:
            assert await store.create("restart", "restart-w", pack({"v": 1}), public=False)
            await store.subscribe("restart", heard.append)
            await until_heard(publish(b"before"), lambda: b"before" in heard)
            restart()
            # The pool's connections are dead and the commit script is gone: the create reconnects, the commit
            # loads the script again (NOSCRIPT), and the channel's connection comes back subscribed.
            assert await store.create("restart", "restart-w", pack({"v": 1}), public=False)
            assert await store.commit("restart", 1, pack({"v": 2}), None, b"committed")
            assert await store.version("restart") == 2
            await until_heard(publish(b"after"), lambda: b"after" in heard)
            for _ in range(100):  # the heartbeat saw a new run_id: the hub catches up on what it missed
                if caught_up:
                    break
                await asyncio.sleep(0.05)
            assert caught_up
        finally:
            await store.close()


@pytest.mark.parametrize("where", ["single", "cluster"])
async def test_a_room_is_heard_again_after_every_subscriber_connection_is_dropped(
    where: str, redis_url: str, request: pytest.FixtureRequest
) -> None:
    cluster: Cluster | None = request.getfixturevalue("cluster") if where == "cluster" else None
    url = cluster.url if cluster is not None else redis_url
    store = RedisStore(url)
    await store.start()
    codes = [f"drop-{where}-{i}" for i in range(6)]  # (on a cluster, spread over the masters)
    heard: set[tuple[str, bytes]] = set()
    try:
        for code in codes:
            await store.subscribe(code, lambda m, code=code: heard.add((code, m)))

        async def publish_all(data: bytes) -> None:
            for code in codes:
                await store.redis.execute_command(store._publish, store.channel(code), data)

        await until_heard(lambda: publish_all(b"before"), lambda: all((c, b"before") in heard for c in codes))
        if cluster is not None:
            for port in cluster.ports:
                cluster.cli("client", "kill", "type", "pubsub", port=port)
        else:
            await store.redis.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
        await until_heard(lambda: publish_all(b"after"), lambda: all((c, b"after") in heard for c in codes))
    finally:
        await store.close()

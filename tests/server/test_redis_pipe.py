"""The commit pipe: pipelined answers in order, errors as PipeError, reconnects; commits fall back to redis-py."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis
from rajas.protocol import pack
from rajas.server.storage.redis_pipe import Pipe, PipeError, Subscriber, encode
from rajas.server.storage.redis_store import RedisStore


def test_commands_are_resp_arrays_of_bulk_strings() -> None:
    assert encode(["SET", "k", b"\x00v", 7]) == b"*4\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\n\x00v\r\n$1\r\n7\r\n"


async def test_answers_come_back_in_order_and_errors_as_pipe_errors(redis_url: str) -> None:
    pipe = Pipe(redis_url.replace("/0", "/3"))  # (a database other than 0: SELECT on connect)
    try:
        await pipe.call(["DEL", "rajas-test:n"])
        got = await asyncio.gather(*(pipe.call(["INCR", "rajas-test:n"]) for _ in range(200)))
        assert got == list(range(1, 201))
        with pytest.raises(PipeError, match="NOSCRIPT"):
            await pipe.call(["EVALSHA", "0" * 40, 0])
        assert await pipe.call(["GET", "rajas-test:n"]) == b"200"  # the connection survived the error
        plain = aioredis.Redis.from_url(redis_url)
        assert await plain.get("rajas-test:n") is None  # it was database 3
        await plain.aclose()
    finally:
        pipe.close()


async def test_many_commands_in_one_write_answer_in_order(redis_url: str) -> None:
    pipe = Pipe(redis_url)
    try:
        await pipe.call(["SET", "rajas-test:there", b"1"])
        got = await pipe.call_many([["EXISTS", "rajas-test:there"], ["EXISTS", "rajas-test:not-there"]] * 50)
        assert got == [1, 0] * 50
        with pytest.raises(PipeError, match="NOSCRIPT"):
            await pipe.call_many([["PING"], ["EVALSHA", "0" * 40, 0]])
        assert await pipe.call(["PING"]) == b"PONG"
    finally:
        pipe.close()


async def test_a_lost_connection_fails_what_waits_and_the_next_call_reconnects(redis_url: str) -> None:
    pipe = Pipe(redis_url)
    try:
        await pipe.call(["PING"])
        waiting = asyncio.ensure_future(pipe.call(["BLPOP", "rajas-test:never", 5]))
        await asyncio.sleep(0.05)
        pipe.close()
        with pytest.raises(PipeError):
            await waiting
        assert await pipe.call(["PING"]) == b"PONG"
    finally:
        pipe.close()
    with pytest.raises(PipeError, match="cannot reach"):
        await Pipe("redis://127.0.0.1:1/0").call(["PING"])


async def test_commits_still_land_when_the_script_cache_is_flushed(redis_url: str) -> None:
    # After a Redis restart the script is gone: the pipe's EVALSHA fails and redis-py loads it again.
    store = RedisStore(redis_url)
    await store.start()
    try:
        assert await store.create("pipetest", "pipewatch", pack({"v": 1}), public=False)
        await store.redis.script_flush()
        assert await store.commit("pipetest", 1, pack({"v": 2}), None, pack({"type": "update", "v": 2}))
        assert await store.commit("pipetest", 2, pack({"v": 3}), None, pack({"type": "update", "v": 3}))
        assert not await store.commit("pipetest", 2, pack({"v": 3}), None, pack({"type": "update", "v": 3}))
        assert await store.load("pipetest") == pack({"v": 3})
    finally:
        await store.redis.delete(store._room("pipetest"), "rajas:watch:pipewatch")
        await store.close()


@pytest.mark.parametrize("sharded", [False, True])
async def test_the_subscriber_hands_over_messages_and_subscribes_again_after_a_lost_connection(
    redis_url: str, sharded: bool
) -> None:
    got: list[tuple[bytes, bytes]] = []
    sub = Subscriber(redis_url, lambda channel, data: got.append((channel, data)), sharded=sharded)
    plain = aioredis.Redis.from_url(redis_url)
    publish = "SPUBLISH" if sharded else "PUBLISH"  # (a shard channel hears SPUBLISH only, a plain one PUBLISH)
    try:
        await sub.start()
        sub.subscribe("rajas-test:a")
        sub.subscribe("rajas-test:b")

        async def publish_until_heard(channel: str, data: bytes) -> None:
            for _ in range(100):  # (a subscription takes effect when Redis has read it)
                await plain.execute_command(publish, channel, data)
                await asyncio.sleep(0.02)
                if (channel.encode(), data) in got:
                    return
            raise AssertionError(f"nothing heard on {channel}")

        await publish_until_heard("rajas-test:a", b"\x00one")
        sub.unsubscribe("rajas-test:a")
        await publish_until_heard("rajas-test:b", b"two")
        got.clear()
        await plain.execute_command(publish, "rajas-test:a", b"not for us")
        await plain.execute_command("CLIENT", "KILL", "TYPE", "pubsub")  # the connection drops
        await publish_until_heard("rajas-test:b", b"three")  # back, and subscribed again
        assert (b"rajas-test:a", b"not for us") not in got
    finally:
        sub.close()
        await plain.aclose()

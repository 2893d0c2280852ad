"""A connection's messages are handled one at a time, in the order they came, whether or not handling waits."""

from __future__ import annotations

import asyncio

import pytest
from rajas.server.edge.inbox import PAUSE_AT, Inbox
from rajas.server.edge.transport.base import EAGER_TASKS


@pytest.mark.parametrize("eager", [True, False])
async def test_messages_are_handled_in_order_even_when_one_waits(eager: bool) -> None:
    done: list[bytes | str] = []
    gate = asyncio.get_running_loop().create_future()
    paused: list[bool] = []

    async def handle(message: bytes | str) -> None:
        if message == b"slow":
            await gate  # e.g. a Redis commit, or a room lock a bot holds
        done.append(message)

    inbox = Inbox(handle, eager=eager, pause=paused.append)
    inbox.feed(b"first")
    # eager (always on 3.12+, asyncio's eager tasks): handled right away, no task switch
    assert done == ([b"first"] if eager or EAGER_TASKS else [])
    inbox.feed(b"slow")
    for i in range(PAUSE_AT):
        inbox.feed(f"m{i}")
    assert paused == [True]  # too many waiting: the socket stops being read
    await asyncio.sleep(0.01)
    assert done == [b"first"]
    gate.set_result(None)
    await asyncio.sleep(0.01)
    assert done == [b"first", b"slow", *(f"m{i}" for i in range(PAUSE_AT))]
    assert paused == [True, False]
    await inbox.close()
    inbox.feed(b"after close")
    await asyncio.sleep(0)
    assert done[-1] == f"m{PAUSE_AT - 1}"


async def test_closing_waits_for_the_message_in_hand_and_drops_the_rest() -> None:
    # The client is gone: what it sent but was never answered, it sends again after reconnecting.
    done: list[bytes | str] = []
    gate = asyncio.get_running_loop().create_future()

    async def handle(message: bytes | str) -> None:
        await gate
        done.append(message)

    inbox = Inbox(handle, eager=True)
    inbox.feed(b"join")
    inbox.feed(b"decide")
    closing = asyncio.ensure_future(inbox.close())
    await asyncio.sleep(0.01)
    assert not closing.done()
    gate.set_result(None)
    await closing
    assert done == [b"join"]


async def test_a_message_handled_at_once_may_use_asyncio_timeout_on_a_store_that_needs_a_task() -> None:
    """redis-py wraps its calls in asyncio.timeout, which needs a current task: on 3.11 such a store's
    messages go through a task; on 3.12+ an eager task starts them in the caller all the same."""
    done: list[bytes | str] = []

    async def handle(message: bytes | str) -> None:
        async with asyncio.timeout(1):
            done.append(message)

    inbox = Inbox(handle, eager=False)
    inbox.feed(b"decide")
    assert done == ([b"decide"] if EAGER_TASKS else [])
    await asyncio.sleep(0.01)
    assert done == [b"decide"]
    await inbox.close()

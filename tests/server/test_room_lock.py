"""A room's changes on one node take turns: the room lock (server/hub.py), which replaced asyncio.Lock.

It must behave as asyncio's does: changes go one at a time in the order they asked, and a change whose task
is cancelled while it waits (a client gone, the node shutting down) never leaves the room locked for good.
"""

from __future__ import annotations

import asyncio

import pytest
from rajas.server.hub import RoomLock


async def hold(lock: RoomLock, name: str, log: list[str], gate: asyncio.Event | None = None) -> None:
    async with lock:
        log.append(f"{name} in")
        if gate is not None:
            await gate.wait()
        else:
            await asyncio.sleep(0)
        log.append(f"{name} out")


async def test_changes_take_turns_in_the_order_they_asked() -> None:
    lock, log = RoomLock(), []
    await asyncio.gather(*(hold(lock, name, log) for name in "abc"))
    assert log == ["a in", "a out", "b in", "b out", "c in", "c out"]
    assert not lock.held


async def test_a_change_cancelled_while_it_waits_does_not_hold_up_the_next() -> None:
    lock, log, gate = RoomLock(), [], asyncio.Event()
    first = asyncio.create_task(hold(lock, "a", log, gate))
    waiting = asyncio.create_task(hold(lock, "b", log))
    last = asyncio.create_task(hold(lock, "c", log))
    await asyncio.sleep(0)
    waiting.cancel()
    gate.set()
    await asyncio.wait_for(asyncio.gather(first, last), 5)  # (a room left locked: the test fails, not hangs)
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert log == ["a in", "a out", "c in", "c out"]
    assert not lock.held


async def test_a_change_cancelled_just_as_the_lock_came_to_it_passes_the_lock_on() -> None:
    lock, log, gate = RoomLock(), [], asyncio.Event()
    first = asyncio.create_task(hold(lock, "a", log, gate))
    waiting = asyncio.create_task(hold(lock, "b", log))
    last = asyncio.create_task(hold(lock, "c", log))
    await asyncio.sleep(0)
    gate.set()
    await asyncio.sleep(0)  # "a" leaves and hands the lock to "b", which has not run since
    waiting.cancel()
    await asyncio.wait_for(asyncio.gather(first, last), 5)  # (a room left locked: the test fails, not hangs)
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert log == ["a in", "a out", "c in", "c out"]
    assert not lock.held


async def test_a_free_lock_is_taken_without_waiting() -> None:
    lock = RoomLock()
    async with lock:
        assert lock.held
    assert not lock.held
